"""Write-side operations on workspaces and memberships (keyword-only, validated, transactional)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils.text import slugify

from research.models import Membership, Role, Workspace


def _unique_slug(name: str) -> str:
    base = slugify(name)[:120] or "workspace"
    slug, suffix = base, 2
    while Workspace.objects.filter(slug=slug).exists():
        slug = f"{base}-{suffix}"
        suffix += 1
    return slug


@transaction.atomic
def workspace_create(*, name: str, owner: User, description: str = "") -> Workspace:
    name = name.strip()
    if not name:
        raise ValidationError({"name": "A workspace needs a name."})
    workspace = Workspace.objects.create(
        name=name, slug=_unique_slug(name), description=description.strip(), created_by=owner
    )
    Membership.objects.create(workspace=workspace, user=owner, role=Role.OWNER)
    return workspace


@transaction.atomic
def membership_add(*, actor: Membership, username: str, role: str) -> Membership:
    """Add ``username`` to the actor's workspace; only owners may do this."""
    if not actor.can_manage:
        raise PermissionDenied("Only a workspace owner can add members.")
    if role not in Role.values:
        raise ValidationError({"role": f"Unknown role {role!r}."})
    user = get_user_model().objects.filter(username=username.strip()).first()
    if user is None:
        raise ValidationError({"username": f"No user called {username.strip()!r}."})
    try:
        with transaction.atomic():
            return Membership.objects.create(workspace=actor.workspace, user=user, role=role)
    except IntegrityError:
        raise ValidationError({"username": f"{user} is already a member."}) from None
