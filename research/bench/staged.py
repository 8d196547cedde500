"""Searchable at once, refined in the background: how soon an upload can be searched, against today's ingestion.

A 1,000-document upload of the shared MuSiQue paragraphs (every task's supporting paragraphs, then others in
file order) is indexed twice in one run, into fresh indexes:

- **baseline** (what ingestion did before words came first, and ``HybridCorpus.add`` still does): chunk, embed,
  write to Chroma, rebuild BM25; searchable when all of it is done;
- **staged** (the product's ingestion now): chunk, store the chunks without vectors, rebuild BM25: searchable
  (``seconds_to_searchable``); then embed and move every document's chunks into the dense index
  (``seconds_to_refined``, counted from the start).

Hybrid recall@10 of the tasks' supporting documents (the question as the query) is measured on the baseline, on
the staged index while it has words only, and once refined. Parsing and database writes, the same in both, are
not part of either time.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from research.bench import quality
from research.evaluation.datasets import load_dataset
from research.evaluation.formats import CorpusDoc, Task
from research.evaluation.indexing import discard, document_chunks, index_documents, indexed_text, open_corpus
from research.retrieval.chroma_client import open_client
from research.retrieval.corpus import HybridCorpus
from research.retrieval.dense import DenseIndex
from research.retrieval.embedders import Embedder
from research.retrieval.tokens import TokenCounter, packaged_counter

UPLOAD_DOCUMENTS = 1000
MUSIQUE_FILE = "musique/musique_train100.json"
BATCH = 256


def upload_of(tasks: Sequence[Task], docs: Sequence[CorpusDoc], size: int) -> list[CorpusDoc]:
    """``size`` documents: every task's supporting ones first (so recall is measurable), then the rest in order."""
    wanted = {doc_id for task in tasks for doc_id in task.supporting_doc_ids}
    chosen = [doc for doc in docs if doc.doc_id in wanted]
    chosen += [doc for doc in docs if doc.doc_id not in wanted][: max(0, size - len(chosen))]
    return chosen[:size]


def _recall(corpus: HybridCorpus, tasks: Sequence[Task]) -> float:
    return quality.mean_recalls(corpus, tasks, (10,))[10].hybrid


def _staged_index(corpus: HybridCorpus, docs: Sequence[CorpusDoc], counter: TokenCounter) -> float:
    """Words first: chunks stored without vectors and BM25 rebuilt; the seconds it took."""
    started = time.perf_counter()
    chunks = [
        chunk
        for doc in docs
        for chunk in document_chunks(doc.doc_id, indexed_text(doc), title=doc.title, counter=counter)
    ]
    for start in range(0, len(chunks), BATCH):
        corpus.add_words(chunks[start : start + BATCH])
    corpus.refresh_sparse()
    return time.perf_counter() - started


def staged_benchmark(
    *,
    data_dir: Path,
    workdir: Path,
    embedder: Embedder,
    counter: TokenCounter | None = None,
    documents: int = UPLOAD_DOCUMENTS,
    progress: Callable[[str], None] = lambda _: None,
) -> dict[str, Any]:
    counter = counter or packaged_counter()
    tasks, docs = load_dataset("musique", data_dir / MUSIQUE_FILE)
    upload = upload_of(tasks, docs, documents)
    scored = [task for task in tasks if set(task.supporting_doc_ids) <= {doc.doc_id for doc in upload}]
    client = open_client(url=None, path=workdir / "chroma")
    embedder.embed_documents(["warm-up"])  # the model's first call is not part of either time
    baseline = open_corpus(client, workdir / "bm25", embedder=embedder, counter=counter, label="full")
    staged = open_corpus(client, workdir / "bm25", embedder=embedder, counter=counter, label="staged")
    staged.words = DenseIndex(client, f"{staged.dense.name}-words")
    try:
        progress(f"baseline: indexing {len(upload)} documents with {embedder.name} (chunk, embed, Chroma, BM25)")
        started = time.perf_counter()
        chunks = index_documents(baseline, upload, counter=counter)
        seconds_full = time.perf_counter() - started
        recall_full = _recall(baseline, scored)
        progress(f"staged: words first ({chunks} chunks)")
        seconds_words = _staged_index(staged, upload, counter)
        recall_words = _recall(staged, scored)
        progress("staged: vectors (refine, document by document)")
        started = time.perf_counter()
        staged.refine([doc.doc_id for doc in upload])
        seconds_vectors = time.perf_counter() - started
        recall_refined = _recall(staged, scored)
    finally:
        discard(baseline)
        discard(staged)
        staged.words.drop()
    return {
        "benchmark": "staged ingestion",
        "dataset": "musique",
        "documents": len(upload),
        "chunks": chunks,
        "tasks": len(scored),
        "embedder": embedder.name,
        "seconds_full_ingestion": round(seconds_full, 2),
        "seconds_to_searchable": round(seconds_words, 2),
        "seconds_to_refined": round(seconds_words + seconds_vectors, 2),
        "searchable_speedup": round(seconds_full / seconds_words, 2),
        "hybrid_recall_at_10": {
            "full_ingestion": round(recall_full, 4),
            "searchable_words_only": round(recall_words, 4),
            "refined": round(recall_refined, 4),
        },
    }


def staged_table(result: dict[str, Any]) -> str:
    recall = result["hybrid_recall_at_10"]
    rows = [
        ("upload (MuSiQue paragraphs)", f"{result['documents']:,} documents, {result['chunks']:,} chunks"),
        ("today's full ingestion (s), baseline", f"{result['seconds_full_ingestion']:.2f}"),
        ("seconds_to_searchable (words first)", f"{result['seconds_to_searchable']:.2f}"),
        ("seconds_to_refined (vectors in)", f"{result['seconds_to_refined']:.2f}"),
        ("searchable speed-up (baseline / searchable)", f"{result['searchable_speedup']:.1f}x"),
        ("hybrid recall@10: baseline", f"{recall['full_ingestion']:.4f}"),
        ("hybrid recall@10: searchable, words only", f"{recall['searchable_words_only']:.4f}"),
        ("hybrid recall@10: refined", f"{recall['refined']:.4f}"),
    ]
    width = max(len(name) for name, _ in rows)
    return "\n".join(f"{name:<{width}}  {value:>24}" for name, value in rows)
