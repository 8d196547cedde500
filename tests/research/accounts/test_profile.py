"""The account page: one's e-mail address (where digests go) and password; errors shown where the field is."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client

pytestmark = pytest.mark.django_db


def test_a_member_sets_and_clears_their_e_mail_address(
    make_user: Callable[..., User], login: Callable[[User], Client]
) -> None:
    ada = make_user("ada")
    client = login(ada)
    assert 'href="/accounts/profile/"' in client.get("/").content.decode()  # the name in the top bar leads here
    saved = client.post("/accounts/profile/", {"email": " Ada@Example.com "}, follow=True)
    assert "Saved." in saved.content.decode()
    ada.refresh_from_db()
    assert ada.email == "ada@example.com"
    client.post("/accounts/profile/", {"email": ""})
    ada.refresh_from_db()
    assert ada.email == ""


def test_a_bad_or_taken_address_is_refused_where_the_field_is(
    make_user: Callable[..., User], login: Callable[[User], Client]
) -> None:
    make_user("bob")
    User.objects.filter(username="bob").update(email="bob@example.com")
    client = login(make_user("ada"))
    bad = client.post("/accounts/profile/", {"email": "not an address"})
    assert bad.status_code == 422
    assert "Enter a valid email address." in bad.content.decode()
    taken = client.post("/accounts/profile/", {"email": "BOB@example.com"})
    assert taken.status_code == 422
    assert "Another account uses this address." in taken.content.decode()
    assert User.objects.get(username="ada").email == ""


def test_the_password_changes_with_the_old_one_only(
    make_user: Callable[..., User], login: Callable[[User], Client]
) -> None:
    ada = make_user("ada", password="pw-for-tests-123")
    client = login(ada)
    wrong = client.post(
        "/accounts/password/",
        {"old_password": "nope", "new_password1": "A-new-passphrase-77", "new_password2": "A-new-passphrase-77"},
    )
    assert wrong.status_code == 200
    assert "Your old password was entered incorrectly" in wrong.content.decode()
    done = client.post(
        "/accounts/password/",
        {
            "old_password": "pw-for-tests-123",
            "new_password1": "A-new-passphrase-77",
            "new_password2": "A-new-passphrase-77",
        },
    )
    assert done.status_code == 302
    ada.refresh_from_db()
    assert ada.check_password("A-new-passphrase-77")
    assert client.get("/").status_code == 200  # still logged in (the session hash was updated)


def test_the_account_pages_need_a_login() -> None:
    assert Client().get("/accounts/profile/").status_code == 302
    assert Client().get("/accounts/password/").status_code == 302
