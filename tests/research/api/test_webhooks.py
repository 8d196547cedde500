"""Webhooks: a run started over the API with a webhook announces its finish or failure with a signed POST (checked
with the SDK's ``verify_webhook``), retried with backoff, refused for private addresses when given and when sent."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import timedelta

import pytest
import time_machine
from context1_web_sdk import WebhookError, verify_webhook
from django.test import Client
from django.utils import timezone

from research.models import DeliveryStatus, Run, RunStatus, WebhookDelivery
from research.retrieval.web import Refused
from research.retrieval.web.fetching import post
from research.retrieval.web.guard import AllowList
from research.runs.execution import run_execute
from research.runs.signals import run_ended
from research.webhooks import services as webhooks
from research.webhooks.signing import signed_headers
from tests.research.api.conftest import Team, bearer
from tests.support.webhook_receiver import Receiver, webhook_receiver

pytestmark = pytest.mark.django_db(transaction=True)
SECRET = "a-long-enough-webhook-secret"


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The deliveries the product queued (the tests attempt them here)."""
    queued: list[int] = []
    monkeypatch.setattr(webhooks, "task_send", lambda name, delivery_id, **_: queued.append(delivery_id))
    return queued


@pytest.fixture
def receiver(settings) -> Iterator[Receiver]:  # type: ignore[no-untyped-def]
    with webhook_receiver() as receiving:
        settings.WEBHOOK_ALLOWED_HOSTS = [f"127.0.0.1:{receiving.port}"]
        yield receiving


def _start(client: Client, team: Team, **body: object) -> object:
    return client.post(
        f"/api/v1/workspaces/{team.workspace.slug}/runs",
        json.dumps({"question": "Who sponsors Project Halyard?", **body}),
        content_type="application/json",
    )


def test_a_signature_holds_for_its_body_secret_and_time_only() -> None:
    body, now = b'{"id": "run-1-run.finished"}', int(time.time())
    headers = signed_headers(secret=SECRET, delivery_id="run-1-run.finished", timestamp=now, body=body)
    assert verify_webhook(body, headers, secret=SECRET)["id"] == "run-1-run.finished"
    with pytest.raises(WebhookError, match="does not match"):
        verify_webhook(body.replace(b"1", b"2"), headers, secret=SECRET)
    with pytest.raises(WebhookError, match="does not match"):
        verify_webhook(body, headers, secret=SECRET + "x")
    with pytest.raises(WebhookError, match="replay"):
        verify_webhook(body, headers, secret=SECRET, now=now + 301)
    with pytest.raises(WebhookError, match="no Context1-Webhook-Signature"):
        verify_webhook(body, {"Context1-Webhook-Timestamp": str(now)}, secret=SECRET)


def test_a_finished_run_posts_a_signed_announcement_once(team: Team, receiver: Receiver, sent: list[int]) -> None:
    client = bearer(team.owner)
    started = _start(client, team, webhook_url=receiver.url, webhook_secret=SECRET)
    assert started.status_code == 202, started.content  # type: ignore[attr-defined]
    run_id = started.json()["id"]  # type: ignore[attr-defined]
    assert started.json()["webhook_url"] == receiver.url  # type: ignore[attr-defined]
    run_execute(run_id=run_id)
    assert len(sent) == 1
    assert webhooks.delivery_attempt(delivery_id=sent[0]).status == DeliveryStatus.DELIVERED
    assert webhooks.delivery_attempt(delivery_id=sent[0]).status == DeliveryStatus.DELIVERED  # not sent again
    (request,) = receiver.received
    event = verify_webhook(request.body, request.headers, secret=SECRET)
    assert event["type"] == "run.finished"
    assert event["id"] == request.headers["Context1-Webhook-Id"] == f"run-{run_id}-run.finished"
    assert event["run"]["id"] == run_id
    assert event["run"]["status"] == "finished"
    assert event["run"]["api_url"].endswith(f"/api/v1/runs/{run_id}")
    assert request.headers["User-Agent"].startswith("Context1Web-Webhook")
    detail = client.get(f"/api/v1/runs/{run_id}")
    (delivery,) = detail.json()["webhook_deliveries"]
    assert (delivery["status"], delivery["attempts"], delivery["response_status"]) == ("delivered", 1, 200)
    assert SECRET not in detail.content.decode()  # the secret is never shown back


def test_a_failed_run_is_announced_and_a_cancelled_one_is_not(team: Team, receiver: Receiver, sent: list[int]) -> None:
    client = bearer(team.owner)
    failing = _start(client, team, webhook_url=receiver.url, webhook_secret=SECRET).json()["id"]  # type: ignore[attr-defined]
    run_ended.send(sender=Run, run_id=failing, status=RunStatus.FAILED)  # as the sweeper announces a failure
    cancelled = _start(client, team, webhook_url=receiver.url, webhook_secret=SECRET).json()["id"]  # type: ignore[attr-defined]
    assert client.post(f"/api/v1/runs/{cancelled}/cancel").status_code == 200
    run_ended.send(sender=Run, run_id=cancelled, status=RunStatus.CANCELLED)
    plain = _start(client, team).json()["id"]  # type: ignore[attr-defined]
    webhooks.delivery_on_end(run_id=plain, status=RunStatus.FINISHED)
    assert list(WebhookDelivery.objects.values_list("run_id", "event")) == [(failing, "run.failed")]


@pytest.mark.parametrize(
    ("url", "secret", "field", "words"),
    [
        ("http://127.0.0.1/hook", SECRET, "webhook_url", "private, local or reserved"),
        ("http://10.1.2.3/hook", SECRET, "webhook_url", "WEBHOOK_ALLOWED_HOSTS lists the hosts"),
        ("http://hooks.example.com:8443/x", SECRET, "webhook_url", "WEBHOOK_ALLOWED_HOSTS may list"),
        ("ftp://hooks.example.com/x", SECRET, "webhook_url", "only http and https"),
        ("https://user:pw@hooks.example.com/", SECRET, "webhook_url", "user name or password"),
        ("RECEIVER", "short", "webhook_secret", "16 to 200 characters"),
        ("", SECRET, "webhook_url", "give both, or neither"),
    ],
)
def test_a_webhook_address_or_secret_that_cannot_be_used_is_a_422_and_starts_nothing(
    team: Team, receiver: Receiver, url: str, secret: str, field: str, words: str
) -> None:
    answer = _start(bearer(team.owner), team, webhook_url=url.replace("RECEIVER", receiver.url), webhook_secret=secret)
    assert answer.status_code == 422, answer.content  # type: ignore[attr-defined]
    assert words in json.dumps(answer.json()["errors"][field])  # type: ignore[attr-defined]
    assert not Run.objects.exists()


def test_a_receiver_that_fails_is_asked_again_with_backoff_then_given_up(
    team: Team, receiver: Receiver, sent: list[int], settings
) -> None:  # type: ignore[no-untyped-def]
    settings.WEBHOOK_ATTEMPTS = 3
    receiver.statuses = [500, 503, 502]
    run_id = _start(bearer(team.owner), team, webhook_url=receiver.url, webhook_secret=SECRET).json()["id"]  # type: ignore[attr-defined]
    webhooks.delivery_on_end(run_id=run_id, status=RunStatus.FINISHED)
    waits, now = [], timezone.now()
    for _ in range(3):
        with time_machine.travel(now, tick=False):
            waits.append(webhooks.delivery_attempt(delivery_id=sent[0]).retry_in)
            early = webhooks.delivery_attempt(delivery_id=sent[0])  # a duplicate message before it is due
            assert early.retry_in is None
        now += timedelta(seconds=waits[-1] or 0)
    assert waits == [30.0, 120.0, None]
    delivery = WebhookDelivery.objects.get()
    assert (delivery.status, delivery.attempts, delivery.response_status) == ("failed", 3, 502)
    assert delivery.next_attempt_at is None
    assert "attempt 3 of 3; giving up" in delivery.error
    assert len(receiver.received) == 3  # the duplicates sent nothing
    ids = {request.headers["Context1-Webhook-Id"] for request in receiver.received}
    stamps = [request.headers["Context1-Webhook-Timestamp"] for request in receiver.received]
    assert len(ids) == 1  # the same delivery each time, for the receiver to drop repeats
    assert len(set(stamps)) == 3  # each attempt signed when sent
    assert len({request.body for request in receiver.received}) == 1


def test_a_delivery_its_worker_lost_is_sent_again_by_the_sweep(team: Team, receiver: Receiver, sent: list[int]) -> None:
    run_id = _start(bearer(team.owner), team, webhook_url=receiver.url, webhook_secret=SECRET).json()["id"]  # type: ignore[attr-defined]
    webhooks.delivery_on_end(run_id=run_id, status=RunStatus.FINISHED)  # its message is lost: nobody attempts it
    assert webhooks.deliveries_overdue_resend() == []  # not late yet
    later = timezone.now() + timedelta(seconds=webhooks.OVERDUE_SECONDS + 1)
    assert webhooks.deliveries_overdue_resend(now=later) == [sent[0]]
    assert sent == [sent[0], sent[0]]
    assert webhooks.delivery_attempt(delivery_id=sent[0]).status == DeliveryStatus.DELIVERED
    assert webhooks.deliveries_overdue_resend(now=later) == []  # delivered: never again


def test_an_address_refused_when_sent_fails_at_once_and_reaches_nothing(
    team: Team, receiver: Receiver, sent: list[int], settings
) -> None:  # type: ignore[no-untyped-def]
    run_id = _start(bearer(team.owner), team, webhook_url=receiver.url, webhook_secret=SECRET).json()["id"]  # type: ignore[attr-defined]
    webhooks.delivery_on_end(run_id=run_id, status=RunStatus.FINISHED)
    settings.WEBHOOK_ALLOWED_HOSTS = []  # the host is no longer allowed (or its name now resolves privately)
    attempt = webhooks.delivery_attempt(delivery_id=sent[0])
    assert (attempt.status, attempt.retry_in) == ("failed", None)
    assert "refused" in WebhookDelivery.objects.get().error
    assert receiver.received == []


def test_another_member_sees_only_the_webhooks_host(team: Team, receiver: Receiver, sent: list[int]) -> None:
    run_id = _start(bearer(team.owner), team, webhook_url=receiver.url, webhook_secret=SECRET).json()["id"]  # type: ignore[attr-defined]
    webhooks.delivery_on_end(run_id=run_id, status=RunStatus.FINISHED)
    seen = bearer(team.viewer).get(f"/api/v1/runs/{run_id}").json()  # type: ignore[attr-defined]
    assert seen["webhook_url"] == "http://127.0.0.1/…"
    assert seen["webhook_deliveries"][0]["url"] == "http://127.0.0.1/…"
    assert "/hooks/context1" not in json.dumps(seen)
    assert bearer(team.owner).get(f"/api/v1/runs/{run_id}").json()["webhook_url"] == receiver.url  # type: ignore[attr-defined]


def test_a_redirect_is_not_followed_and_counts_as_a_failed_attempt(
    team: Team, receiver: Receiver, sent: list[int]
) -> None:
    receiver.statuses = [302]
    run_id = _start(bearer(team.owner), team, webhook_url=receiver.url, webhook_secret=SECRET).json()["id"]  # type: ignore[attr-defined]
    webhooks.delivery_on_end(run_id=run_id, status=RunStatus.FINISHED)
    attempt = webhooks.delivery_attempt(delivery_id=sent[0])
    assert (attempt.status, attempt.retry_in) == ("pending", 30.0)
    assert "answered HTTP 302" in WebhookDelivery.objects.get().error
    assert len(receiver.received) == 1  # nothing sent where the redirect pointed


def test_a_changed_webhook_is_not_sent_to_its_old_address(team: Team, receiver: Receiver, sent: list[int]) -> None:
    run_id = _start(bearer(team.owner), team, webhook_url=receiver.url, webhook_secret=SECRET).json()["id"]  # type: ignore[attr-defined]
    webhooks.delivery_on_end(run_id=run_id, status=RunStatus.FINISHED)
    Run.objects.filter(pk=run_id).update(webhook_url="", webhook_secret="")
    assert webhooks.delivery_attempt(delivery_id=sent[0]).status == DeliveryStatus.FAILED
    assert "removed or changed" in WebhookDelivery.objects.get().error
    assert receiver.received == []


def test_an_address_httpx_cannot_send_to_is_refused_not_retried_forever() -> None:
    with pytest.raises(Refused, match="not a valid address"):
        post(
            "http://hooks.test/?\x7f",
            b"{}",
            {},
            allow=AllowList.of(["hooks.test"]),
            timeout=1,
            deadline=2,
            resolve=lambda host, port: ["127.0.0.1"],
        )


def test_a_timestamp_that_is_not_ascii_digits_is_a_webhook_error() -> None:
    with pytest.raises(WebhookError, match="not a number"):
        verify_webhook(b"{}", {"Context1-Webhook-Timestamp": "²", "Context1-Webhook-Signature": "v1=x"}, secret=SECRET)
