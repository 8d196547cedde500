"""Writing a finished run's answer or report: evidence from its documents, the configured writer, the citation
check, stored as the run's report and recorded as the run's events (so the page shows it live and on reload)."""

from __future__ import annotations

import datetime
import logging
from collections.abc import Callable, Sequence

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from research.models import Report, Run, RunTemplate
from research.platform.composition import writer
from research.protocol.events import AnyEvent, RankedDocument, ReportWritten, WritingFailed, WritingStarted
from research.protocol.report import Report as WrittenReport
from research.protocol.report import to_dict
from research.reporting.selectors import evidence_for_run, run_criteria, run_facets
from research.reports.answer import answer_report
from research.reports.citations import by_chunk
from research.reports.company import FacetEvidence, company_report
from research.reports.icp import icp_report

logger = logging.getLogger(__name__)


def stale_before() -> str:
    """The ISO date before which evidence is marked as possibly stale (REPORT_STALE_DAYS ago)."""
    return (timezone.now() - datetime.timedelta(days=settings.REPORT_STALE_DAYS)).date().isoformat()


def run_as_of(run: Run) -> datetime.date:
    """The day an ICP check's time windows end: today, or the run's ``as_of`` option (evaluations set it)."""
    given = run.options.get("as_of") if isinstance(run.options, dict) else None
    try:
        return datetime.date.fromisoformat(str(given)) if given else timezone.localdate()
    except ValueError:
        return timezone.localdate()


def report_save(run: Run, report: WrittenReport) -> Report:
    """Store ``report`` as the run's report (replacing one an earlier attempt wrote)."""
    claims = len(report.summary) + sum(len(section.claims) for section in report.sections)
    with transaction.atomic():
        stored, _ = Report.objects.update_or_create(
            run=run,
            defaults={
                "template": report.template,
                "writer": report.writer,
                "body": to_dict(report),
                "claims": claims,
                "removed": len(report.removed),
            },
        )
    return stored


def report_write(
    run: Run,
    documents: Sequence[RankedDocument],
    found: Sequence[Sequence[RankedDocument]],
    record: Callable[[AnyEvent], None],
) -> None:
    """Write, check, store and record what a finished run answers: the answer to its question from its final
    ``documents``; a competitor report or prospect brief: a section per facet from what that facet's rollout
    ``found``; an ICP check: each criterion judged from what every rollout found.

    Never raises: a writer that breaks leaves the run its documents and records why (``writing_failed``).
    """
    try:
        chosen = writer(run.options.get("writer") if isinstance(run.options, dict) else None)
        facets = run_facets(run)
        if run.template == RunTemplate.ICP:
            pooled = list(by_chunk([e for ranking in found for e in evidence_for_run(run, ranking)]).values())
            model = getattr(chosen, "icp_judge", None)  # a language-model writer judges what the rules cannot
            record(
                WritingStarted(
                    writer="rules" if model is None else "rules + openai", template=run.template, evidence=len(pooled)
                )
            )
            report = icp_report(run.subject, run_criteria(run), pooled, as_of=run_as_of(run), model=model)
        elif facets:
            per_facet = [
                FacetEvidence(facet, tuple(evidence_for_run(run, ranking)))
                for facet, ranking in zip(facets, found, strict=True)
            ]
            evidence = sum(len(item.evidence) for item in per_facet)
            record(WritingStarted(writer=chosen.name, template=run.template, evidence=evidence))
            report = company_report(run.template, run.subject, per_facet, chosen, stale_before=stale_before())
        else:
            chunks = evidence_for_run(run, documents)
            record(WritingStarted(writer=chosen.name, template="question", evidence=len(chunks)))
            report = answer_report(run.question, chunks, chosen, stale_before=stale_before())
        report_save(run, report)
    except Exception as error:
        logger.exception("run %s: the answer could not be written", run.pk)
        record(WritingFailed(error=f"{type(error).__name__}: {error}"))
        return
    record(ReportWritten(report=report))
