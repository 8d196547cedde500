"""Webhooks: checking the address a member gives, recording a delivery when a run ends, and each attempt at it.

A run's webhook is its own (given when it was started over the API) or, for a scheduled run without one, its
schedule's. The address is checked by the web fetcher's rules when it is given and again at every attempt (DNS may
answer otherwise by then): http or https, the scheme's standard port, only public addresses, unless
``WEBHOOK_ALLOWED_HOSTS`` lists the host. A refused address fails the delivery at once; any other failure (no
answer, a status other than 2xx) is tried again 30 s, 2 min, 8 min and 32 min later, ``WEBHOOK_ATTEMPTS`` in all.
The body is made once, so every attempt sends the same bytes under a fresh timestamp and signature. A delivery
knows when its next attempt is due: a message that comes early (a duplicate) does nothing, and one a worker lost
(it died holding the countdown, or mid-attempt) is sent again by the minute's sweep once ``OVERDUE_SECONDS`` late."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone

from research.models import DeliveryStatus, Run, RunStatus, Schedule, WebhookDelivery
from research.platform.mail import absolute
from research.platform.queue import task_send
from research.retrieval.web import Refused, WebError
from research.retrieval.web.fetching import post
from research.retrieval.web.guard import AllowList, target
from research.webhooks.signing import SECRET_MAX, SECRET_MIN, signed_headers
from research.webhooks.task_names import WEBHOOK_DELIVER

logger = logging.getLogger(__name__)
EVENTS = {RunStatus.FINISHED: "run.finished", RunStatus.FAILED: "run.failed"}
ALLOWED_BY = "WEBHOOK_ALLOWED_HOSTS"
BACKOFF_SECONDS = 30.0  # before the second attempt; four times longer before each next one
OVERDUE_SECONDS = 120.0  # an attempt this late was lost with its worker
EARLY_TOLERANCE = timedelta(seconds=1)


def _allow() -> AllowList:
    return AllowList.of(settings.WEBHOOK_ALLOWED_HOSTS)


def webhook_validate(*, url: str, secret: str) -> dict[str, str]:
    """What is wrong with a webhook's address and secret, by field (nothing for no webhook at all)."""
    url, errors = url.strip(), {}
    if not url:
        if secret:
            errors["webhook_url"] = "A webhook secret without a webhook address: give both, or neither."
        return errors
    if len(url) > 2000:
        errors["webhook_url"] = "A webhook address has at most 2,000 characters."
    else:
        try:
            target(url, allow=_allow(), allowed_by=ALLOWED_BY)
        except WebError as error:
            errors["webhook_url"] = f"This webhook address cannot be used: {error}."
    if not SECRET_MIN <= len(secret) <= SECRET_MAX:
        errors["webhook_secret"] = (
            f"A webhook needs a secret of {SECRET_MIN} to {SECRET_MAX} characters: every request is signed with it,"
            " and your receiver checks the signature with it."
        )
    return errors


def webhook_shown(url: str, *, full: bool) -> str:
    """A webhook's address as a reader sees it: whole to the member who set it, else its scheme and host only (the
    path of a chat or automation hook is often its secret)."""
    if full or not url:
        return url
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.hostname or ''}/…"


def webhook_attach(*, owner: Run | Schedule, url: str, secret: str) -> None:
    """Announce the end of ``owner`` (a run, or each run of a schedule) at ``url``, signed with ``secret``; an empty
    ``url`` removes the webhook. The caller checked them with ``webhook_validate`` first, outside any transaction
    (the check resolves the host's name, which must not hold a database lock)."""
    url, secret = url.strip(), secret if url.strip() else ""
    type(owner).objects.filter(pk=owner.pk).update(webhook_url=url, webhook_secret=secret)
    owner.webhook_url, owner.webhook_secret = url, secret


def _webhook_of(run: Run) -> tuple[str, str] | None:
    if run.webhook_url:
        return run.webhook_url, run.webhook_secret
    schedule = run.schedule
    if schedule is not None and schedule.webhook_url:
        return schedule.webhook_url, schedule.webhook_secret
    return None


def _body(run: Run, event: str, delivery_key: str) -> str:
    page = reverse("run_page", kwargs={"slug": run.workspace.slug, "run_id": run.pk})
    return json.dumps(
        {
            "id": delivery_key,
            "type": event,
            "created_at": timezone.now().isoformat(),
            "run": {
                "id": run.pk,
                "status": run.status,
                "status_reason": run.status_reason,
                "template": run.template,
                "question": run.question,
                "subject": run.subject,
                "workspace": run.workspace.slug,
                "url": absolute(page),
                "api_url": absolute(f"/api/v1/runs/{run.pk}"),
                "finished_at": run.finished_at.isoformat() if run.finished_at else None,
                "scheduled": run.schedule_id is not None,
            },
        },
        ensure_ascii=False,
    )


def delivery_key(delivery: WebhookDelivery) -> str:
    """The delivery's id in its body and headers: the same on every attempt."""
    return f"run-{delivery.run_id}-{delivery.event}"


def delivery_on_end(*, run_id: int, status: str) -> WebhookDelivery | None:
    """The run has ended: record the announcement of a finish or failure and send it once committed."""
    event = EVENTS.get(RunStatus(status)) if status in RunStatus.values else None
    if event is None:
        return None
    run = Run.objects.select_related("workspace", "schedule").filter(pk=run_id).first()
    webhook = _webhook_of(run) if run is not None else None
    if run is None or webhook is None:
        return None
    key = delivery_key(WebhookDelivery(run=run, event=event))
    delivery, created = WebhookDelivery.objects.get_or_create(
        run=run,
        event=event,
        defaults={
            "url": webhook[0],
            "secret": webhook[1],
            "body": _body(run, event, key),
            "next_attempt_at": timezone.now(),
        },
    )
    if created:
        transaction.on_commit(lambda: task_send(WEBHOOK_DELIVER, delivery.pk))
    return delivery


@dataclass(frozen=True)
class Attempt:
    status: str  # the delivery's status after it
    retry_in: float | None = None  # seconds until the next attempt, if there is one
    detail: str = ""


def delivery_attempt(*, delivery_id: int, now: float | None = None) -> Attempt:
    """One attempt at a pending delivery (``now``: the Unix time to sign with); what became of it."""
    delivery = WebhookDelivery.objects.select_related("run__schedule", "run__workspace").filter(pk=delivery_id).first()
    if delivery is None or delivery.status != DeliveryStatus.PENDING:
        return Attempt(delivery.status if delivery else "gone")
    started = timezone.now()
    # The claim: due now (a duplicate message that comes early, or while another worker's attempt is in flight,
    # finds it not due) and moved past the longest an attempt can take, so the sweep leaves it alone meanwhile.
    due = Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=started + EARLY_TOLERANCE)
    in_flight = started + timedelta(seconds=2 * settings.WEBHOOK_TIMEOUT + 30)
    claimed = WebhookDelivery.objects.filter(
        due, pk=delivery.pk, attempts=delivery.attempts, status=DeliveryStatus.PENDING
    )
    if not claimed.update(attempts=F("attempts") + 1, last_attempt_at=started, next_attempt_at=in_flight):
        return Attempt(DeliveryStatus.PENDING, detail="not due, or another worker is attempting it")
    current = _webhook_of(delivery.run)
    if current is None or current[0] != delivery.url:  # removed or moved meanwhile: never to the old address
        return _record(delivery, DeliveryStatus.FAILED, error="the webhook was removed or changed before it was sent")
    timestamp = int(now if now is not None else started.timestamp())
    try:
        return _send(delivery, delivery.attempts + 1, timestamp=timestamp)
    except Exception as error:
        logger.exception("webhook delivery %s: attempt failed", delivery.pk)
        return _retry_or_fail(delivery, delivery.attempts + 1, error=f"{type(error).__name__}: {error}")


def _send(delivery: WebhookDelivery, attempts: int, *, timestamp: int) -> Attempt:
    body = delivery.body.encode()
    key = delivery_key(delivery)
    headers = signed_headers(secret=delivery.secret, delivery_id=key, timestamp=timestamp, body=body)
    timeout = settings.WEBHOOK_TIMEOUT
    try:
        answer = post(
            delivery.url, body, headers, allow=_allow(), timeout=timeout, deadline=2 * timeout, allowed_by=ALLOWED_BY
        )
    except Refused as error:
        return _record(delivery, DeliveryStatus.FAILED, error=f"refused: {error}")
    except WebError as error:
        return _retry_or_fail(delivery, attempts, error=str(error))
    if 200 <= answer < 300:
        return _record(delivery, DeliveryStatus.DELIVERED, response_status=answer, delivered_at=timezone.now())
    return _retry_or_fail(delivery, attempts, error=f"answered HTTP {answer}", response_status=answer)


def _retry_or_fail(delivery: WebhookDelivery, attempts: int, **fields: Any) -> Attempt:
    if attempts >= settings.WEBHOOK_ATTEMPTS:
        fields["error"] = f"{fields['error']} (attempt {attempts} of {settings.WEBHOOK_ATTEMPTS}; giving up)"
        return _record(delivery, DeliveryStatus.FAILED, **fields)
    wait = BACKOFF_SECONDS * 4 ** (attempts - 1)
    fields["error"] = f"{fields['error']} (attempt {attempts} of {settings.WEBHOOK_ATTEMPTS}; again in {wait:g} s)"
    _record(delivery, DeliveryStatus.PENDING, next_attempt_at=timezone.now() + timedelta(seconds=wait), **fields)
    return Attempt(DeliveryStatus.PENDING, retry_in=wait, detail=fields["error"])


def _record(delivery: WebhookDelivery, status: str, **fields: Any) -> Attempt:
    if status != DeliveryStatus.PENDING:
        fields["next_attempt_at"] = None
    WebhookDelivery.objects.filter(pk=delivery.pk).update(status=status, **fields)
    return Attempt(status, detail=str(fields.get("error", "")))


def deliveries_overdue_resend(*, now: datetime | None = None) -> list[int]:
    """Queue again each pending delivery whose next attempt is ``OVERDUE_SECONDS`` late; their ids."""
    late = (now or timezone.now()) - timedelta(seconds=OVERDUE_SECONDS)
    overdue = list(
        WebhookDelivery.objects.filter(status=DeliveryStatus.PENDING, next_attempt_at__lt=late).values_list(
            "pk", flat=True
        )[:500]
    )
    for delivery_id in overdue:
        task_send(WEBHOOK_DELIVER, delivery_id)
    return overdue
