"""Reading invitations: a live one by its token (404 otherwise, whatever the reason), a workspace's pending ones."""

from __future__ import annotations

from django.http import Http404

from research.invitations.services import pending
from research.models import Invitation, Workspace
from research.platform.tokens import TOKEN_MAX, token_digest


def invitation_live(*, token: str) -> Invitation:
    if not token or len(token) > TOKEN_MAX:
        raise Http404("No such invitation")
    found = Invitation.objects.filter(pending(), token_sha256=token_digest(token)).select_related("workspace").first()
    if found is None:
        raise Http404("No such invitation")
    return found


def invitations_pending(*, workspace: Workspace) -> list[Invitation]:
    return list(workspace.invitations.filter(pending()).select_related("invited_by").order_by("-created_at", "-id"))
