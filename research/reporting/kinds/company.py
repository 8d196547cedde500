"""A report on a company (a competitor report, a prospect brief): one rollout per facet, each searching its own
question about the company; a section per facet written from what that facet's rollout found."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from research.models import Run
from research.protocol.events import WritingStarted
from research.protocol.report import Report as WrittenReport
from research.reporting.kinds.base import Finished, Record, RunKind, options_of, stale_before
from research.reporting.selectors import evidence_for_run
from research.writing.company import Facet, FacetEvidence, company_report, facets_for
from research.writing.writers import Writer

# A found document of at most this many chunks is read whole (a company's page, a press release, a note; not a long
# report): what a facet's search matched is often beside what the section needs (a pricing page's plan cards).
WHOLE_DOCUMENT_CHUNKS = 6  # dev fact recall +0.011, claim precision -0.006 (2026-12-06)


class CompanyReport(RunKind):
    brief: ClassVar[bool] = False  # a prospect brief: the newest dated claims first, and conversation openers

    def facet_count(self, *, aspects: Sequence[str], workspace_icp: Sequence[Mapping[str, Any]]) -> int:
        return len(facets_for(self.name, aspects))

    def facets(self, run: Run) -> tuple[Facet, ...]:
        """The kind's facets, then one per extra aspect the member asked for."""
        return facets_for(self.name, options_of(run).aspects)

    def write(self, finished: Finished, chosen: Writer, record: Record) -> WrittenReport:
        run = finished.run
        per_facet = [
            FacetEvidence(facet, tuple(evidence_for_run(run, ranking, whole=WHOLE_DOCUMENT_CHUNKS)))
            for facet, ranking in zip(self.facets(run), finished.found, strict=True)
        ]
        evidence = sum(len(item.evidence) for item in per_facet)
        record(WritingStarted(writer=chosen.name, template=self.name, evidence=evidence))
        return company_report(self.name, run.subject, per_facet, chosen, stale_before=stale_before(), brief=self.brief)
