"""Evaluation runs: the agent and a single-pass hybrid search on a dataset's tasks, over a temporary index."""

from __future__ import annotations

import asyncio
import dataclasses
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from research.evaluation.datasets import DatasetFormat, check_supported, load_corpus, load_dataset
from research.evaluation.formats import CorpusDoc, Task
from research.evaluation.indexing import discard, index_documents, open_corpus
from research.evaluation.metrics import TaskMetrics, agent_metrics, aggregate, baseline_metrics, top_documents
from research.evaluation.reward import RewardSettings, RewardTerms, mean_terms, rollout_rewards, terms
from research.evaluation.written import written
from research.harness.budget import BudgetConfig
from research.harness.config import HarnessConfig
from research.harness.ports import ListSink
from research.harness.run import run_research
from research.inference.registry import BackendFactory, InferenceSettings, backend_factory
from research.protocol.events import SEARCH, to_dict
from research.retrieval.chroma_client import open_client
from research.retrieval.corpus import HybridCorpus
from research.retrieval.corpus_set import CorpusSet
from research.retrieval.embedders import Embedder, EmbedderSettings, embedder_for
from research.retrieval.port import CorpusPort, Searchable
from research.retrieval.tokens import TokenCounter
from research.writing.writers import Writer

Progress = Callable[[str], None]
EVAL_EMBEDDERS = (
    "minilm",
    "minilm-torch",
    "hashing",
)  # the embedders that need no server (evaluate and bench_retrieval offer them)
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
    writer: str | None = None  # a name in research.writing.writers.WRITERS: write an answer and measure it
    reward_beta: float = 2.0  # the reward's F-beta: recall weighs beta squared times precision
    trajectories: bool = False  # keep each task's agent events in the report (for export_trajectories)

    def reward(self) -> RewardSettings:
        return RewardSettings(beta=self.reward_beta)

    def harness(self) -> HarnessConfig:
        return HarnessConfig(
            budget=BudgetConfig(limit=self.budget), rollouts=self.rollouts, max_turns=self.max_turns, top_k=self.top_k
        )

    def public(self) -> dict[str, Any]:
        """The settings for the report (never the API key)."""
        return {key: value for key, value in dataclasses.asdict(self).items() if key != "api_key"}

    def backends(self) -> BackendFactory:
        """A backend per rollout from the inference registry; ValueError for a missing setting (openai's URL)."""
        inference = InferenceSettings(  # single_subject stays off: evaluation tasks are questions, not facets
            base_url=self.base_url,
            model=self.model,
            api_key=self.api_key,
            timeout=self.timeout,
            temperature=self.temperature,
        )
        return backend_factory(self.backend, inference)


def eval_embedder(name: str, cache_dir: Path | None = None) -> Embedder:
    """The embedder evaluations and benchmarks index with: MiniLM (on ONNX Runtime, its export cached in
    ``cache_dir``; or on torch), or hashing vectors as wide as MiniLM's (384)."""
    return embedder_for(name, EmbedderSettings(dimension=384, cache_dir=cache_dir))


@contextmanager
def temporary_indexes(
    corpora: Sequence[Sequence[CorpusDoc]],
    *,
    embedder: Embedder,
    counter: TokenCounter,
    chunk_tokens: int,
    progress: Progress,
) -> Iterator[list[HybridCorpus]]:
    """A hybrid index of each of ``corpora`` (embedded Chroma and bm25s in one temporary folder), removed
    afterwards; built as the retrieval benchmark builds it, so its single-pass figures and this evaluation's
    agree."""
    with tempfile.TemporaryDirectory(prefix="c1-eval-", ignore_cleanup_errors=True) as folder:
        client = open_client(url=None, path=Path(folder) / "chroma")
        indexes: list[HybridCorpus] = []
        try:
            for docs in corpora:
                indexes.append(
                    open_corpus(client, Path(folder), embedder=embedder, counter=counter, label="evaluation")
                )
                index_documents(indexes[-1], docs, counter=counter, chunk_tokens=chunk_tokens, progress=progress)
            yield indexes
        finally:
            for index in indexes:
                discard(index)


def searched_together(indexes: Sequence[HybridCorpus]) -> Searchable:
    """What a run over these corpora searches: one corpus as it is, several as one (``CorpusSet``)."""
    return indexes[0] if len(indexes) == 1 else CorpusSet(indexes)


Ranked = list[tuple[str, list[str]]]  # documents in order, each with its chunk ids in order


def baseline_documents(index: Searchable, question: str, top_k: int) -> tuple[Ranked, int]:
    """One hybrid search with the question: its top-K distinct documents with their chunks, and the tokens of
    those chunks."""
    ranked = index.candidates(question, exclude=frozenset())
    docs = top_documents((item.chunk.doc_id for item in ranked), top_k)
    chunks: dict[str, list[str]] = {doc_id: [] for doc_id in docs}
    for item in ranked:
        if item.chunk.doc_id in chunks:
            chunks[item.chunk.doc_id].append(item.chunk_id)
    kept = [item.chunk.text for item in ranked if item.chunk.doc_id in chunks]
    return list(chunks.items()), sum(index.counter.count_many(kept))


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
    rollout_rewards: tuple[tuple[int, RewardTerms], ...] = ()  # (rollout, its reward), in rollout order
    baseline_reward: RewardTerms | None = None
    events: tuple[dict[str, Any], ...] | None = None  # the agent's events, kept with ``trajectories``

    def systems(self) -> dict[str, Any]:
        """The run's status and both systems' figures and documents, with each rollout's reward and its terms."""
        rollouts = [{"rollout": rollout, **reward.as_dict()} for rollout, reward in self.rollout_rewards]
        baseline_terms = None if self.baseline_reward is None else self.baseline_reward.as_dict()
        return {
            "status": self.status,
            "error": self.error,
            "agent": {
                **self.agent.as_dict(),
                "documents": list(self.agent_documents),
                "wall_s": self.agent_s,
                "rollouts": rollouts,
                **({} if self.events is None else {"events": list(self.events)}),
            },
            "baseline": {
                **self.baseline.as_dict(),
                "documents": list(self.baseline_documents),
                "wall_s": self.baseline_s,
                "reward_terms": baseline_terms,
            },
        }

    def row(self) -> dict[str, Any]:
        task = self.task
        return {
            "id": task.id,
            "question": task.question,
            "answer": task.answer,
            "answer_aliases": list(task.answer_aliases),
            "supporting_doc_ids": list(task.supporting_doc_ids),
            **self.systems(),
        }


@dataclass(frozen=True)
class Evaluation:
    """What one evaluation needs besides the data: settings, a backend per rollout, embedder, token counter."""

    settings: EvalSettings
    backend_for: BackendFactory
    embedder: Embedder
    counter: TokenCounter
    progress: Progress
    writer: Writer | None = None  # with one, each system's answer is written and measured


def evaluate_task(task: Task, index: Searchable, texts: Mapping[str, str], run: Evaluation) -> TaskOutcome:
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
    baseline_ranked, baseline_tokens = baseline_documents(index, task.question, settings.top_k)
    baseline_docs = [doc_id for doc_id, _ in baseline_ranked]
    baseline_s = time.perf_counter() - started - agent_s
    answers = (task.answer, *task.answer_aliases)
    chunk_texts = _chunk_texts(index)
    rewards = rollout_rewards(
        sink.events,
        supporting=task.supporting_doc_ids,
        answers=answers,
        top_k=settings.top_k,
        chunk_texts=chunk_texts,
        settings=settings.reward(),
    )
    baseline_reward = terms(  # one search: it saw what it returns, one call, one turn
        returned=baseline_docs,
        supporting=task.supporting_doc_ids,
        seen=baseline_docs,
        output_texts=[text for doc_id, chunk_ids in baseline_ranked for text in chunk_texts(doc_id, chunk_ids)],
        answers=answers,
        tools=[SEARCH],
        turns=1,
        settings=settings.reward(),
    )
    agent, baseline = (
        agent_metrics(task, agent_docs, texts, sink.events),
        baseline_metrics(task, baseline_docs, texts, baseline_tokens),
    )
    mean = mean_terms(rewards.values())
    agent = dataclasses.replace(agent, reward=None if mean is None else mean["reward"])
    baseline = dataclasses.replace(baseline, reward=round(baseline_reward.reward, 4))
    if run.writer is not None:
        agent_ranked = [(doc.doc_id, list(doc.chunk_ids)) for doc in result.documents[: settings.top_k]]
        agent = written(agent, task, index, agent_ranked, run.writer)
        baseline = written(baseline, task, index, baseline_ranked, run.writer)
    return TaskOutcome(
        task=task,
        agent=agent,
        baseline=baseline,
        agent_documents=tuple(agent_docs),
        baseline_documents=tuple(baseline_docs),
        status=result.status,
        error=result.error,
        agent_s=agent_s,
        baseline_s=baseline_s,
        rollout_rewards=tuple(sorted(rewards.items())),
        baseline_reward=baseline_reward,
        events=tuple(to_dict(event) for event in sink.events) if settings.trajectories else None,
    )


def _chunk_texts(index: Searchable) -> Callable[[str, Sequence[str]], list[str]]:
    """(doc id, chunk ids) -> those chunks' texts, in the order given (an unknown chunk is skipped)."""

    def texts(doc_id: str, chunk_ids: Sequence[str]) -> list[str]:
        chunks = {chunk.chunk_id: chunk.text for chunk in index.document_chunks(doc_id)}
        return [chunks[chunk_id] for chunk_id in chunk_ids if chunk_id in chunks]

    return texts


@dataclass(frozen=True)
class Outcomes:
    """A task evaluated over its own corpus and, when there is a distractor corpus, over both together."""

    plain: TaskOutcome
    mixed: TaskOutcome | None

    def row(self) -> dict[str, Any]:
        row = self.plain.row()
        return row if self.mixed is None else {**row, "with_distractor": self.mixed.systems()}


def _line(number: int, total: int, outcomes: Outcomes) -> str:
    outcome, mixed = outcomes.plain, outcomes.mixed
    a, b = outcome.agent, outcome.baseline
    return (
        f"[{number}/{total}] {outcome.task.id}: agent recall {a.recall or 0:.2f} answer {_FOUND[a.final_answer_found]}"
        f" turns {a.turns_per_run:.1f} ({outcome.agent_s:.1f}s) | baseline recall {b.recall or 0:.2f}"
        f" answer {_FOUND[b.final_answer_found]}"
        + (
            ""
            if mixed is None
            else f" | with distractor: agent {mixed.agent.recall or 0:.2f} baseline {mixed.baseline.recall or 0:.2f}"
        )
        + "".join(f" [{o.status}: {o.error}]" for o in (outcome, mixed) if o is not None and o.error)
    )


def recall_ratio(mixed: Mapping[str, float | None], plain: Mapping[str, float | None]) -> float | None:
    """Mean recall with the distractor corpus over mean recall without (None when the latter is 0 or missing)."""
    with_distractor, without = mixed.get("recall"), plain.get("recall")
    return None if with_distractor is None or not without else with_distractor / without


def _systems(outcomes: Sequence[Outcomes]) -> dict[str, Any]:
    """The aggregates of both systems, with the distractor figures and ratios when there is a distractor."""
    plain = [o.plain for o in outcomes]
    report: dict[str, Any] = {
        "agent": aggregate([o.agent for o in plain]),
        "baseline": aggregate([o.baseline for o in plain]),
    }
    # Each term's mean over every trajectory (the agent's rollouts, the single pass's one search per task).
    report["agent"]["reward_terms"] = mean_terms(reward for o in plain for _, reward in o.rollout_rewards)
    report["baseline"]["reward_terms"] = mean_terms(o.baseline_reward for o in plain if o.baseline_reward)
    mixed = [o.mixed for o in outcomes if o.mixed is not None]
    if mixed and len(mixed) == len(outcomes):
        together = {"agent": aggregate([o.agent for o in mixed]), "baseline": aggregate([o.baseline for o in mixed])}
        for system in ("agent", "baseline"):
            report[system]["distractor_recall_ratio"] = recall_ratio(together[system], report[system])
        report["with_distractor"] = together
    return report


def systems_of(outcomes: Sequence[TaskOutcome]) -> dict[str, Any]:
    """Both systems' means over tasks evaluated over one corpus (the reward's terms among them)."""
    return _systems([Outcomes(outcome, None) for outcome in outcomes])


def _walls(outcomes: Sequence[Outcomes], index_s: float, started: float) -> dict[str, float]:
    walls = {
        "index": index_s,
        "agent": sum(o.plain.agent_s for o in outcomes),
        "baseline": sum(o.plain.baseline_s for o in outcomes),
    }
    mixed = [o.mixed for o in outcomes if o.mixed is not None]
    if mixed:
        walls |= {
            "agent_with_distractor": sum(o.agent_s for o in mixed),
            "baseline_with_distractor": sum(o.baseline_s for o in mixed),
        }
    return walls | {"total": time.perf_counter() - started}


def evaluate(
    tasks: Sequence[Task], docs: Sequence[CorpusDoc], *, run: Evaluation, distractor: Sequence[CorpusDoc] = ()
) -> dict[str, Any]:
    """Index ``docs`` (and ``distractor`` as a corpus of its own), run the agent and the baseline on every task
    over ``docs`` alone and, with a distractor, again over both corpora searched together; the report
    (aggregates, the distractor recall ratios, per-task rows)."""
    texts = {doc.doc_id: doc.text for doc in (*docs, *distractor)}
    corpora = [docs, distractor] if distractor else [docs]
    started = time.perf_counter()
    settings = run.settings
    with temporary_indexes(
        corpora, embedder=run.embedder, counter=run.counter, chunk_tokens=settings.chunk_tokens, progress=run.progress
    ) as indexes:
        chunks, indexed = [index.dense.count() for index in indexes], time.perf_counter()
        outcomes: list[Outcomes] = []
        for number, task in enumerate(tasks, start=1):
            plain = evaluate_task(task, indexes[0], texts, run)
            mixed = evaluate_task(task, searched_together(indexes), texts, run) if distractor else None
            outcomes.append(Outcomes(plain, mixed))
            run.progress(_line(number, len(tasks), outcomes[-1]))
    dataset: dict[str, Any] = {"tasks": len(tasks), "documents": len(docs), "chunks": chunks[0]}
    if distractor:
        dataset["distractor"] = {"documents": len(distractor), "chunks": chunks[1]}
    return {
        "settings": settings.public(),
        "dataset": dataset,
        **_systems(outcomes),
        "wall_s": _walls(outcomes, indexed - started, started),
        "tasks": [outcome.row() for outcome in outcomes],
    }


def distractor_documents(path: Path, docs: Sequence[CorpusDoc]) -> tuple[list[CorpusDoc], int]:
    """The distractor corpus of ``path`` less the documents the task corpus already holds (the same document,
    as the same file uploaded to two corpora is), and how many those were."""
    known = {doc.doc_id for doc in docs}
    loaded = load_corpus(path)
    kept = [doc for doc in loaded if doc.doc_id not in known]
    check_supported([], kept)
    return kept, len(loaded) - len(kept)


def evaluate_dataset(
    format: DatasetFormat,
    tasks_path: Path,
    corpus_path: Path | None,
    *,
    limit: int | None,
    run: Evaluation,
    distractor_path: Path | None = None,
) -> dict[str, Any]:
    """Load a dataset (the whole corpus, the first ``limit`` tasks) and evaluate it, with a distractor corpus
    when ``distractor_path`` names one (see ``evaluate``)."""
    tasks, docs = load_dataset(format, tasks_path, corpus_path)
    tasks = tasks[:limit] if limit is not None else tasks
    distractor, overlap = distractor_documents(distractor_path, docs) if distractor_path else ([], 0)
    run.progress(
        f"{len(tasks)} task(s), {len(docs)} document(s)"
        + (f", {len(distractor)} distractor document(s)" if distractor_path else "")
        + f"; embedder {run.settings.embedder}"
    )
    report = evaluate(tasks, docs, run=run, distractor=distractor)
    report["settings"].update(
        format=format,
        tasks=str(tasks_path),
        corpus=str(corpus_path) if corpus_path else None,
        limit=limit,
        distractor_corpus=str(distractor_path) if distractor_path else None,
    )
    if distractor_path:
        report["dataset"]["distractor"]["already_in_the_task_corpus"] = overlap
    return report
