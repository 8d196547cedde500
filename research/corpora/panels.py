"""The Corpora card, drawn on the workspace page: ``{% load corpora %}{% corpora_card membership %}``, and the Live
activity list of the workspace's pages: ``{% live_activity membership "placeholder" %}``
(research/platform/panels.py)."""

from __future__ import annotations

from typing import Any

from django import template
from django.template import Context
from django.utils.safestring import SafeString

from research.corpora import progress, selectors
from research.corpora.forms import CorpusForm
from research.models import Membership
from research.platform.panels import render_panel

CARD = "research/partials/corpora.html"
LIVE = "research/partials/live_activity.html"
register = template.Library()


def corpora_context(membership: Membership, *, form: CorpusForm | None = None) -> dict[str, Any]:
    """The workspace's corpora with their document counts, and the form that creates one."""
    return {
        "membership": membership,
        "workspace": membership.workspace,
        "corpora": selectors.corpus_list(workspace=membership.workspace),
        "corpus_form": form or CorpusForm(),
    }


@register.simple_tag(takes_context=True)
def corpora_card(context: Context, membership: Membership) -> SafeString:
    return render_panel(context, CARD, corpora_context(membership))


@register.simple_tag(takes_context=True)
def live_activity(context: Context, membership: Membership, placeholder: str) -> SafeString:
    """The Live activity list: the files still being ingested when the page opens (``placeholder`` when none),
    then what the workspace socket pushes."""
    ongoing = progress.ongoing(membership.workspace)
    return render_panel(context, LIVE, {"ongoing": ongoing, "placeholder": placeholder})
