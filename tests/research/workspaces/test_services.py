from __future__ import annotations

import re

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from research.models import Membership, Role, Workspace
from research.workspaces import services
from research.workspaces.services import membership_remove, workspace_create


def test_it_gives_workspaces_unique_slugs_from_their_names(make_user) -> None:  # type: ignore[no-untyped-def]
    owner = make_user()
    first = workspace_create(name="Acme Watch", owner=owner)
    second = workspace_create(name="Acme  watch!", owner=owner)
    assert re.fullmatch(r"acme-watch-[a-z2-9]{6}", first.slug)
    assert re.fullmatch(r"acme-watch-[a-z2-9]{6}", second.slug)
    assert first.slug != second.slug


def test_a_slug_does_not_tell_whether_another_team_has_the_name(make_user) -> None:  # type: ignore[no-untyped-def]
    """Issue 11 (14): "Alpha Secret" by an outsider gave ``alpha-secret-2``, revealing another team's workspace."""
    theirs = workspace_create(name="Alpha Secret", owner=make_user())
    mine = [workspace_create(name="Alpha Secret", owner=make_user()).slug for _ in range(20)]
    assert theirs.slug not in mine
    assert not any(re.fullmatch(r"alpha-secret(-\d+)?", slug) for slug in [theirs.slug, *mine])
    assert len(set(mine)) == 20


def test_a_random_collision_draws_again(make_user, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    owner = make_user()
    taken = workspace_create(name="Acme", owner=owner)
    draws = iter([taken.slug, taken.slug, "acme-fresh2"])
    monkeypatch.setattr(services, "_random_slug", lambda name: next(draws))
    assert workspace_create(name="Acme", owner=owner).slug == "acme-fresh2"
    assert Workspace.objects.count() == 2


def test_existing_slugs_keep_working_and_seeding_may_fix_one(make_user, login) -> None:  # type: ignore[no-untyped-def]
    ada = make_user()
    old = Workspace.objects.create(name="Old", slug="old")  # made before random suffixes
    Membership.objects.create(workspace=old, user=ada, role=Role.OWNER)
    assert login(ada).get("/w/old/").status_code == 200
    assert workspace_create(name="Demo workspace", owner=ada, slug="demo-workspace").slug == "demo-workspace"


def test_it_refuses_a_blank_name(make_user) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValidationError):
        workspace_create(name="   ", owner=make_user())


def _team(make_user, make_workspace):  # type: ignore[no-untyped-def]
    ada, bob, vic = make_user(), make_user(), make_user()
    workspace = make_workspace(ada, members={bob: "editor", vic: "viewer"})
    return workspace, *(Membership.objects.get(workspace=workspace, user=u) for u in (ada, bob, vic))


def test_an_owner_removes_a_member(make_user, make_workspace) -> None:  # type: ignore[no-untyped-def]
    workspace, ada, bob, _ = _team(make_user, make_workspace)
    membership_remove(actor=ada, member=bob)
    assert not Membership.objects.filter(pk=bob.pk).exists()
    assert Membership.objects.filter(workspace=workspace).count() == 2


def test_only_owners_remove_members(make_user, make_workspace) -> None:  # type: ignore[no-untyped-def]
    _, ada, bob, vic = _team(make_user, make_workspace)
    with pytest.raises(PermissionDenied):
        membership_remove(actor=bob, member=vic)
    with pytest.raises(PermissionDenied):
        membership_remove(actor=vic, member=ada)
    assert Membership.objects.filter(pk__in=[ada.pk, bob.pk, vic.pk]).count() == 3


def test_the_last_owner_stays_and_another_owner_may_leave(make_user, make_workspace) -> None:  # type: ignore[no-untyped-def]
    _, ada, bob, _ = _team(make_user, make_workspace)
    with pytest.raises(ValidationError, match="last owner"):
        membership_remove(actor=ada, member=ada)
    assert Membership.objects.filter(pk=ada.pk).exists()
    Membership.objects.filter(pk=bob.pk).update(role=Role.OWNER)
    bob.refresh_from_db()
    membership_remove(actor=ada, member=ada)
    assert not Membership.objects.filter(pk=ada.pk).exists()
    with pytest.raises(ValidationError, match="last owner"):
        membership_remove(actor=bob, member=bob)


def test_a_stale_actor_or_a_member_of_another_workspace_is_refused(make_user, make_workspace) -> None:  # type: ignore[no-untyped-def]
    _, ada, bob, vic = _team(make_user, make_workspace)
    elsewhere = Membership.objects.get(workspace=make_workspace(make_user()))
    with pytest.raises(PermissionDenied):
        membership_remove(actor=ada, member=elsewhere)
    Membership.objects.filter(pk=ada.pk).update(role=Role.VIEWER)  # demoted since the page was loaded
    Membership.objects.filter(pk=bob.pk).update(role=Role.OWNER)
    with pytest.raises(PermissionDenied):
        membership_remove(actor=ada, member=vic)
    assert Membership.objects.filter(pk=vic.pk).exists()
    assert Membership.objects.filter(pk=elsewhere.pk).exists()
