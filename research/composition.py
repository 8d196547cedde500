"""Composition root: turns Django settings into configured clients and backends, once per process."""

from __future__ import annotations

from functools import cache

from chromadb.api import ClientAPI
from django.conf import settings

from research.retrieval.chroma_client import open_client


@cache
def chroma_client() -> ClientAPI:
    return open_client(url=settings.CHROMA.url, path=settings.CHROMA.path)
