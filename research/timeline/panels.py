"""The Timeline card, drawn on an investigation's page about a company:
``{% load timeline %}{% timeline_card membership investigation %}`` (research/platform/panels.py)."""

from __future__ import annotations

from typing import Any

from django import template
from django.template import Context
from django.urls import reverse
from django.utils.safestring import SafeString

from research.models import Investigation, Membership
from research.platform.panels import render_panel
from research.protocol.report import Citation
from research.reporting.presenting import quote_href
from research.timeline.selectors import investigation_timeline
from research.writing.timeline import Event, PricePoint

CARD = "research/partials/timeline.html"
EVENTS_SHOWN = 25  # the rest are in the downloads
register = template.Library()


def _cited(citations: tuple[Citation, ...], run_page: str) -> list[dict[str, str]]:
    return [
        {"quote": c.quote, "source": c.source or c.doc_id, "href": run_page + quote_href(c.doc_id, c.chunk_id, c.quote)}
        for c in citations
    ]


def timeline_context(membership: Membership, investigation: Investigation) -> dict[str, Any]:
    slug = membership.workspace.slug
    found = investigation_timeline(investigation=investigation)

    def page(run_id: int) -> str:
        return reverse("run_page", kwargs={"slug": slug, "run_id": run_id})

    def shown(item: Event | PricePoint) -> dict[str, Any]:
        return {"item": item, "page": page(item.first_run), "cited": _cited(item.citations, page(item.first_run))}

    events = [shown(event) for event in found.events]
    plans = [{"plan": history, "points": [shown(point) for point in history.points]} for history in found.plans]
    return {
        "workspace": membership.workspace,
        "investigation": investigation,
        "timeline": found,
        "events": events[:EVENTS_SHOWN],
        "more_events": max(0, len(events) - EVENTS_SHOWN),
        "plans": plans,
    }


@register.simple_tag(takes_context=True)
def timeline_card(context: Context, membership: Membership, investigation: Investigation) -> SafeString:
    """Drawn only for an investigation about a company (a competitor report, a prospect brief, an ICP check)."""
    if not investigation.config.get("company"):
        return SafeString("")
    return render_panel(context, CARD, timeline_context(membership, investigation))
