"""A scheduled run's digest: what changed since the investigation's previous finished run, by structured claim
(research/writing/diff.py, as the Compare page), stored once per run; whether to tell its readers is decided in
code from that diff and the schedule's mode (never by a model); then in-app notices and e-mails (HTML and plain
text, a personal one-click unsubscribe link each) to the members who may read the investigation.

Idempotent: the digest, its notices and the decision are written in one transaction keyed by the run (a second
call finds the digest); e-mails go to those not yet in ``emailed_to``, so a retry after a mail server failure
sends the rest and nobody twice.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.core import signing
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from research.edits.selectors import report_edited
from research.investigations.selectors import previous_finished_run, run_ranking, runs_compare
from research.models import Digest, Membership, NotifyMode, Run, RunStatus, ScheduleMute
from research.notifications.services import notifications_create
from research.platform.mail import Mail, Sent, absolute, mail_send
from research.protocol.report import Citation, Report
from research.reporting.kinds import kind_of
from research.reporting.selectors import report_of
from research.schedules import selectors as schedule_selectors
from research.workspaces import access
from research.writing.diff import ClaimChange, RunDiff, run_diff

logger = logging.getLogger(__name__)

UNSUBSCRIBE_SALT = "context1.schedule.unsubscribe"
ITEMS_MAX = 25  # items of each kind a digest keeps (the counts stay exact)
SENDING_HOLD = timedelta(minutes=10)  # a worker sending a digest's e-mails holds it at most this long


def notify_decision(*, mode: str, status: str, changed: bool) -> bool:
    """Whether a digest is sent: a failed scheduled run always (someone must look); a cancelled one never (a
    member stopped it); a finished one after every run, or only when something changed."""
    if status == RunStatus.FAILED:
        return True
    if status != RunStatus.FINISHED:
        return False
    return mode == NotifyMode.EVERY or changed


def _citations(citations: tuple[Citation, ...], titles: dict[str, str]) -> list[dict[str, str]]:
    return [
        {"doc_id": c.doc_id, "chunk_id": c.chunk_id, "quote": c.quote, "title": titles.get(c.doc_id, c.doc_id)}
        for c in citations
    ]


def _source(doc_id: str, title: str, run_id: int) -> dict[str, Any]:
    return {"doc_id": doc_id, "title": title or doc_id, "run": run_id}


def _claims(changes: tuple[ClaimChange, ...], titles: dict[str, str], run_id: int) -> list[dict[str, Any]]:
    return [
        {"section": c.title, "text": c.claim.text, "run": run_id, "citations": _citations(c.claim.citations, titles)}
        for c in changes[:ITEMS_MAX]
    ]


def digest_body(
    run: Run, previous: Run | None, diff: RunDiff, reports: tuple[Report | None, Report | None]
) -> dict[str, Any]:
    """The digest as stored: counts, and the items (with their evidence) a page or an e-mail shows."""
    titles = {s.doc_id: s.title for report in reports if report for s in report.sources}
    earlier = previous.pk if previous else run.pk
    return {
        "status": run.status,
        "reason": run.status_reason[:500],
        "first": previous is None,
        "previous_run": previous.pk if previous else None,
        "counts": {
            "added": len(diff.added),
            "no_longer_supported": len(diff.no_longer_supported),
            "unchanged": diff.unchanged,
            "moved": diff.moved,
            "not_restated": len(diff.not_restated),
            "verdicts": len(diff.verdicts),
            "sources_added": len(diff.sources_added),
            "sources_removed": len(diff.sources_removed),
            "entered": len(diff.entered),
            "left": len(diff.left),
        },
        "added": _claims(diff.added, titles, run.pk),
        "no_longer_supported": _claims(diff.no_longer_supported, titles, earlier),
        "verdicts": [
            {
                "name": v.name,
                "before": v.before,
                "after": v.after,
                "reason": v.criterion.reason if v.criterion else "",
                "citations": _citations(v.criterion.citations, titles) if v.criterion else [],
            }
            for v in diff.verdicts[:ITEMS_MAX]
        ],
        "fit_score": list(diff.fit_score),
        "sources_added": [_source(s.doc_id, s.title, run.pk) for s in diff.sources_added[:ITEMS_MAX]],
        "sources_removed": [_source(s.doc_id, s.title, earlier) for s in diff.sources_removed[:ITEMS_MAX]],
        "entered": [{**_source(r.doc_id, r.title, run.pk), "rank": r.rank} for r in diff.entered[:ITEMS_MAX]],
        "left": [{**_source(r.doc_id, r.title, earlier), "rank": r.rank} for r in diff.left[:ITEMS_MAX]],
        "notes": list(diff.notes),
        "subject": run.subject or run.question[:200],
    }


def _diff(run: Run, previous: Run | None) -> tuple[RunDiff, tuple[Report | None, Report | None]]:
    """What changed since ``previous``, the analysts' edits applied to both reports (a struck claim is no news)."""
    newer = report_edited(run, report_of(run))
    if previous is not None:
        return runs_compare(older=previous, newer=run), (report_edited(previous, report_of(previous)), newer)
    # The first scheduled run: everything it found is new.
    empty = Report(template=run.template, writer="", subject=run.subject) if newer else None
    by_section = kind_of(run.template).compared_by_section
    return run_diff(empty, newer, newer_ranking=run_ranking(run), by_section=by_section), (None, newer)


def headline(digest: Digest) -> str:
    """One line for a notice and a subject: "Halvorix watch: 3 new claims, 1 no longer supported"."""
    title = digest.investigation.title
    body = digest.body
    if digest.status == RunStatus.FAILED:
        return f"{title}: the scheduled run failed"
    if digest.status == RunStatus.CANCELLED:
        return f"{title}: the scheduled run was cancelled"
    counts = body.get("counts", {})
    parts = [
        (counts.get("added", 0), "new claim", "new claims"),
        (counts.get("no_longer_supported", 0), "claim no longer supported", "claims no longer supported"),
        (counts.get("verdicts", 0), "changed verdict", "changed verdicts"),
        (counts.get("sources_added", 0), "new source", "new sources"),
        (counts.get("entered", 0), "new document in the ranking", "new documents in the ranking"),
    ]
    said = [f"{n} {one if n == 1 else many}" for n, one, many in parts if n]
    if body.get("first"):
        return f"{title}: first scheduled run" + (f", {', '.join(said)}" if said else "")
    return f"{title}: {', '.join(said)}" if said else f"{title}: no change"


def readers(digest: Digest) -> list[User]:
    """Members who may read the investigation now (sharing rules), active accounts only."""
    memberships = Membership.objects.filter(workspace_id=digest.investigation.workspace_id, user__is_active=True)
    return [
        m.user
        for m in memberships.select_related("user")
        if access.can_read(membership=m, investigation=digest.investigation)
    ]


def digest_build(run: Run) -> Digest:
    """The digest of ``run`` (ended, in an investigation), not saved: what changed and whether to notify."""
    assert run.investigation is not None
    previous = previous_finished_run(run=run)
    diff, reports = _diff(run, previous)
    changed = diff.changed or (previous is None and run.status == RunStatus.FINISHED)
    mode = run.schedule.notify if run.schedule else NotifyMode.EVERY
    return Digest(
        investigation=run.investigation,
        schedule=run.schedule,
        run=run,
        previous_run=previous,
        status=run.status,
        changed=changed,
        notified=notify_decision(mode=mode, status=run.status, changed=changed),
        body=digest_body(run, previous, diff, reports),
    )


def digest_make(*, run_id: int) -> Digest | None:
    """The run's digest (made now, or found), with its notices; None for a run no schedule fired or not ended."""
    run = Run.objects.select_related("investigation__workspace", "schedule").filter(pk=run_id).first()
    if run is None or run.schedule is None or run.investigation is None or not run.done:
        return None
    found = Digest.objects.filter(run=run).first()
    if found is not None:
        return found
    digest = digest_build(run)
    try:
        return _digest_store(run, digest)
    except IntegrityError:  # made meanwhile by another worker (SQLite has no row lock to wait on)
        return Digest.objects.filter(run=run).first()


def _digest_store(run: Run, digest: Digest) -> Digest | None:
    with transaction.atomic():
        locked = Run.objects.select_for_update().filter(pk=run.pk).first()
        if locked is None or Digest.objects.filter(run=run).exists():
            return Digest.objects.filter(run=run).first()
        digest.save()
        if digest.notified:
            notifications_create(
                users=[user.pk for user in readers(digest)],
                investigation=digest.investigation,
                digest=digest,
                title=headline(digest),
                url=schedule_selectors.digest_path(digest),
            )
    return digest


def unsubscribe_token(*, schedule_id: int, user_id: int) -> str:
    return signing.dumps({"s": schedule_id, "u": user_id}, salt=UNSUBSCRIBE_SALT)


def unsubscribe_read(token: str) -> tuple[int, int] | None:
    """(schedule id, user id) from a token this product signed; None for anything else."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("s"), int) or not isinstance(data.get("u"), int):
        return None
    return data["s"], data["u"]


@dataclass(frozen=True)
class Delivery:
    sent: Sent
    skipped: int  # readers without an e-mail address or who unsubscribed


def _mail(digest: Digest, user: User, *, test: bool = False, schedule_id: int | None = None) -> Mail:
    schedule_id = schedule_id or digest.schedule_id or 0
    unsubscribe = absolute(
        reverse("schedule_unsubscribe", kwargs={"token": unsubscribe_token(schedule_id=schedule_id, user_id=user.pk)})
    )
    context = {
        "digest": digest,
        "view": schedule_selectors.digest_view(digest, absolute_links=True),
        "headline": headline(digest),
        "user": user,
        "unsubscribe_url": unsubscribe,
        "test": test,
    }
    return Mail(
        to=user.email,
        subject=("[Test] " if test else "") + headline(digest),
        template="email/digest",
        context=context,
        headers={"List-Unsubscribe": f"<{unsubscribe}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"},
    )


def _claim_sending(digest: Digest) -> bool:
    """Hold the digest's sending with one conditional UPDATE: two workers never e-mail the same digest at once."""
    now = timezone.now()
    free = Q(sending_until__isnull=True) | Q(sending_until__lt=now)
    return Digest.objects.filter(free, pk=digest.pk).update(sending_until=now + SENDING_HOLD) == 1


def digest_email(*, digest: Digest) -> Delivery:
    """E-mail a notified digest to its readers who have an address, have not unsubscribed and have not had it
    (one worker at a time: another one sending it means this call has nothing to do)."""
    if not digest.notified or not _claim_sending(digest):
        return Delivery(Sent(()), 0)
    try:
        digest.emailed_to = Digest.objects.values_list("emailed_to", flat=True).get(pk=digest.pk)
        return _email(digest)
    finally:
        Digest.objects.filter(pk=digest.pk).update(sending_until=None)


def _email(digest: Digest) -> Delivery:
    mutes = ScheduleMute.objects.filter(schedule_id=digest.schedule_id) if digest.schedule_id else None
    muted = set(mutes.values_list("user_id", flat=True)) if mutes is not None else set()
    done = set(digest.emailed_to or [])
    everyone = readers(digest)
    to = [user for user in everyone if user.email and user.pk not in muted and user.pk not in done]
    sent = mail_send([_mail(digest, user) for user in to])
    delivered = {user.pk for user in to if user.email in sent.delivered}
    if delivered:
        digest.emailed_to = sorted(done | delivered)
        Digest.objects.filter(pk=digest.pk).update(emailed_to=digest.emailed_to)
    return Delivery(sent, len(everyone) - len(to) - len(done & {u.pk for u in everyone}))


def digest_test_email(*, digest: Digest, user: User, schedule_id: int) -> Sent:
    """The schedule's "send a test e-mail": this digest, to ``user`` alone, marked as a test (its unsubscribe
    link is the schedule's, even for a digest of a run no schedule fired)."""
    return mail_send([_mail(digest, user, test=True, schedule_id=schedule_id)])
