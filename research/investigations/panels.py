"""The run page's "Save as an investigation" card: ``{% load investigations %}{% save_run_card membership run %}``
(research/platform/panels.py). The save view renders the same partial with its bound form when saving failed."""

from __future__ import annotations

from django import template
from django.template import Context
from django.utils.safestring import SafeString

from research.investigations.forms import SaveRunForm
from research.investigations.selectors import investigations_to_add_to
from research.investigations.services import default_title
from research.models import Membership, Run
from research.platform.panels import render_panel

CARD = "research/partials/run_save.html"
register = template.Library()


@register.simple_tag(takes_context=True)
def save_run_card(context: Context, membership: Membership, run: Run) -> SafeString:
    choices = investigations_to_add_to(membership=membership, run=run) if run.investigation_id is None else []
    form = SaveRunForm(initial={"title": default_title(run)}, choices=choices)
    values = {"membership": membership, "workspace": membership.workspace, "run": run, "save_form": form}
    return render_panel(context, CARD, values)
