"""Digests of scheduled runs: the diff with the previous finished run on stored reports with planted changes, the
decision to notify made in code, in-app notices and e-mails to the readers the sharing rules allow (Django's
locmem backend), unsubscribing, and a mail server that fails halfway."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import time
from typing import Any, ClassVar

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend
from django.test import Client, override_settings
from django.urls import reverse

from research.investigations import services as investigations
from research.investigations.selectors import runs_compare
from research.models import (
    Chunk,
    Digest,
    Document,
    Investigation,
    Notification,
    NotifyMode,
    Run,
    RunStatus,
    Schedule,
    Visibility,
)
from research.schedules import digests, services
from tests.research.investigations.conftest import Team, finished_run

pytestmark = pytest.mark.django_db

KEPT = "Halvorix opened a Berlin office."
DROPPED = "Halvorix prices its Standard plan at 49 dollars a month."
NEW = "Halvorix hired Mara Quist as chief technology officer."


def _with_emails(team: Team) -> None:
    for member in (team.owner, team.author, team.editor, team.viewer, team.outsider):
        User.objects.filter(pk=member.user_id).update(email=f"{member.user.username}@example.com")


def _scheduled_pair(team: Team, *, notify: str = NotifyMode.CHANGED, newer: list[str] | None = None) -> Run:
    """An investigation whose first run stated KEPT and DROPPED, a schedule, and a scheduled run stating
    ``newer`` (KEPT and NEW by default); returns the scheduled run."""
    _with_emails(team)
    first = finished_run(team, claims=[KEPT, DROPPED])
    investigation = investigations.investigation_create(actor=team.author, run=first, title="Halvorix watch")
    schedule = services.schedule_save(
        actor=team.author,
        investigation=investigation,
        frequency="daily",
        time_of_day=time(8),
        notify=notify,
    )
    second = finished_run(team, claims=newer if newer is not None else [KEPT, NEW])
    Run.objects.filter(pk=second.pk).update(investigation=investigation, schedule=schedule)
    return Run.objects.get(pk=second.pk)


def test_the_digest_says_what_changed_by_claim_with_evidence(team: Team) -> None:
    run = _scheduled_pair(team)
    digest = digests.digest_make(run_id=run.pk)
    assert digest is not None
    assert digest.changed
    assert digest.notified
    assert digest.previous_run is not None
    assert digest.previous_run.pk != run.pk
    counts = digest.body["counts"]
    assert (counts["added"], counts["no_longer_supported"], counts["unchanged"]) == (1, 1, 1)
    assert [item["text"] for item in digest.body["added"]] == [NEW]
    assert [item["text"] for item in digest.body["no_longer_supported"]] == [DROPPED]
    assert digest.body["added"][0]["citations"][0]["quote"] == NEW
    assert digests.headline(digest) == "Halvorix watch: 1 new claim, 1 claim no longer supported"
    assert digests.digest_make(run_id=run.pk) == digest  # made once
    assert Digest.objects.count() == 1


def test_readers_are_told_in_the_app_and_nobody_else(team: Team, login: Callable[[User], Client]) -> None:
    run = _scheduled_pair(team)
    digest = digests.digest_make(run_id=run.pk)
    assert digest is not None
    told = set(Notification.objects.filter(digest=digest).values_list("user__username", flat=True))
    assert told == {"olga", "ada", "ed", "vic"}  # shared with the workspace; eve is in another workspace
    digests.digest_make(run_id=run.pk)
    assert Notification.objects.count() == 4  # not again
    page = login(team.viewer.user).get("/notifications/")
    assert "Halvorix watch: 1 new claim" in page.content.decode()
    assert 'aria-label="1 unread"' in page.content.decode()


def test_a_private_investigation_tells_only_its_author_and_the_owners(team: Team) -> None:
    run = _scheduled_pair(team)
    assert run.investigation is not None
    investigations.investigation_share(
        actor=team.author, investigation=run.investigation, visibility=Visibility.PRIVATE
    )
    digest = digests.digest_make(run_id=run.pk)
    assert digest is not None
    assert set(Notification.objects.values_list("user__username", flat=True)) == {"olga", "ada"}
    digests.digest_email(digest=digest)
    assert sorted(message.to[0] for message in mail.outbox) == ["ada@example.com", "olga@example.com"]


@pytest.mark.parametrize(
    ("mode", "status", "changed", "sent"),
    [
        (NotifyMode.CHANGED, RunStatus.FINISHED, True, True),
        (NotifyMode.CHANGED, RunStatus.FINISHED, False, False),
        (NotifyMode.EVERY, RunStatus.FINISHED, False, True),
        (NotifyMode.CHANGED, RunStatus.FAILED, False, True),
        (NotifyMode.EVERY, RunStatus.CANCELLED, True, False),
    ],
)
def test_the_decision_to_notify_is_made_in_code(mode: str, status: str, changed: bool, sent: bool) -> None:
    assert digests.notify_decision(mode=mode, status=status, changed=changed) is sent


def test_no_change_in_changed_mode_makes_a_quiet_digest(team: Team) -> None:
    run = _scheduled_pair(team, newer=[KEPT, DROPPED])
    digest = digests.digest_make(run_id=run.pk)
    assert digest is not None
    assert not digest.changed
    assert not digest.notified
    assert digests.headline(digest) == "Halvorix watch: no change"
    assert Notification.objects.count() == 0
    assert digests.digest_email(digest=digest).sent.delivered == ()
    assert mail.outbox == []


def test_the_every_run_mode_sends_even_without_change(team: Team) -> None:
    run = _scheduled_pair(team, notify=NotifyMode.EVERY, newer=[KEPT, DROPPED])
    digest = digests.digest_make(run_id=run.pk)
    assert digest is not None
    assert digest.notified
    assert not digest.changed


def test_a_failed_scheduled_run_is_news_in_any_mode(team: Team) -> None:
    run = _scheduled_pair(team)
    Run.objects.filter(pk=run.pk).update(status=RunStatus.FAILED, status_reason="InferenceUnavailable: vLLM down")
    digest = digests.digest_make(run_id=run.pk)
    assert digest is not None
    assert digest.notified
    assert digests.headline(digest) == "Halvorix watch: the scheduled run failed"
    digests.digest_email(digest=digest)
    assert "vLLM down" in mail.outbox[0].body


def test_a_run_no_schedule_fired_or_not_ended_gets_no_digest(team: Team) -> None:
    run = finished_run(team, claims=[KEPT])
    assert digests.digest_make(run_id=run.pk) is None
    scheduled = _scheduled_pair(team)
    Run.objects.filter(pk=scheduled.pk).update(status=RunStatus.RUNNING)
    assert digests.digest_make(run_id=scheduled.pk) is None


@override_settings(SITE_URL="https://research.example.com")
def test_the_e_mail_has_text_and_html_absolute_evidence_links_and_a_one_click_unsubscribe(team: Team) -> None:
    run = _scheduled_pair(team)
    digest = digests.digest_make(run_id=run.pk)
    assert digest is not None
    delivery = digests.digest_email(digest=digest)
    assert delivery.sent.error == ""
    assert len(mail.outbox) == 4
    message = next(m for m in mail.outbox if m.to == ["vic@example.com"])
    assert message.subject == "Halvorix watch: 1 new claim, 1 claim no longer supported"
    assert NEW in message.body
    assert DROPPED in message.body
    html, kind = message.alternatives[0]  # type: ignore[attr-defined]
    assert kind == "text/html"
    assert NEW in html
    evidence = f"https://research.example.com/w/{team.workspace.slug}/runs/{run.pk}/d/press/?highlight=press%230"
    assert evidence in message.body
    unsubscribe = message.extra_headers["List-Unsubscribe"].strip("<>")
    assert unsubscribe.startswith("https://research.example.com/unsubscribe/")
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert unsubscribe in message.body
    assert unsubscribe in html
    assert "<script" not in html
    assert set(digest.emailed_to) == {team.owner.user_id, team.author.user_id, team.editor.user_id, team.viewer.user_id}
    mail.outbox.clear()
    assert digests.digest_email(digest=Digest.objects.get(pk=digest.pk)).sent.delivered == ()  # nobody twice


def test_unsubscribing_stops_that_readers_e_mails_of_that_schedule(team: Team) -> None:
    run = _scheduled_pair(team)
    digest = digests.digest_make(run_id=run.pk)
    assert digest is not None
    assert digest.schedule_id is not None
    token = digests.unsubscribe_token(schedule_id=digest.schedule_id, user_id=team.viewer.user_id)
    visitor = Client()  # the link works without logging in
    url = reverse("schedule_unsubscribe", kwargs={"token": token})
    page = visitor.get(url)
    assert page.status_code == 200
    assert "Unsubscribe from these e-mails" in page.content.decode()
    assert not Schedule.objects.get().mutes.exists()  # a GET (a mail scanner's) changes nothing
    assert visitor.post(url, {"List-Unsubscribe": "One-Click"}).status_code == 200  # RFC 8058, no CSRF token
    assert list(Schedule.objects.get().mutes.values_list("user_id", flat=True)) == [team.viewer.user_id]
    digests.digest_email(digest=digest)
    assert "vic@example.com" not in [message.to[0] for message in mail.outbox]
    assert Notification.objects.filter(user=team.viewer.user).count() == 1  # still told in the app
    again = visitor.post(url, {"resubscribe": "1"})
    assert "gets an e-mail after each" in again.content.decode()
    assert visitor.get(reverse("schedule_unsubscribe", kwargs={"token": token[:-3] + "xyz"})).status_code == 404


class FlakyBackend(EmailBackend):
    """locmem, except that it refuses one address (a mail server failing halfway)."""

    refused: ClassVar[set[str]] = set()

    def send_messages(self, messages: Any) -> int:
        for message in messages:
            if message.to[0] in self.refused:
                raise ConnectionError(f"550 {message.to[0]} refused")
        return super().send_messages(messages)


def test_a_mail_server_that_fails_halfway_is_retried_for_the_rest_only(team: Team) -> None:
    run = _scheduled_pair(team)
    digest = digests.digest_make(run_id=run.pk)
    assert digest is not None
    FlakyBackend.refused = {"ed@example.com"}
    with override_settings(EMAIL_BACKEND="tests.research.schedules.test_digests.FlakyBackend"):
        first = digests.digest_email(digest=digest)
        assert "550 ed@example.com refused" in first.sent.error
        sent_first = [message.to[0] for message in mail.outbox]
        FlakyBackend.refused = set()
        second = digests.digest_email(digest=Digest.objects.get(pk=digest.pk))
    assert second.sent.error == ""
    everyone = [message.to[0] for message in mail.outbox]
    assert sorted(everyone) == sorted(set(everyone))  # nobody twice
    assert set(everyone) == {"olga@example.com", "ada@example.com", "ed@example.com", "vic@example.com"}
    assert "ed@example.com" not in sent_first


def test_the_digest_page_follows_the_sharing_rules(team: Team, login: Callable[[User], Client]) -> None:
    run = _scheduled_pair(team)
    digest = digests.digest_make(run_id=run.pk)
    assert digest is not None
    assert run.investigation_id is not None
    url = reverse(
        "digest_page",
        kwargs={"slug": team.workspace.slug, "investigation_id": run.investigation_id, "digest_id": digest.pk},
    )
    page = login(team.viewer.user).get(url)
    html = page.content.decode()
    assert page.status_code == 200
    assert NEW in html
    assert DROPPED in html
    assert re.search(rf'href="/w/{team.workspace.slug}/runs/{run.pk}/d/press/\?highlight=press%230', html)
    assert login(team.outsider.user).get(url).status_code == 404
    assert Client().get(url).status_code == 302  # an anonymous visitor with a guessed id: the login page
    assert Client().get(url)["Location"].startswith("/accounts/login/")
    Investigation.objects.filter(pk=run.investigation_id).update(visibility=Visibility.PRIVATE)
    assert login(team.viewer.user).get(url).status_code == 404
    assert login(team.owner.user).get(url).status_code == 200
    notice = Notification.objects.get(user=team.viewer.user)
    assert login(team.viewer.user).get(f"/notifications/{notice.pk}/").status_code == 404  # lost access, no notice


def test_a_digest_being_sent_by_another_worker_is_not_sent_twice(team: Team) -> None:
    run = _scheduled_pair(team)
    digest = digests.digest_make(run_id=run.pk)
    assert digest is not None
    assert digests._claim_sending(digest)  # another worker holds it
    assert digests.digest_email(digest=digest).sent.delivered == ()
    assert mail.outbox == []
    Digest.objects.filter(pk=digest.pk).update(sending_until=None)  # it is done (or died and its hold expired)
    assert len(digests.digest_email(digest=digest).sent.delivered) == 4


def test_a_claim_left_out_while_its_chunk_still_holds_it_is_no_change(team: Team) -> None:
    """A re-run over an unchanged corpus that states fewer claims: the dropped claim's chunk still holds its quote,
    so it is "not restated", not "no longer supported"; once the chunk changes, it is no longer supported."""
    document = Document.objects.create(
        corpus=team.corpus, doc_id="press", title="Press release", source_name="press.md", kind="markdown"
    )
    chunk = Chunk.objects.create(document=document, index=0, chunk_id="press#0", text=f"{KEPT} {DROPPED}")
    run = _scheduled_pair(team, newer=[KEPT])
    digest = digests.digest_make(run_id=run.pk)
    assert digest is not None
    assert not digest.changed
    assert (digest.body["counts"]["no_longer_supported"], digest.body["counts"]["not_restated"]) == (0, 1)
    Chunk.objects.filter(pk=chunk.pk).update(text=f"{KEPT} Halvorix prices its Standard plan at 59 dollars.")
    assert [c.claim.text for c in runs_compare(older=digest.previous_run, newer=run).no_longer_supported] == [DROPPED]
