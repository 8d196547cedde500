"""Starting an ICP batch: the CSV read row by row, one ICP check run per accepted row (each a durable run on the
`runs` queue), the rejected rows kept with their reasons."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from research.batches.csvfile import CsvError, Rejected, Row, rows_of
from research.models import Corpus, IcpBatch, IcpBatchRow, Membership, RunTemplate
from research.runs import services as runs
from research.runs.admission import run_admit
from research.writing.criteria import criteria_from


def _corpora_error(actor: Membership, corpora: Sequence[Corpus]) -> str | None:
    if not corpora:
        return "Choose at least one corpus."
    if any(corpus.workspace_id != actor.workspace_id for corpus in corpora):
        return "Choose corpora of this workspace."
    return None


def _rows(file_name: str, data: bytes) -> tuple[list[Row], list[Rejected]]:
    """The file's rows; ValidationError on ``file`` when none can be checked."""
    try:
        accepted, rejected = rows_of(data)
    except CsvError as error:
        raise ValidationError({"file": f"{file_name}: {error}."}) from None
    if not accepted:
        reasons = "; ".join(f"line {item.line}: {item.reason}" for item in rejected[:5])
        raise ValidationError({"file": f"{file_name}: no row can be checked ({reasons})."})
    return accepted, rejected


def batch_create(*, actor: Membership, file_name: str, data: bytes, corpora: Sequence[Corpus]) -> IcpBatch:
    """Check every company of the CSV against the workspace's ideal customer profile, over ``corpora``.

    ValidationError (by field: ``file``, ``corpora``) when nothing can start: no profile, a file that is not
    a list of companies, or no row that can be checked. Rejected rows are kept on the batch with reasons.
    """
    if not actor.can_edit:
        raise PermissionDenied("Only owners and editors can check companies.")
    if (wrong := _corpora_error(actor, corpora)) is not None:
        raise ValidationError({"corpora": wrong})
    try:
        criteria = [c.as_dict() for c in criteria_from(actor.workspace.icp)]
    except ValueError:
        raise ValidationError({"file": "Define the workspace's ideal customer profile first (above)."}) from None
    accepted, rejected = _rows(file_name, data)
    with transaction.atomic():
        run_admit(actor=actor, runs=len(accepted), batch=True)
        batch = IcpBatch.objects.create(
            workspace=actor.workspace,
            created_by=actor.user,
            file_name=file_name[:255],
            criteria=criteria,
            rejected=[dataclasses.asdict(item) for item in rejected],
        )
        for row in accepted:
            run = runs.run_start(
                actor=actor,
                question="",
                corpora=corpora,
                template=RunTemplate.ICP,
                company=row.name,
                criteria=criteria,
                admit=False,
            )
            IcpBatchRow.objects.create(
                batch=batch, line=row.line, company=row.name, domain=row.domain, notes=row.notes, run=run
            )
    return batch
