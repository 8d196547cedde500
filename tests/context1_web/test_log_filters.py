"""What the terminal shows of ordinary requests (issue 34): a refused request is one line without a traceback, an
invalid form (422) is no warning at all, and Daphne's start says what it serves rather than what it lacks."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.core.handlers.exception import response_for_exception
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils.log import log_response

from research.models import Workspace

pytestmark = pytest.mark.django_db


def _shown(caplog: pytest.LogCaptureFixture) -> str:
    """The records as the product's console handler prints them (its formatter, tracebacks included)."""
    formatter = logging.Formatter("%(levelname)s %(name)s: %(message)s")
    return "\n".join(formatter.format(record) for record in caplog.records)


def test_a_viewers_refused_post_is_one_line_naming_the_user_and_the_reason(
    make_user: Callable[..., User],
    make_workspace: Callable[..., Workspace],
    login: Callable[[User], Client],
    caplog: pytest.LogCaptureFixture,
) -> None:
    bob = make_user("bob")
    workspace = make_workspace(make_user(), members={bob: "viewer"})
    url = reverse("icp_update", kwargs={"slug": workspace.slug})
    with caplog.at_level(logging.INFO, logger="django"):
        response = login(bob).post(url, {"criteria": "Based in the EU"})
    assert response.status_code == 403
    lines = _shown(caplog).splitlines()
    assert lines == [
        f"WARNING django.request: Forbidden: POST {url} "
        "(user bob: Only owners and editors can change the ideal customer profile.)"
    ]
    assert all(record.exc_info is None for record in caplog.records)


def test_an_anonymous_refusal_says_so(caplog: pytest.LogCaptureFixture, rf: RequestFactory) -> None:
    request = rf.post("/w/x/icp/")
    request.user = AnonymousUser()
    with caplog.at_level(logging.INFO, logger="django"):
        response_for_exception(request, PermissionDenied("No."))
    assert _shown(caplog) == "WARNING django.request: Forbidden: POST /w/x/icp/ (anonymous: No.)"


def test_an_invalid_form_answered_422_logs_no_warning_but_a_server_error_still_does(
    make_user: Callable[..., User], login: Callable[[User], Client], caplog: pytest.LogCaptureFixture
) -> None:
    client = login(make_user())
    with caplog.at_level(logging.INFO, logger="django"):
        response = client.post(reverse("home"), {"name": ""}, headers={"HX-Request": "true"})
    assert response.status_code == 422
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
    with caplog.at_level(logging.INFO, logger="django"):
        log_response("Internal Server Error: %s", "/x/", response=_Response(500))
        log_response("Not Found: %s", "/x/", response=_Response(404))
    assert [r.getMessage() for r in caplog.records] == ["Internal Server Error: /x/", "Not Found: /x/"]


class _Response:
    def __init__(self, status_code: int) -> None:
        self.status_code = status_code


def test_daphne_says_what_it_serves_instead_of_what_http2_needs(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="daphne.server"):
        logging.getLogger("daphne.server").info("HTTP/2 support not enabled (install the http2 and tls Twisted extras)")
        logging.getLogger("daphne.server").info("Listening on TCP address 127.0.0.1:8000")
    messages = [record.getMessage() for record in caplog.records]
    assert messages == ["Serving HTTP/1.1 and WebSocket", "Listening on TCP address 127.0.0.1:8000"]
