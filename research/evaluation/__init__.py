"""Evaluation: task and corpus formats, metrics, runners."""
