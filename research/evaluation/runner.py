"""Evaluation runs: the agent and a single-pass hybrid search on a dataset's tasks, over a temporary index."""

from __future__ import annotations

import asyncio
import dataclasses
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from research.evaluation.datasets import DatasetFormat, load_dataset
from research.evaluation.formats import CorpusDoc, Task
from research.evaluation.indexing import discard, index_documents, open_corpus
from research.evaluation.metrics import TaskMetrics, agent_metrics, aggregate, baseline_metrics, top_documents
from research.harness.budget import BudgetConfig
from research.harness.config import HarnessConfig
from research.harness.ports import ListSink
from research.harness.run import run_research
from research.inference.registry import BackendFactory, InferenceSettings, backend_factory
from research.retrieval.chroma_client import open_client
from research.retrieval.corpus import HybridCorpus
from research.retrieval.embedders import Embedder, EmbedderSettings, embedder_for
from research.retrieval.port import CorpusPort
from research.retrieval.tokens import TokenCounter

Progress = Callable[[str], None]
EVAL_EMBEDDERS = ("minilm", "hashing")  # the embedders that need no server (evaluate and bench_retrieval offer them)
_FOUND = {None: "-", True: "yes", False: "no"}


@dataclass(frozen=True)
class EvalSettings:
    backend: str = "heuristic"  # a name in research.inference.registry.BACKENDS
    rollouts: int = 4
    budget: int = 32_768
    top_k: int = 10
    max_turns: int = 16
    chunk_tokens: int = 512
    embedder: str = "minilm"  # one of EVAL_EMBEDDERS
    base_url: str | None = None
    model: str = "chromadb/context-1"
    api_key: str | None = None
    timeout: float = 120.0
    temperature: float | None = None

    def harness(self) -> HarnessConfig:
        return HarnessConfig(
            budget=BudgetConfig(limit=self.budget), rollouts=self.rollouts, max_turns=self.max_turns, top_k=self.top_k
        )

    def public(self) -> dict[str, Any]:
        """The settings for the report (never the API key)."""
        return {key: value for key, value in dataclasses.asdict(self).items() if key != "api_key"}

    def backends(self) -> BackendFactory:
        """A backend per rollout from the inference registry; ValueError for a missing setting (openai's URL)."""
        shared = {field.name: getattr(self, field.name) for field in dataclasses.fields(InferenceSettings)}
        return backend_factory(self.backend, InferenceSettings(**shared))


def eval_embedder(name: str) -> Embedder:
    """The embedder evaluations and benchmarks index with: MiniLM, or hashing vectors as wide as MiniLM's (384)."""
    return embedder_for(name, EmbedderSettings(dimension=384))


@contextmanager
def temporary_index(
    docs: Sequence[CorpusDoc], *, embedder: Embedder, counter: TokenCounter, chunk_tokens: int, progress: Progress
) -> Iterator[HybridCorpus]:
    """A hybrid index of ``docs`` (embedded Chroma and bm25s in a temporary folder), removed afterwards; built
    as the retrieval benchmark builds it, so its single-pass figures and this evaluation's agree."""
    with tempfile.TemporaryDirectory(prefix="c1-eval-", ignore_cleanup_errors=True) as folder:
        client = open_client(url=None, path=Path(folder) / "chroma")
        index = open_corpus(client, Path(folder), embedder=embedder, counter=counter, label="evaluation")
        try:
            index_documents(index, docs, counter=counter, chunk_tokens=chunk_tokens, progress=progress)
            yield index
        finally:
            discard(index)


def baseline_documents(index: HybridCorpus, question: str, top_k: int) -> tuple[list[str], int]:
    """One hybrid search with the question: its top-K distinct documents, and the tokens of their chunks."""
    ranked = index.candidates(question, exclude=frozenset())
    docs = top_documents((item.chunk.doc_id for item in ranked), top_k)
    kept = set(docs)
    return docs, sum(index.counter.count_many([item.chunk.text for item in ranked if item.chunk.doc_id in kept]))


@dataclass(frozen=True)
class TaskOutcome:
    task: Task
    agent: TaskMetrics
    baseline: TaskMetrics
    agent_documents: tuple[str, ...]
    baseline_documents: tuple[str, ...]
    status: str
    error: str | None
    agent_s: float
    baseline_s: float

    def row(self) -> dict[str, Any]:
        task = self.task
        return {
            "id": task.id,
            "question": task.question,
            "answer": task.answer,
            "supporting_doc_ids": list(task.supporting_doc_ids),
            "status": self.status,
            "error": self.error,
            "agent": {**self.agent.as_dict(), "documents": list(self.agent_documents), "wall_s": self.agent_s},
            "baseline": {
                **self.baseline.as_dict(),
                "documents": list(self.baseline_documents),
                "wall_s": self.baseline_s,
            },
        }


@dataclass(frozen=True)
class Evaluation:
    """What one evaluation needs besides the data: settings, a backend per rollout, embedder, token counter."""

    settings: EvalSettings
    backend_for: BackendFactory
    embedder: Embedder
    counter: TokenCounter
    progress: Progress


def evaluate_task(task: Task, index: HybridCorpus, texts: dict[str, str], run: Evaluation) -> TaskOutcome:
    settings, sink = run.settings, ListSink()
    started = time.perf_counter()
    result = asyncio.run(
        run_research(
            question=task.question,
            corpus=CorpusPort(index),
            backend_for=run.backend_for,
            config=dataclasses.replace(settings.harness(), counter_name=run.counter.name),
            sink=sink,
            count=run.counter.count,
        )
    )
    agent_s = time.perf_counter() - started
    agent_docs = top_documents((doc.doc_id for doc in result.documents), settings.top_k)
    baseline_docs, baseline_tokens = baseline_documents(index, task.question, settings.top_k)
    baseline_s = time.perf_counter() - started - agent_s
    return TaskOutcome(
        task=task,
        agent=agent_metrics(task, agent_docs, texts, sink.events),
        baseline=baseline_metrics(task, baseline_docs, texts, baseline_tokens),
        agent_documents=tuple(agent_docs),
        baseline_documents=tuple(baseline_docs),
        status=result.status,
        error=result.error,
        agent_s=agent_s,
        baseline_s=baseline_s,
    )


def _line(number: int, total: int, outcome: TaskOutcome) -> str:
    a, b = outcome.agent, outcome.baseline
    return (
        f"[{number}/{total}] {outcome.task.id}: agent recall {a.recall or 0:.2f} answer {_FOUND[a.final_answer_found]}"
        f" turns {a.turns_per_run:.1f} ({outcome.agent_s:.1f}s) | baseline recall {b.recall or 0:.2f}"
        f" answer {_FOUND[b.final_answer_found]}" + (f" [{outcome.status}: {outcome.error}]" if outcome.error else "")
    )


def evaluate(tasks: Sequence[Task], docs: Sequence[CorpusDoc], *, run: Evaluation) -> dict[str, Any]:
    """Index ``docs``, run the agent and the baseline on every task; the report (aggregates and per-task rows)."""
    texts = {doc.doc_id: doc.text for doc in docs}
    started = time.perf_counter()
    with temporary_index(
        docs, embedder=run.embedder, counter=run.counter, chunk_tokens=run.settings.chunk_tokens, progress=run.progress
    ) as index:
        chunks, indexed = index.dense.count(), time.perf_counter()
        outcomes = []
        for number, task in enumerate(tasks, start=1):
            outcomes.append(evaluate_task(task, index, texts, run))
            run.progress(_line(number, len(tasks), outcomes[-1]))
    return {
        "settings": run.settings.public(),
        "dataset": {"tasks": len(tasks), "documents": len(docs), "chunks": chunks},
        "agent": aggregate([o.agent for o in outcomes]),
        "baseline": aggregate([o.baseline for o in outcomes]),
        "wall_s": {
            "index": indexed - started,
            "agent": sum(o.agent_s for o in outcomes),
            "baseline": sum(o.baseline_s for o in outcomes),
            "total": time.perf_counter() - started,
        },
        "tasks": [outcome.row() for outcome in outcomes],
    }


def evaluate_dataset(
    format: DatasetFormat, tasks_path: Path, corpus_path: Path | None, *, limit: int | None, run: Evaluation
) -> dict[str, Any]:
    """Load a dataset (the whole corpus, the first ``limit`` tasks) and evaluate it."""
    tasks, docs = load_dataset(format, tasks_path, corpus_path)
    tasks = tasks[:limit] if limit is not None else tasks
    run.progress(f"{len(tasks)} task(s), {len(docs)} document(s); embedder {run.settings.embedder}")
    report = evaluate(tasks, docs, run=run)
    report["settings"].update(
        format=format, tasks=str(tasks_path), corpus=str(corpus_path) if corpus_path else None, limit=limit
    )
    return report
