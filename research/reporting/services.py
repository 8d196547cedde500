"""Writing a finished run's answer: evidence from its documents, the configured writer, the citation check,
stored as the run's report and recorded as the run's events (so the page shows it live and on reload)."""

from __future__ import annotations

import datetime
import logging
from collections.abc import Callable, Sequence

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from research.models import Report, Run
from research.platform.composition import writer
from research.protocol.events import AnyEvent, RankedDocument, ReportWritten, WritingFailed, WritingStarted
from research.protocol.report import Report as WrittenReport
from research.protocol.report import to_dict
from research.reporting.selectors import evidence_for_run
from research.reports.answer import answer_report

logger = logging.getLogger(__name__)


def stale_before() -> str:
    """The ISO date before which evidence is marked as possibly stale (REPORT_STALE_DAYS ago)."""
    return (timezone.now() - datetime.timedelta(days=settings.REPORT_STALE_DAYS)).date().isoformat()


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


def answer_write(run: Run, documents: Sequence[RankedDocument], record: Callable[[AnyEvent], None]) -> None:
    """Write, check, store and record the answer to the run's question from its final ``documents``.

    Never raises: a writer that breaks leaves the run its documents and records why (``writing_failed``).
    """
    try:
        evidence = evidence_for_run(run, documents)
        chosen = writer()
        record(WritingStarted(writer=chosen.name, template="question", evidence=len(evidence)))
        report = answer_report(run.question, evidence, chosen, stale_before=stale_before())
        report_save(run, report)
    except Exception as error:
        logger.exception("run %s: the answer could not be written", run.pk)
        record(WritingFailed(error=f"{type(error).__name__}: {error}"))
        return
    record(ReportWritten(report=report))
