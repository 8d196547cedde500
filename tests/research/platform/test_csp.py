"""Every response carries the Content-Security-Policy; the favicon is served; the page links it."""

from __future__ import annotations

from django.test import Client

from research.platform.csp import policy

HEADER = "Content-Security-Policy"


def test_every_kind_of_response_carries_the_policy(client: Client, db: None, make_user, login) -> None:  # type: ignore[no-untyped-def]
    member = login(make_user())
    responses = [
        client.get("/accounts/login/"),
        client.get("/healthz"),
        client.get("/no-such-page/"),
        member.get("/"),
        member.get("/w/no-such-workspace/runs.json"),
        client.get("/static/js/app.js"),
    ]
    for response in responses:
        assert response[HEADER] == policy("testserver"), response


def test_the_policy_allows_only_this_sites_scripts_and_its_own_sockets() -> None:
    directives = dict(part.split(" ", 1) for part in policy("example.org:8443").split("; "))
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["style-src-attr"] == "'unsafe-inline'"  # the run page's gauges: style="--used: ..."
    assert directives["connect-src"] == "'self' ws://example.org:8443 wss://example.org:8443"
    assert directives["frame-ancestors"] == "'none'"
    assert directives["object-src"] == "'none'"
    assert "unsafe-eval" not in policy("h")


def test_the_favicon_is_linked_and_answered(client: Client, db: None) -> None:
    page = client.get("/accounts/login/").content.decode()
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"] == "/static/favicon.svg"
    icon = client.get("/static/favicon.svg")
    assert icon.status_code == 200
    assert icon["Content-Type"].startswith("image/svg+xml")
    assert b"<svg" in b"".join(icon.streaming_content)  # type: ignore[attr-defined]
