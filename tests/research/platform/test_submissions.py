"""One-time submission tokens against the real Redis: one claim per token and content, whichever process asks
first; a repeat waits for the first and learns where it went; a released claim can be taken again."""

from __future__ import annotations

import threading

from django.http import HttpRequest
from django.test import RequestFactory

from research.platform import submissions


def _post(token: str, **fields: str) -> HttpRequest:
    return RequestFactory().post("/start/", {"submission": token, "csrfmiddlewaretoken": "x", **fields})


def test_two_claims_at_once_of_one_submission_start_one_thing() -> None:
    token, barrier, outcomes = submissions.submission_token(), threading.Barrier(2), []

    def claim() -> None:
        barrier.wait(timeout=10)
        with submissions.submission_once(_post(token, question="q"), scope="test:1") as submission:
            if not submission.repeated:
                submission.done("/runs/7/")
            outcomes.append((submission.repeated, submission.first_url))

    threads = [threading.Thread(target=claim) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=20)
    assert sorted(outcomes) == [(False, ""), (True, "/runs/7/")]


def test_a_claim_let_go_without_a_start_can_be_taken_again() -> None:
    token = submissions.submission_token()
    with submissions.submission_once(_post(token, question="q"), scope="test:2") as first:
        assert not first.repeated  # nothing done: released at the end of the block
    with submissions.submission_once(_post(token, question="q"), scope="test:2") as again:
        assert not again.repeated
        again.done("/runs/8/")
    with submissions.submission_once(_post(token, question="q"), scope="test:2") as third:
        assert third.repeated
        assert third.first_url == "/runs/8/"


def test_other_values_another_scope_or_no_token_are_other_submissions() -> None:
    token = submissions.submission_token()
    with submissions.submission_once(_post(token, question="q"), scope="test:3") as first:
        first.done("/runs/9/")
    for request, scope in (
        (_post(token, question="another"), "test:3"),  # the page restored by the back button, then changed
        (_post(token, question="q"), "test:4"),  # another member
        (_post("", question="q"), "test:3"),  # no token: not tracked
        (_post("short", question="q"), "test:3"),
    ):
        with submissions.submission_once(request, scope=scope) as other:
            assert not other.repeated


def test_a_repeat_while_the_first_is_starting_waits_for_it(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    token, started = submissions.submission_token(), threading.Event()
    answers: list[str] = []

    def first() -> None:
        with submissions.submission_once(_post(token), scope="test:5") as submission:
            started.set()
            threading.Event().wait(0.3)
            submission.done("/batches/3/")

    thread = threading.Thread(target=first)
    thread.start()
    assert started.wait(timeout=10)
    with submissions.submission_once(_post(token), scope="test:5") as second:
        answers.append(second.first_url)
    thread.join(timeout=10)
    assert answers == ["/batches/3/"]
    monkeypatch.setattr(submissions, "WAIT_SECONDS", 0.2)
    stuck = submissions.submission_token()
    with submissions.submission_once(_post(stuck), scope="test:6") as holder:
        with submissions.submission_once(_post(stuck), scope="test:6") as late:
            assert late.repeated
            assert late.first_url == ""
        holder.done("/x/")


def test_a_request_that_outlived_its_claim_never_frees_or_overwrites_a_later_one(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The first request's claim expires while it still works; a second claims the same submission; the first
    then ends without a start (or with one): the second's claim stays the second's."""
    monkeypatch.setattr(submissions, "PENDING_SECONDS", 1)
    token = submissions.submission_token()
    request = _post(token, question="late")
    with submissions.submission_once(request, scope="test:late") as slow:
        assert not slow.repeated
        client = submissions._client(submissions.settings.REDIS.client_url)
        client.delete(slow.key)  # as if its PENDING_SECONDS had run out
        with submissions.submission_once(_post(token, question="late"), scope="test:late") as later:
            assert not later.repeated
            slow.release()  # the slow request gives up: the later claim is not its to free
            assert client.get(later.key).startswith(submissions.PENDING)
            slow.done("/runs/1/")  # ... nor to overwrite
            assert client.get(later.key).startswith(submissions.PENDING)
            later.done("/runs/2/")
        assert client.get(later.key) == b"/runs/2/"
