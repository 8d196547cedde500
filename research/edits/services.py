"""Write-side of analysts' edits, kept per investigation: strike or pin a claim, add a note, override a verdict,
undo an edit. Only who may edit the investigation may (its viewers may not); each edit is checked against the
run's stored report (the claim, section or criterion must be there)."""

from __future__ import annotations

import dataclasses

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from research.models import EditKind, Investigation, Membership, ReportEdit, Run
from research.protocol.report import Claim, Report
from research.reporting.presenting import VERDICTS
from research.reporting.selectors import report_of
from research.workspaces import access
from research.writing.edits import claim_key

TEXT_MAX = 2_000
NOT_SAVED = "Save this run as an investigation first: edits are kept per investigation, so its re-runs keep them."


def _investigation(actor: Membership, run: Run) -> Investigation:
    investigation = run.investigation
    if investigation is None:
        raise ValidationError(NOT_SAVED)
    if not access.can_edit(membership=actor, investigation=investigation):
        raise PermissionDenied("You may read this investigation, not edit it.")
    return investigation


def _report(run: Run) -> Report:
    report = report_of(run)
    if report is None:
        raise ValidationError("This run has no written report to edit.")
    return report


def _text(text: str, *, field: str, what: str) -> str:
    text = text.strip()
    if not text:
        raise ValidationError({field: f"Write {what}."})
    if len(text) > TEXT_MAX:
        raise ValidationError({field: f"Keep it within {TEXT_MAX} characters (this one has {len(text)})."})
    return text


def _claim(report: Report, key: str) -> Claim:
    claims = [*report.summary, *(claim for section in report.sections for claim in section.claims)]
    for claim in claims:
        if claim_key(claim) == key:
            return claim
    raise ValidationError("That claim is not in this run's report.")


def _facet(report: Report, facet: str, *, allow_whole: bool = False) -> str:
    if (allow_whole and facet == "") or facet in {section.facet for section in report.sections}:
        return facet
    raise ValidationError({"facet": "Choose one of the report's sections."})


def _save(actor: Membership, run: Run, investigation: Investigation, **fields: str) -> ReportEdit:
    with transaction.atomic():
        if fields["kind"] in (EditKind.STRIKE, EditKind.PIN):  # a claim's latest strike or pin replaces the one before
            ReportEdit.objects.filter(
                investigation=investigation, kind=fields["kind"], claim_key=fields["claim_key"]
            ).delete()
        if fields["kind"] == EditKind.OVERRIDE:
            ReportEdit.objects.filter(
                investigation=investigation, kind=EditKind.OVERRIDE, criterion=fields["criterion"]
            ).delete()
        edit = ReportEdit.objects.create(investigation=investigation, run=run, created_by=actor.user, **fields)
        Investigation.objects.filter(pk=investigation.pk).update(last_activity_at=timezone.now())
    return edit


def claim_strike(*, actor: Membership, run: Run, key: str, reason: str) -> ReportEdit:
    investigation = _investigation(actor, run)
    claim = _claim(_report(run), key)
    reason = _text(reason, field="reason", what="why the claim is wrong")
    return _save(actor, run, investigation, kind=EditKind.STRIKE, claim_key=key, claim_text=claim.text, text=reason)


def claim_pin(*, actor: Membership, run: Run, key: str, facet: str) -> ReportEdit:
    investigation = _investigation(actor, run)
    report = _report(run)
    claim = _claim(dataclasses.replace(report, summary=()), key)  # a claim the summary alone states has no section
    facet = _facet(report, facet)
    return _save(actor, run, investigation, kind=EditKind.PIN, claim_key=key, claim_text=claim.text, facet=facet)


def note_add(*, actor: Membership, run: Run, facet: str, text: str) -> ReportEdit:
    investigation = _investigation(actor, run)
    facet = _facet(_report(run), facet, allow_whole=True)
    return _save(
        actor, run, investigation, kind=EditKind.NOTE, facet=facet, text=_text(text, field="text", what="a note")
    )


def verdict_override(*, actor: Membership, run: Run, criterion: str, verdict: str, note: str) -> ReportEdit:
    investigation = _investigation(actor, run)
    if criterion not in {item.name for item in _report(run).criteria}:
        raise ValidationError({"criterion": "That criterion is not in this run's check."})
    if verdict not in VERDICTS:
        raise ValidationError({"verdict": "Choose match, no match or unknown."})
    note = _text(note, field="note", what="why you override the verdict")
    return _save(actor, run, investigation, kind=EditKind.OVERRIDE, criterion=criterion, verdict=verdict, text=note)


def edit_undo(*, actor: Membership, run: Run, edit_id: int) -> None:
    investigation = _investigation(actor, run)
    deleted, _ = ReportEdit.objects.filter(investigation=investigation, pk=edit_id).delete()
    if not deleted:
        raise ValidationError("That edit was already undone.")
    Investigation.objects.filter(pk=investigation.pk).update(last_activity_at=timezone.now())
