"""Read-only share links: created for one finished run of an investigation, optionally expiring, revocable;
the token (256 random bits) is shown once and only its SHA-256 is stored, so a database leak leaks no link."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import F
from django.utils import timezone

from research.models import Investigation, Membership, Report, Run, RunStatus, ShareLink, ShareLinkAccess
from research.platform.tokens import token_digest, token_new
from research.reporting.selectors import passage_digests, report_of
from research.workspaces import access

LABEL_MAX = 120


@dataclass(frozen=True)
class NewLink:
    link: ShareLink
    token: str  # shown to its creator once; never stored


def share_link_create(
    *,
    actor: Membership,
    investigation: Investigation,
    run: Run,
    expires_at: datetime | None = None,
    label: str = "",
    include_internal: bool = False,
) -> NewLink:
    """A link to ``run`` (a finished run of ``investigation``) for anyone who has it, until revoked or expired;
    what only our own notes back is left out of it unless ``include_internal``."""
    if not access.can_manage(membership=actor, investigation=investigation):
        raise PermissionDenied("Only the investigation's author or a workspace owner may share it by link.")
    if run.investigation_id != investigation.pk:
        raise ValidationError({"run": "Choose a run of this investigation."})
    if run.status != RunStatus.FINISHED:
        raise ValidationError({"run": "Only a finished run can be shared by link."})
    if expires_at is not None and expires_at <= timezone.now():
        raise ValidationError({"expires_at": "Choose an expiry in the future."})
    if len(label.strip()) > LABEL_MAX:
        raise ValidationError({"label": f"Keep the label within {LABEL_MAX} characters."})
    _passages_kept(run)
    token = token_new()
    link = ShareLink.objects.create(
        investigation=investigation,
        run=run,
        token_sha256=token_digest(token),
        label=label.strip(),
        created_by=actor.user,
        expires_at=expires_at,
        include_internal=include_internal,
    )
    return NewLink(link=link, token=token)


def _passages_kept(run: Run) -> None:
    """A report written before its passages were kept keeps them now, as they are when it is first shared."""
    stored = Report.objects.filter(run=run).first()
    if stored is not None and not stored.passages and (written := report_of(run)) is not None:
        stored.passages = passage_digests(run, written)
        stored.save(update_fields=["passages"])


def share_link_revoke(*, actor: Membership, link: ShareLink) -> None:
    if not access.can_manage(membership=actor, investigation=link.investigation):
        raise PermissionDenied("Only the investigation's author or a workspace owner may revoke its links.")
    if link.revoked_at is None:
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])


def share_link_access_record(*, link: ShareLink, ip: str | None, path: str) -> None:
    """Log one access (time, address, path) and count it."""
    now = timezone.now()
    ShareLinkAccess.objects.create(link=link, ip=ip or None, path=path[:300])
    ShareLink.objects.filter(pk=link.pk).update(access_count=F("access_count") + 1, last_accessed_at=now)
