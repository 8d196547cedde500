"""Building a throw-away hybrid index for a benchmark: document chunking, the token counter, the corpus."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from pathlib import Path

from chromadb.api import ClientAPI

from research.evaluation.formats import CorpusDoc
from research.retrieval.chunking import chunk_text
from research.retrieval.corpus import HybridCorpus, SearchConfig
from research.retrieval.dense import DenseIndex
from research.retrieval.embedders import Embedder
from research.retrieval.rerankers import NoReranker
from research.retrieval.sparse import SparseIndex
from research.retrieval.tokens import TokenCounter
from research.retrieval.types import Chunk, chunk_id_for

CHUNK_TOKENS = 512  # the app's default chunk size (settings.CHUNK_TOKENS)
INDEX_BATCH = 256
_names = itertools.count(1)


def document_chunks(
    doc_id: str, text: str, *, title: str = "", counter: TokenCounter, max_tokens: int = CHUNK_TOKENS
) -> list[Chunk]:
    """The document cut as the app's ingestion cuts it (``chunk_text``), with the app's chunk ids."""
    spans = chunk_text(text, max_tokens=max_tokens, counter=counter)
    return [Chunk(chunk_id_for(doc_id, span.index), doc_id, span.index, span.text, title) for span in spans]


def indexed_text(doc: CorpusDoc) -> str:
    """What is indexed for a document: its title on the first line, then its text (titles carry entity names)."""
    return f"{doc.title}\n{doc.text}" if doc.title else doc.text


def index_documents(
    corpus: HybridCorpus,
    docs: Sequence[CorpusDoc],
    *,
    counter: TokenCounter,
    chunk_tokens: int = CHUNK_TOKENS,
    progress: Callable[[str], None] | None = None,
) -> int:
    """Chunk, embed and index ``docs`` (dense, then the BM25 rebuild); returns the number of chunks.
    The retrieval benchmark and the evaluation index the same way (title on the first line)."""
    chunks: list[Chunk] = [
        chunk
        for doc in docs
        for chunk in document_chunks(
            doc.doc_id, indexed_text(doc), title=doc.title, counter=counter, max_tokens=chunk_tokens
        )
    ]
    for start in range(0, len(chunks), INDEX_BATCH):
        corpus.add(chunks[start : start + INDEX_BATCH])
        if progress:
            progress(f"indexed {min(start + INDEX_BATCH, len(chunks))}/{len(chunks)} chunks")
    corpus.refresh_sparse()
    return len(chunks)


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
