"""Read-side queries of workspaces and memberships. Every workspace lookup is scoped to the asking user."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet
from django.http import Http404

from research.models import Membership, Workspace


def workspace_list_for_user(*, user: User | AnonymousUser) -> QuerySet[Workspace]:
    if not user.is_authenticated:
        return Workspace.objects.none()
    return Workspace.objects.filter(memberships__user=user).order_by("name", "id")


def membership_get(*, user: User | AnonymousUser, slug: str) -> Membership:
    """The user's membership of the workspace ``slug``; 404 when they are not a member (or it does not exist)."""
    if not user.is_authenticated:
        raise Http404("No such workspace")
    try:
        return Membership.objects.select_related("workspace").get(workspace__slug=slug, user=user)
    except Membership.DoesNotExist:
        raise Http404("No such workspace") from None


def membership_find_by_slug(*, user_id: int, slug: str) -> Membership | None:
    return Membership.objects.filter(workspace__slug=slug, user_id=user_id).first()


def membership_list(*, workspace: Workspace) -> QuerySet[Membership]:
    return Membership.objects.filter(workspace=workspace).select_related("user").order_by("user__username")


def membership_exists(*, user_id: int, workspace_id: int) -> bool:
    """Whether the user is (still) a member: what an open workspace socket re-checks."""
    return Membership.objects.filter(workspace_id=workspace_id, user_id=user_id).exists()


def membership_get_in_workspace(*, workspace: Workspace, membership_id: int) -> Membership:
    """A membership of ``workspace`` by id (for the owner's member actions); 404 for any other id."""
    try:
        return Membership.objects.select_related("user").get(pk=membership_id, workspace=workspace)
    except Membership.DoesNotExist:
        raise Http404("No such member") from None
