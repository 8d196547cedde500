"""A competitor report's wall time against one free question's on the same corpus (the demo corpus), both
through the worker's code path in this process, with the offline heuristic model slowed by a simulated
model latency (a served model's time per call is what concurrent rollouts overlap)."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

from research.bench.model import model_latency
from research.models import Run, RunStatus, RunTemplate
from research.runs.trial import demo_corpus_ingest, in_process_events, trial_clean, trial_run, trial_workspace

QUESTION = "What does Halvorix charge for its Standard plan, and who leads its engineering?"
COMPANY = "Halvorix"


def _finished(run: Run) -> None:
    if run.status != RunStatus.FINISHED:
        raise RuntimeError(f"run {run.pk} {run.status}: {run.status_reason}")


def bench_reports(*, latencies: Sequence[float], repeats: int, max_turns: int, rollouts: int) -> dict[str, Any]:
    """Median wall seconds of the question run (the baseline) and of the report, per latency, and their ratio."""
    with in_process_events():
        return _bench(latencies=latencies, repeats=repeats, max_turns=max_turns, rollouts=rollouts)


def _bench(*, latencies: Sequence[float], repeats: int, max_turns: int, rollouts: int) -> dict[str, Any]:
    owner = trial_workspace("Report benchmark")
    try:
        corpus = demo_corpus_ingest(owner)
        rows: list[dict[str, Any]] = []
        for latency in latencies:
            question: list[float] = []
            report: list[float] = []
            with model_latency(latency):
                for _ in range(repeats):  # alternated, so a slow moment of the machine hits both
                    run, seconds = trial_run(
                        owner, corpus, RunTemplate.QUESTION, question=QUESTION, rollouts=rollouts, max_turns=max_turns
                    )
                    _finished(run)
                    question.append(seconds)
                    run, seconds = trial_run(
                        owner, corpus, RunTemplate.COMPETITOR, company=COMPANY, max_turns=max_turns
                    )
                    _finished(run)
                    report.append(seconds)
            baseline, measured = statistics.median(question), statistics.median(report)
            rows.append(
                {
                    "model_latency_s": latency,
                    "question_s": round(baseline, 3),
                    "report_s": round(measured, 3),
                    "report_vs_question": round(measured / baseline, 2),
                }
            )
        return {
            "baseline": f"one free question run, {rollouts} rollouts, same corpus and turns",
            "report": f"competitor report on {COMPANY}: 9 facets, one rollout each, all at once",
            "target": "report_vs_question <= 2.0",
            "max_turns": max_turns,
            "repeats": repeats,
            "rows": rows,
        }
    finally:
        trial_clean(owner)
