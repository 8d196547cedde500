"""Login throttling against the real Redis: by username and by client address, on the site and the admin."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis
from django.contrib.auth.models import User
from django.test import Client

from research.platform import throttle

LOGIN, ADMIN_LOGIN = "/accounts/login/", "/admin/login/"
PASSWORD = "a-long-password-1"


@pytest.fixture(autouse=True)
def _clean_counters(settings: Any) -> Iterator[None]:
    """Small limits, and no counters left in Redis by this test or an earlier one."""
    settings.LOGIN_FAILURES_PER_USERNAME = 3
    settings.LOGIN_FAILURES_PER_ADDRESS = 5
    settings.LOGIN_LOCKOUT_SECONDS = 900

    url, pattern = settings.REDIS.client_url, f"{settings.REDIS.key_prefix}:login:*"

    def clean() -> None:
        client = redis.Redis.from_url(url)
        keys = list(client.scan_iter(pattern))
        if keys:
            client.delete(*keys)
        client.close()

    clean()
    yield
    clean()


def _post(client: Client, username: str, password: str, url: str = LOGIN) -> Any:
    return client.post(url, {"username": username, "password": password, "next": "/"})


def _errors(response: Any) -> str:
    return " ".join(str(error) for error in response.context["form"].non_field_errors())


def test_wrong_passwords_lock_the_username_out_and_say_until_when(make_user: Callable[..., User]) -> None:
    make_user("ada", password=PASSWORD)
    client = Client()
    for _ in range(2):
        assert "correct username and password" in _errors(_post(client, "ada", "wrong"))
    locked = _post(client, "ada", "wrong")
    assert locked.status_code == 200
    assert "Too many failed logins. Try again in 15 minutes, at " in _errors(locked)
    assert "UTC" in _errors(locked)
    assert "Too many failed logins" in locked.content.decode()  # shown on the page
    refused = _post(Client(REMOTE_ADDR="10.0.0.9"), "ADA", PASSWORD)  # the right password, another address
    assert refused.status_code == 200
    assert "Too many failed logins" in _errors(refused)
    assert "_auth_user_id" not in refused.wsgi_request.session


def test_the_right_password_works_once_the_lockout_ends(make_user: Callable[..., User], settings: Any) -> None:
    settings.LOGIN_LOCKOUT_SECONDS = 4
    make_user("ada", password=PASSWORD)
    client = Client()
    for _ in range(3):
        _post(client, "ada", "wrong")
    assert "Too many failed logins" in _errors(_post(client, "ada", PASSWORD))
    deadline = time.monotonic() + 10
    while throttle.login_lockout(username="ada", address="127.0.0.1") and time.monotonic() < deadline:
        time.sleep(0.1)
    response = _post(client, "ada", PASSWORD)
    assert response.status_code == 302
    assert response["Location"] == "/"


def test_a_success_clears_the_usernames_count(make_user: Callable[..., User]) -> None:
    make_user("ada", password=PASSWORD)
    for _ in range(2):
        _post(Client(), "ada", "wrong")
    assert _post(Client(), "ada", PASSWORD).status_code == 302
    for _ in range(2):
        _post(Client(), "ada", "wrong")
    assert _post(Client(), "ada", PASSWORD).status_code == 302  # 4 failures in all, never 3 in a row


def test_one_address_guessing_many_usernames_is_locked_out(make_user: Callable[..., User]) -> None:
    make_user("ada", password=PASSWORD)
    guesser = Client(REMOTE_ADDR="10.1.2.3")
    for number in range(4):
        assert "correct username" in _errors(_post(guesser, f"user{number}", "wrong"))
    assert "Too many failed logins" in _errors(_post(guesser, "user9", "wrong"))
    assert "Too many failed logins" in _errors(_post(guesser, "ada", PASSWORD))
    assert _post(Client(REMOTE_ADDR="10.1.2.4"), "ada", PASSWORD).status_code == 302  # others are not


def test_the_admin_login_is_throttled_too(make_user: Callable[..., User]) -> None:
    User.objects.create_superuser("root", password=PASSWORD)
    client = Client()
    for _ in range(3):
        response = _post(client, "root", "wrong", ADMIN_LOGIN)
    assert response.status_code == 200
    assert "Too many failed logins" in response.content.decode()
    assert "Too many failed logins" in _post(client, "root", PASSWORD, ADMIN_LOGIN).content.decode()


def test_logins_go_through_when_redis_does_not_answer(make_user: Callable[..., User], settings: Any, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from context1_web.backing_services import redis_config

    settings.REDIS = redis_config(url=None, data_dir=tmp_path, key_prefix="t")  # nothing listens on that socket
    make_user("ada", password=PASSWORD)
    assert "correct username" in _errors(_post(Client(), "ada", "wrong"))
    assert _post(Client(), "ada", PASSWORD).status_code == 302
