"""Probe item 9: Daphne ran with --proxy-headers and docker-compose.yml published its port, so a client that skipped
the proxy wrote its own X-Forwarded-For and walked past the per-address login limit. X-Forwarded-For is now believed
only from TRUSTED_PROXIES, and compose publishes the web port on the host's loopback only."""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path

import httpx
import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import Client

from context1_web.env import Env
from research.platform.proxy import client_address
from tests.support import processes

PROXY = [ipaddress.ip_network("10.0.0.0/8")]


@pytest.mark.parametrize(
    ("peer", "forwarded", "client"),
    [
        ("203.0.113.9", "198.51.100.1", "203.0.113.9"),  # no proxy: the header is the client's own words
        ("10.0.0.5", "198.51.100.7", "198.51.100.7"),
        ("10.0.0.5", "1.2.3.4, 198.51.100.7", "198.51.100.7"),  # the proxy appends: the left part is the client's
        ("10.0.0.5", "198.51.100.7, 10.0.0.4", "198.51.100.7"),  # two proxies of ours
        ("10.0.0.5", "", "10.0.0.5"),
        ("10.0.0.5", "not-an-address", "10.0.0.5"),
    ],
)
def test_x_forwarded_for_is_believed_only_from_a_trusted_proxy(peer: str, forwarded: str, client: str) -> None:
    assert client_address(peer, forwarded, PROXY) == client
    assert client_address(peer, forwarded, []) == peer  # none trusted: never


def test_trusted_proxies_must_be_addresses_or_networks() -> None:
    assert Env({"TRUSTED_PROXIES": "10.0.0.5, 172.16.0.0/12, ::1"}).networks("TRUSTED_PROXIES") == [
        "10.0.0.5",
        "172.16.0.0/12",
        "::1",
    ]
    with pytest.raises(ImproperlyConfigured, match=r"proxy\.example"):
        Env({"TRUSTED_PROXIES": "proxy.example"}).networks("TRUSTED_PROXIES")


@pytest.mark.django_db
def test_a_spoofed_address_does_not_escape_the_per_address_login_limit(make_user, settings) -> None:  # type: ignore[no-untyped-def]
    settings.TRUSTED_PROXIES = []
    settings.LOGIN_FAILURES_PER_ADDRESS = 3
    settings.LOGIN_FAILURES_PER_USERNAME = 100
    users = [make_user() for _ in range(5)]
    answers = []
    for number, user in enumerate(users):
        client = Client(REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_FOR=f"198.51.100.{number}")
        answers.append(client.post("/accounts/login/", {"username": user.username, "password": "wrong"}))
    assert "Too many failed logins" not in answers[1].content.decode()
    assert "Too many failed logins" in answers[-1].content.decode()  # one address, whatever its header said


def _failed_logins(base: str, username: str, addresses: list[str]) -> list[str]:
    """A wrong password for ``username`` once from each claimed address, through the real web process."""
    pages = []
    with httpx.Client(base_url=base, timeout=30) as client:
        for address in addresses:
            form = client.get("/accounts/login/").text
            token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form)
            assert token is not None
            answer = client.post(
                "/accounts/login/",
                data={"csrfmiddlewaretoken": token.group(1), "username": username, "password": "wrong"},
                headers={"X-Forwarded-For": address, "Referer": f"{base}/accounts/login/"},
            )
            pages.append(answer.text)
    return pages


@pytest.mark.django_db(transaction=True)
def test_through_the_real_web_process_a_client_cannot_choose_its_address(  # type: ignore[no-untyped-def]
    make_user, process_env, tmp_path: Path
) -> None:
    user = make_user()
    spoofed = [f"198.51.100.{number}" for number in range(5)]
    limits = {"LOGIN_FAILURES_PER_ADDRESS": "3", "LOGIN_FAILURES_PER_USERNAME": "100"}
    with processes.daphne({**process_env, **limits}, tmp_path / "web.log") as (base, _):
        pages = _failed_logins(base, user.username, spoofed)
    assert "Too many failed logins" in pages[-1]  # one peer, one address, whatever its header said
    trusted = {**process_env, **limits, "TRUSTED_PROXIES": "127.0.0.1"}
    with processes.daphne(trusted, tmp_path / "proxied.log") as (base, _):
        pages = _failed_logins(base, make_user().username, spoofed)
    assert all("Too many failed logins" not in page for page in pages)  # the proxy's word: five clients
