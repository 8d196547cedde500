"""The Web pages card, drawn on a corpus's page: ``{% load web_sources %}{% web_pages_card membership corpus %}``
(research/platform/panels.py)."""

from __future__ import annotations

from typing import Any

from django import template
from django.template import Context
from django.utils.safestring import SafeString

from research.models import Corpus, Membership
from research.platform.panels import render_panel
from research.web_sources import selectors
from research.web_sources.forms import UrlAddForm

CARD = "research/partials/web_pages.html"
register = template.Library()


def web_pages_context(membership: Membership, corpus: Corpus, *, form: UrlAddForm | None = None) -> dict[str, Any]:
    return {
        "membership": membership,
        "workspace": membership.workspace,
        "corpus": corpus,
        "web_pages": list(selectors.web_pages_of(corpus=corpus)[: selectors.SHOWN]),
        "web_busy": selectors.web_pages_busy(corpus=corpus),
        "url_form": form or UrlAddForm(),
    }


@register.simple_tag(takes_context=True)
def web_pages_card(context: Context, membership: Membership, corpus: Corpus) -> SafeString:
    return render_panel(context, CARD, web_pages_context(membership, corpus))
