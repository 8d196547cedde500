"""A free question: every rollout searches the question itself; the answer is written from the fused ranking."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from research.models import Run, RunTemplate
from research.protocol.events import WritingStarted
from research.protocol.report import Report as WrittenReport
from research.reporting.kinds.base import Finished, Record, RunKind, stale_before
from research.reporting.selectors import evidence_for_run
from research.writing.answer import answer_report
from research.writing.writers import Writer


class Question(RunKind):
    template = RunTemplate.QUESTION
    about_company = False
    rollouts_chosen = True
    compared_by_section = False  # an answer's sentences are one block, whatever part of the question they answer
    export_title = "Answer"

    def recorded_question(self, *, question: str, company: str, aspects: Sequence[str]) -> str:
        return question.strip()

    def rerun_config(self, run: Run) -> dict[str, Any]:
        return {"question": run.question}

    def write(self, finished: Finished, chosen: Writer, record: Record) -> WrittenReport:
        chunks = evidence_for_run(finished.run, finished.documents)
        record(WritingStarted(writer=chosen.name, template=self.name, evidence=len(chunks)))
        return answer_report(finished.run.question, chunks, chosen, stale_before=stale_before())


KIND = Question()
