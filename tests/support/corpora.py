"""Waiting on ingestion in tests that run a real worker."""

from __future__ import annotations

from research.models import Corpus, Stage, UploadFile


def corpus_indexed(corpus: Corpus, count: int) -> bool:
    """Whether ``count`` uploaded files of ``corpus`` are indexed and its BM25 index holds them all."""
    files = UploadFile.objects.filter(upload__corpus=corpus)
    corpus.refresh_from_db()
    done = files.count() == count and all(item.stage == Stage.INDEXED for item in files)
    return done and corpus.content_version > 0 and corpus.sparse_version == corpus.content_version
