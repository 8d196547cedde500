"""The Share links card, drawn on an investigation's page for those who may manage it:
``{% load sharing %}{% share_links_card membership investigation %}`` (research/platform/panels.py)."""

from __future__ import annotations

from typing import Any

from django import template
from django.template import Context
from django.utils.safestring import SafeString

from research.investigations import selectors as investigations
from research.models import Investigation, Membership, Run, RunStatus
from research.platform.panels import render_panel
from research.sharing import selectors
from research.sharing.forms import ShareLinkForm

LINKS = "research/partials/share_links.html"
register = template.Library()


def finished_runs(investigation: Investigation) -> list[Run]:
    """The runs a link may share, newest first."""
    return [r for r in investigations.investigation_runs(investigation=investigation) if r.status == RunStatus.FINISHED]


def links_context(
    membership: Membership, investigation: Investigation, *, form: ShareLinkForm | None = None, new_url: str = ""
) -> dict[str, Any]:
    finished = finished_runs(investigation)
    return {
        "membership": membership,
        "workspace": membership.workspace,
        "investigation": investigation,
        "links": selectors.share_links_of(investigation=investigation),
        "link_form": form or ShareLinkForm(runs=finished),
        "has_finished": bool(finished),
        "new_url": new_url,
    }


@register.simple_tag(takes_context=True)
def share_links_card(context: Context, membership: Membership, investigation: Investigation) -> SafeString:
    return render_panel(context, LINKS, links_context(membership, investigation))
