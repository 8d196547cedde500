"""The written answer's figures: the answer in its text, citations re-checked against the index's text,
citations from supporting documents."""

from __future__ import annotations

import dataclasses

from research.evaluation.formats import Task
from research.evaluation.metrics import TaskMetrics
from research.evaluation.written import with_answer
from research.protocol.report import Citation, Claim, Report

TASK = Task(id="t", question="Who directed Big Eyes?", answer="Tim Burton", supporting_doc_ids=("film",))
METRICS = TaskMetrics(
    final_answer_found=True,
    recall=1.0,
    precision=0.5,
    f1=0.6,
    trajectory_recall=1.0,
    prune_accuracy=None,
    turns_per_run=1.0,
    tool_calls_per_turn=1.0,
    tokens_per_run=10,
    processed_tokens_per_run=10,
)


def claim(text: str, chunk_id: str, quote: str) -> Claim:
    return Claim(
        text=text, citations=(Citation(chunk_id=chunk_id, doc_id=chunk_id.split("#", maxsplit=1)[0], quote=quote),)
    )


def report(*claims: Claim) -> Report:
    return Report(template="question", writer="extractive", subject=TASK.question, summary=claims)


def test_the_figures_of_a_written_answer() -> None:
    texts = {"film#0": "Big Eyes is a film directed by Tim Burton.", "other#0": "Tim Burton was born in Burbank."}
    written = report(
        claim("Big Eyes is a film directed by Tim Burton.", "film#0", "directed by Tim Burton"),
        claim("Tim Burton was born in Burbank.", "other#0", "born in Paris"),  # a quote the index does not hold
    )
    metrics = with_answer(METRICS, TASK, written, texts)
    assert metrics.answer_in_text is True
    assert metrics.citations_verified == 0.5
    assert metrics.citation_precision == 0.5
    assert (
        dataclasses.replace(metrics, answer_in_text=None, citations_verified=None, citation_precision=None) == METRICS
    )


def test_an_empty_answer_holds_no_answer_and_has_no_citation_figures() -> None:
    metrics = with_answer(METRICS, TASK, report(), {})
    assert metrics.answer_in_text is False
    assert metrics.citations_verified is None
    assert metrics.citation_precision is None
