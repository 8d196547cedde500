"""The Invitations card, drawn on the workspace page for its owners:
``{% load invitations %}{% invitations_card membership %}`` (research/platform/panels.py)."""

from __future__ import annotations

from typing import Any

from django import template
from django.template import Context
from django.utils.safestring import SafeString

from research.invitations import selectors, services
from research.invitations.forms import InviteForm
from research.models import Membership
from research.platform.panels import render_panel

CARD = "research/partials/invitations.html"
register = template.Library()


def invitations_context(
    membership: Membership, *, form: InviteForm | None = None, made: services.NewInvitation | None = None
) -> dict[str, Any]:
    """What the workspace page's Invitations card shows (owners only)."""
    return {
        "membership": membership,
        "workspace": membership.workspace,
        "invitations": selectors.invitations_pending(workspace=membership.workspace),
        "invite_form": form or InviteForm(),
        "made": made,
    }


@register.simple_tag(takes_context=True)
def invitations_card(context: Context, membership: Membership) -> SafeString:
    return render_panel(context, CARD, invitations_context(membership))
