"""Composition root: turns Django settings into configured clients and retrieval objects, once per process."""

from __future__ import annotations

import contextlib
import shutil
import threading
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TypeVar

from chromadb.api import ClientAPI
from chromadb.errors import NotFoundError
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from research.models import Corpus
from research.retrieval.chroma_client import open_client
from research.retrieval.corpus import HybridCorpus, SearchConfig
from research.retrieval.dense import DenseIndex
from research.retrieval.embedders import Embedder, EmbedderSettings, embedder_for
from research.retrieval.embedders.coalescing import CoalescingEmbedder
from research.retrieval.rerankers import Reranker, RerankerSettings, reranker_for
from research.retrieval.sparse import SparseIndex
from research.retrieval.tokens import TokenCounter, packaged_counter
from research.retrieval.web.fetching import Fetcher, FetchSettings
from research.retrieval.web.guard import AllowList
from research.retrieval.web.search import PROVIDERS as SEARCH_PROVIDERS
from research.retrieval.web.search import SearchProvider, SearchSettings
from research.writing.writers import Writer, WriterSettings, writer_for

T = TypeVar("T")
_corpora: dict[str, HybridCorpus] = {}
_corpora_lock = threading.Lock()


@cache
def chroma_client() -> ClientAPI:
    return open_client(url=settings.CHROMA.url, path=settings.CHROMA.path)


def configured(setting: str, build: Callable[[], T]) -> T:
    """``build()`` of what the ``setting`` names; its ValueError (a missing setting) becomes ImproperlyConfigured."""
    try:
        return build()
    except ValueError as error:
        raise ImproperlyConfigured(f"{setting}={getattr(settings, setting)}: {error}") from error


def _path(value: str | None) -> Path | None:
    return Path(value) if value else None


def model_cache() -> Path:
    """Where models derived on this machine from packaged weights are kept (the ONNX form of MiniLM)."""
    return Path(settings.DATA_DIR) / "models"


@cache
def embedder() -> Embedder:
    """EMBEDDER_BACKEND from the embedders' registry (research/retrieval/embedders/__init__.py), its queries
    coalesced across a process's concurrent searches and remembered (embedders/coalescing.py)."""
    config = EmbedderSettings(
        model_path=_path(settings.EMBEDDER_MODEL_PATH),
        url=settings.EMBEDDINGS_URL,
        model=settings.EMBEDDINGS_MODEL,
        cache_dir=model_cache(),
    )
    return CoalescingEmbedder(configured("EMBEDDER_BACKEND", lambda: embedder_for(settings.EMBEDDER_BACKEND, config)))


@cache
def reranker() -> Reranker:
    """RERANKER_BACKEND from the rerankers' registry (research/retrieval/rerankers/__init__.py)."""
    config = RerankerSettings(
        model_path=_path(settings.RERANKER_MODEL_PATH), url=settings.RERANKER_URL, model=settings.RERANKER_MODEL
    )
    return configured("RERANKER_BACKEND", lambda: reranker_for(settings.RERANKER_BACKEND, config))


def writer_choices() -> tuple[str, ...]:
    """The writers this deployment offers a run: the offline extractive one always, a model writer when its
    server is configured (the default, WRITER_BACKEND, first)."""
    offered = ["extractive"] + (["openai"] if settings.WRITER_BASE_URL else [])
    return (settings.WRITER_BACKEND, *(name for name in offered if name != settings.WRITER_BACKEND))


def writer(name: str | None = None) -> Writer:
    """The writer ``name`` (a run's choice, when still offered) or WRITER_BACKEND, from the writers' registry
    (research/writing/writers.py), with this process's embedder; one of each per process."""
    return _writer(name if name in writer_choices() else settings.WRITER_BACKEND)


@cache
def _writer(chosen: str) -> Writer:
    config = WriterSettings(
        embedder=embedder(),
        base_url=settings.WRITER_BASE_URL,
        model=settings.WRITER_MODEL,
        api_key=settings.WRITER_API_KEY or "",
        timeout=settings.WRITER_TIMEOUT,
    )
    return configured("WRITER_BACKEND", lambda: writer_for(chosen, config))


@cache
def token_counter() -> TokenCounter:
    """The MiniLM word-piece tokenizer when the packaged model is installed, else the estimate."""
    return packaged_counter()


def search_config() -> SearchConfig:
    return SearchConfig(candidates=settings.SEARCH_CANDIDATES, search_budget=settings.SEARCH_BUDGET_TOKENS)


def words_collection(corpus: Corpus) -> str:
    """The Chroma collection of the corpus's chunks that wait for their vectors (see HybridCorpus.add_words)."""
    return f"{corpus.collection_name}-words"


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
                words=DenseIndex(chroma_client(), words_collection(corpus)),
            )
            _corpora[corpus.index_key] = index
        return index


def corpus_index_forget(index_key: str) -> None:
    with _corpora_lock:
        index = _corpora.pop(index_key, None)
    if index is not None:
        index.close()


def corpus_index_drop(corpus: Corpus) -> None:
    """Delete both indexes of a deleted corpus: its Chroma collection and its BM25 folder (what is already gone is
    no error). Other processes may keep the closed corpus cached; its index key is never reused."""
    corpus_index_forget(corpus.index_key)
    for name in (corpus.collection_name, words_collection(corpus)):
        with contextlib.suppress(NotFoundError):
            chroma_client().delete_collection(name)
    shutil.rmtree(settings.DATA_DIR / "bm25" / corpus.index_key, ignore_errors=True)


def web_offered() -> bool:
    """Whether this deployment offers web sources (a search provider is configured)."""
    return bool(settings.WEB_SEARCH_PROVIDER != "none")


@cache
def web_search_provider() -> SearchProvider | None:
    """WEB_SEARCH_PROVIDER from the providers' registry (research/retrieval/web/search.py), one per process (its
    HTTP client is reused); None when it is "none"."""
    if not web_offered():
        return None
    config = SearchSettings(
        searxng_url=settings.SEARXNG_URL,
        brave_api_key=settings.BRAVE_API_KEY,
        brave_url=settings.BRAVE_API_URL,
        timeout=settings.WEB_SEARCH_TIMEOUT,
    )
    return configured("WEB_SEARCH_PROVIDER", lambda: SEARCH_PROVIDERS.load(settings.WEB_SEARCH_PROVIDER)(config))


@cache
def web_fetcher() -> Fetcher:
    """The page fetcher with the deployment's rules; one per process, so its per-host pacing and robots.txt
    cache are shared by every run of the process."""
    return Fetcher(
        FetchSettings(
            allow=AllowList.of(settings.WEB_FETCH_ALLOWED_HOSTS),
            timeout=settings.WEB_FETCH_TIMEOUT,
            deadline=3 * settings.WEB_FETCH_TIMEOUT,
            max_bytes=settings.WEB_FETCH_MAX_MB * 2**20,
            min_interval=settings.WEB_FETCH_INTERVAL,
            robots=settings.WEB_FETCH_ROBOTS,
        )
    )


def web_reset() -> None:
    """Forget the process's search provider and fetcher (settings changed: tests, benchmarks)."""
    web_fetcher.cache_clear()
    web_search_provider.cache_clear()
