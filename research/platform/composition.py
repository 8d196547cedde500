"""Composition root: turns Django settings into configured clients and retrieval objects, once per process."""

from __future__ import annotations

import threading
from functools import cache
from pathlib import Path

from chromadb.api import ClientAPI
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from research.models import Corpus
from research.retrieval.chroma_client import open_client
from research.retrieval.corpus import HybridCorpus, SearchConfig
from research.retrieval.dense import DenseIndex
from research.retrieval.embedders import Embedder
from research.retrieval.rerankers import NoReranker, Reranker
from research.retrieval.sparse import SparseIndex
from research.retrieval.tokens import TokenCounter, packaged_counter

_corpora: dict[str, HybridCorpus] = {}
_corpora_lock = threading.Lock()


@cache
def chroma_client() -> ClientAPI:
    return open_client(url=settings.CHROMA.url, path=settings.CHROMA.path)


@cache
def embedder() -> Embedder:
    backend = settings.EMBEDDER_BACKEND
    if backend == "hashing":
        from research.retrieval.embedders.hashing import HashingEmbedder

        return HashingEmbedder()
    if backend == "openai":
        from research.retrieval.embedders.openai_http import OpenAIEmbedder

        if not settings.EMBEDDINGS_URL or not settings.EMBEDDINGS_MODEL:
            raise ImproperlyConfigured("EMBEDDER_BACKEND=openai needs EMBEDDINGS_URL and EMBEDDINGS_MODEL")
        return OpenAIEmbedder(base_url=settings.EMBEDDINGS_URL, model=settings.EMBEDDINGS_MODEL)
    from research.retrieval.embedders.sentence_transformer import SentenceTransformerEmbedder

    path = Path(settings.EMBEDDER_MODEL_PATH) if settings.EMBEDDER_MODEL_PATH else None
    return SentenceTransformerEmbedder(path)


@cache
def reranker() -> Reranker:
    backend = settings.RERANKER_BACKEND
    if backend == "cross-encoder":
        from research.retrieval.rerankers.cross_encoder import CrossEncoderReranker

        if not settings.RERANKER_MODEL_PATH:
            raise ImproperlyConfigured("RERANKER_BACKEND=cross-encoder needs RERANKER_MODEL_PATH (a local folder)")
        return CrossEncoderReranker(Path(settings.RERANKER_MODEL_PATH))
    if backend == "http":
        from research.retrieval.rerankers.http import HttpReranker

        if not settings.RERANKER_URL:
            raise ImproperlyConfigured("RERANKER_BACKEND=http needs RERANKER_URL")
        return HttpReranker(url=settings.RERANKER_URL, model=settings.RERANKER_MODEL)
    return NoReranker()


@cache
def token_counter() -> TokenCounter:
    """The MiniLM word-piece tokenizer when the packaged model is installed, else the estimate."""
    return packaged_counter()


def search_config() -> SearchConfig:
    return SearchConfig(candidates=settings.SEARCH_CANDIDATES, search_budget=settings.SEARCH_BUDGET_TOKENS)


def corpus_index(corpus: Corpus) -> HybridCorpus:
    """The hybrid index of ``corpus`` (cached per process: the BM25 matrix and Chroma collection stay open)."""
    with _corpora_lock:
        index = _corpora.get(corpus.index_key)
        if index is None:
            index = HybridCorpus(
                dense=DenseIndex(chroma_client(), corpus.collection_name),
                sparse=SparseIndex(settings.DATA_DIR / "bm25" / corpus.index_key),
                embedder=embedder(),
                reranker=reranker(),
                counter=token_counter(),
                config=search_config(),
            )
            _corpora[corpus.index_key] = index
        return index


def corpus_index_forget(index_key: str) -> None:
    with _corpora_lock:
        index = _corpora.pop(index_key, None)
    if index is not None:
        index.close()
