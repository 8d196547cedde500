"""Write-side operations on workspaces and memberships (keyword-only, validated, transactional)."""

from __future__ import annotations

import secrets

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils.text import slugify

from research.models import Membership, Role, Workspace
from research.writing.criteria import criteria_from_lines

# A new workspace's slug is its name plus a random suffix, always: a slug that depended on which slugs exist
# (``alpha-secret-2``) would tell anyone creating a workspace that another team's ``alpha-secret`` exists.
SLUG_SUFFIX_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"  # no l, o, 0, 1: easy to read aloud and type
SLUG_SUFFIX_LENGTH = 6
SLUG_ATTEMPTS = 5


def _random_slug(name: str) -> str:
    base = slugify(name)[:120].strip("-") or "workspace"
    suffix = "".join(secrets.choice(SLUG_SUFFIX_ALPHABET) for _ in range(SLUG_SUFFIX_LENGTH))
    return f"{base}-{suffix}"


def _create_with_slug(*, name: str, owner: User, description: str, slug: str | None) -> Workspace:
    """Insert the workspace under a fresh random slug (another draw on the rare collision), or under ``slug``."""
    for _ in range(1 if slug else SLUG_ATTEMPTS):
        try:
            with transaction.atomic():
                return Workspace.objects.create(
                    name=name, slug=slug or _random_slug(name), description=description, created_by=owner
                )
        except IntegrityError:
            continue
    raise ValidationError({"name": "Could not give this workspace an address; try again."})


@transaction.atomic
def workspace_create(*, name: str, owner: User, description: str = "", slug: str | None = None) -> Workspace:
    """A workspace owned by ``owner``. Its slug is random-suffixed; ``slug`` fixes it (server-side seeding only)."""
    name = name.strip()
    if not name:
        raise ValidationError({"name": "A workspace needs a name."})
    workspace = _create_with_slug(name=name, owner=owner, description=description.strip(), slug=slug)
    Membership.objects.create(workspace=workspace, user=owner, role=Role.OWNER)
    return workspace


@transaction.atomic
def membership_remove(*, actor: Membership, member: Membership) -> None:
    """Remove ``member`` from the actor's workspace. Only owners may; the last owner cannot be removed.

    The owners' rows are locked first, and the count is taken after the delete inside the same
    transaction, so two owners removing each other at once cannot leave the workspace without one.
    Deleting the row revokes the member's open sockets (research/platform/access.py).
    """
    if not actor.can_manage or member.workspace_id != actor.workspace_id:
        raise PermissionDenied("Only a workspace owner can remove members.")
    owners = Membership.objects.filter(workspace_id=actor.workspace_id, role=Role.OWNER)
    if actor.pk not in set(owners.select_for_update().values_list("pk", flat=True)):
        raise PermissionDenied("Only a workspace owner can remove members.")
    deleted, _ = Membership.objects.filter(pk=member.pk, workspace_id=actor.workspace_id).delete()
    if not deleted:
        raise ValidationError(f"{member.user} is no longer a member.")
    if not owners.exists():
        raise ValidationError(
            f"{member.user} is the last owner: make another member an owner first, so the workspace keeps one."
        )


def workspace_icp_set(*, actor: Membership, text: str) -> Workspace:
    """Set the workspace's ideal customer profile from one criterion a line (``description`` or
    ``description | weight``); owners and editors only. An empty text clears it."""
    if not actor.can_edit:
        raise PermissionDenied("Only owners and editors can change the ideal customer profile.")
    workspace = actor.workspace
    if not text.strip():
        workspace.icp = []
    else:
        try:
            workspace.icp = [criterion.as_dict() for criterion in criteria_from_lines(text)]
        except ValueError as error:
            raise ValidationError({"criteria": f"{error}."}) from None
    workspace.save(update_fields=["icp"])
    return workspace


def workspace_web_default_set(*, actor: Membership, on: bool) -> Workspace:
    """Whether new runs of the workspace search the web too by default (owners and editors)."""
    if not actor.can_edit:
        raise PermissionDenied("Only owners and editors change the workspace's defaults.")
    workspace = actor.workspace
    workspace.web_default = on
    workspace.save(update_fields=["web_default"])
    return workspace
