"""What every kind of run says about itself (research/reporting/kinds/__init__.py names the kinds)."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from django.conf import settings
from django.utils import timezone

from research.models import Run, RunTemplate
from research.protocol.events import AnyEvent, RankedDocument
from research.protocol.report import Report as WrittenReport
from research.protocol.run_options import RunOptions
from research.writing.company import Facet
from research.writing.writers import Writer

Record = Callable[[AnyEvent], None]


def stale_before() -> str:
    """The ISO date before which evidence is marked as possibly stale (REPORT_STALE_DAYS ago)."""
    return (timezone.now() - datetime.timedelta(days=settings.REPORT_STALE_DAYS)).date().isoformat()


def options_of(run: Run) -> RunOptions:
    return RunOptions.of(run.options)


@dataclass(frozen=True)
class Finished:
    """A finished run and what it found: the fused ``documents`` and each rollout's own ranking (``found``)."""

    run: Run
    documents: Sequence[RankedDocument]
    found: Sequence[Sequence[RankedDocument]]


class RunKind:
    """A kind of run: what it asks for, how many rollouts it searches with and for what, and how its answer
    or report is written. Subclasses say what differs; nothing outside the kinds branches on a run's kind."""

    template: ClassVar[RunTemplate]
    about_company: ClassVar[bool] = True  # a report on a company (the form asks its name), not a free question
    export_title: ClassVar[str]  # what an export calls what was written ("Competitor report: <company>")
    rollouts_chosen: ClassVar[bool] = False  # the form's rollout count holds (each searches the question itself)
    rollout_unit: ClassVar[str] = "facet"  # else one rollout per facet (or criterion) of the report
    compared_by_section: ClassVar[bool] = True  # two runs' reports are compared section by section

    @property
    def name(self) -> str:
        return str(self.template.value)

    @property
    def label(self) -> str:
        return str(self.template.label)

    def recorded_question(self, *, question: str, company: str, aspects: Sequence[str]) -> str:
        """What the run records as its question (the run list and the page show it)."""
        extra = f" (also: {'; '.join(aspects)})" if aspects else ""
        return f"{self.label} on {company.strip()}{extra}"

    def criteria(
        self, *, workspace_icp: Sequence[Mapping[str, Any]], given: Sequence[Mapping[str, Any]] | None
    ) -> tuple[dict[str, Any], ...]:
        """The profile a run of this kind judges against (none but an ICP check's); ValueError: not usable."""
        return ()

    def facet_count(self, *, aspects: Sequence[str], workspace_icp: Sequence[Mapping[str, Any]]) -> int:
        """How many facets (one rollout each) a run of this kind would search, for the form's estimate."""
        return 0

    def facets(self, run: Run) -> tuple[Facet, ...]:
        """The run's facets, one rollout each (none: its rollouts all search its question)."""
        return ()

    def rerun_config(self, run: Run) -> dict[str, Any]:
        """What a re-run needs of the run's own inputs, besides its company, corpora and limits."""
        return {"question": ""}

    def write(self, finished: Finished, chosen: Writer, record: Record) -> WrittenReport:
        """Write the finished run's answer or report, recording ``WritingStarted`` first."""
        raise NotImplementedError
