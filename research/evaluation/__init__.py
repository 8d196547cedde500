"""Evaluation: task and corpus formats, dataset converters, metrics, runners, retrieval benchmarks."""
