"""An ICP check: one rollout per criterion of the workspace's ideal customer profile (as it was when the run
started), each criterion judged from what every rollout found, with the quote that decides it."""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils import timezone

from research.models import Run, RunTemplate
from research.protocol.events import WritingStarted
from research.protocol.report import Report as WrittenReport
from research.reporting.kinds.base import Finished, Record, RunKind, options_of
from research.reporting.selectors import evidence_for_run
from research.writing.citations import by_chunk
from research.writing.company import Facet, literal
from research.writing.criteria import Criterion, criteria_from, search_french, search_question
from research.writing.icp import icp_report
from research.writing.writers import Writer


def run_criteria(run: Run) -> list[Criterion]:
    """The check's criteria, as they were when it started (none if they cannot be read)."""
    try:
        return criteria_from(list(options_of(run).criteria))
    except ValueError:
        return []


def criterion_facet(index: int, criterion: Criterion, company: str) -> Facet:
    """The facet a criterion's rollout searches: the question its judge needs answered about ``company``."""
    question = literal(search_question(criterion, company))
    return Facet(f"criterion-{index}", criterion.name, question, french=search_french(criterion))


def run_as_of(run: Run) -> datetime.date:
    """The day the time windows end: today, or the run's ``as_of`` option (evaluations set it)."""
    given = options_of(run).as_of
    try:
        return datetime.date.fromisoformat(str(given)) if given else timezone.localdate()
    except ValueError:
        return timezone.localdate()


class IcpCheck(RunKind):
    template = RunTemplate.ICP
    export_title = "ICP check"
    rollout_unit = "criterion"

    def criteria(
        self, *, workspace_icp: Sequence[Mapping[str, Any]], given: Sequence[Mapping[str, Any]] | None
    ) -> tuple[dict[str, Any], ...]:
        """The one given, else the workspace's (ValueError: not usable)."""
        given = given if given is not None else workspace_icp
        try:
            return tuple(criterion.as_dict() for criterion in criteria_from(list(given)))
        except ValueError as error:
            if not given:
                raise ValueError(
                    "Define the workspace's ideal customer profile first (on the workspace page)."
                ) from error
            raise ValueError(f"The ideal customer profile is not usable: {error}.") from error

    def facet_count(self, *, aspects: Sequence[str], workspace_icp: Sequence[Mapping[str, Any]]) -> int:
        return len(workspace_icp)

    def facets(self, run: Run) -> tuple[Facet, ...]:
        return tuple(criterion_facet(index, c, run.subject) for index, c in enumerate(run_criteria(run), start=1))

    def rerun_config(self, run: Run) -> dict[str, Any]:
        return {"question": "", "criteria": list(options_of(run).criteria)}  # the same profile again

    def write(self, finished: Finished, chosen: Writer, record: Record) -> WrittenReport:
        run = finished.run
        pooled = list(by_chunk([e for ranking in finished.found for e in evidence_for_run(run, ranking)]).values())
        model = getattr(chosen, "icp_judge", None)  # a language-model writer judges what the rules cannot
        writer = "rules" if model is None else "rules + openai"
        record(WritingStarted(writer=writer, template=self.name, evidence=len(pooled)))
        return icp_report(run.subject, run_criteria(run), pooled, as_of=run_as_of(run), model=model)


KIND = IcpCheck()
