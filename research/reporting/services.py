"""Writing a finished run's answer or report: evidence from its documents, the configured writer, the citation
check, stored as the run's report and recorded as the run's events (so the page shows it live and on reload)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from django.db import transaction

from research.models import Report, Run
from research.platform.composition import writer
from research.protocol.events import AnyEvent, RankedDocument, ReportWritten, WritingFailed
from research.protocol.report import Report as WrittenReport
from research.protocol.report import to_dict
from research.protocol.run_options import RunOptions
from research.reporting.kinds import kind_of
from research.reporting.kinds.base import Finished
from research.reporting.selectors import passage_digests

logger = logging.getLogger(__name__)


def report_save(run: Run, report: WrittenReport) -> Report:
    """Store ``report`` as the run's report (replacing one an earlier attempt wrote), with the digests of the
    passages it cites (``passage_digests``)."""
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
                "passages": passage_digests(run, report),
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
        chosen = writer(RunOptions.of(run.options).writer or None)
        report = kind_of(run.template).write(Finished(run, documents, found), chosen, record)
        report_save(run, report)
    except Exception as error:
        logger.exception("run %s: the answer could not be written", run.pk)
        record(WritingFailed(error=f"{type(error).__name__}: {error}"))
        return
    record(ReportWritten(report=report))
