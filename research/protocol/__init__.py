"""Formats shared by the retrieval package and the harness (framework-free, dependency-free)."""
