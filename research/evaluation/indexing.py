"""Building a throw-away hybrid index for a benchmark: document chunking, the token counter, the corpus."""

from __future__ import annotations

import itertools
from pathlib import Path

from chromadb.api import ClientAPI

from research.retrieval.chunking import chunk_text
from research.retrieval.corpus import HybridCorpus, SearchConfig
from research.retrieval.dense import DenseIndex
from research.retrieval.embedders import Embedder
from research.retrieval.rerankers import NoReranker
from research.retrieval.sparse import SparseIndex
from research.retrieval.tokens import EstimatingCounter, TokenCounter, WordPieceCounter
from research.retrieval.types import Chunk, chunk_id_for

CHUNK_TOKENS = 512  # the app's default chunk size (settings.CHUNK_TOKENS)
_names = itertools.count(1)


def default_counter() -> TokenCounter:
    """The MiniLM word-piece tokenizer when the packaged model is installed (as the app does), else the estimate."""
    try:
        from research.retrieval.embedders.sentence_transformer import packaged_minilm_path

        tokenizer_file = packaged_minilm_path() / "tokenizer.json"
    except ImportError:
        return EstimatingCounter()
    return WordPieceCounter(tokenizer_file) if tokenizer_file.is_file() else EstimatingCounter()


def document_chunks(
    doc_id: str, text: str, *, title: str = "", counter: TokenCounter, max_tokens: int = CHUNK_TOKENS
) -> list[Chunk]:
    """The document cut as the app's ingestion cuts it (``chunk_text``), with the app's chunk ids."""
    spans = chunk_text(text, max_tokens=max_tokens, counter=counter)
    return [Chunk(chunk_id_for(doc_id, span.index), doc_id, span.index, span.text, title) for span in spans]


def open_corpus(
    client: ClientAPI, folder: Path, *, embedder: Embedder, counter: TokenCounter, label: str
) -> HybridCorpus:
    """A new, empty hybrid corpus (its own Chroma collection and BM25 folder), searched without a reranker."""
    name = f"bench-{label}-{next(_names)}"
    return HybridCorpus(
        dense=DenseIndex(client, name),
        sparse=SparseIndex(folder / name),
        embedder=embedder,
        reranker=NoReranker(),
        counter=counter,
        config=SearchConfig(),
    )


def discard(corpus: HybridCorpus) -> None:
    corpus.dense.drop()
    corpus.close()
