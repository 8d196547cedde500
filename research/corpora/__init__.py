"""Corpora: creation, uploads, the ingestion pipeline and its tasks, documents and their views."""
