"""The batches part of the workspace page's ICP card: the form that checks a list of companies (once the
workspace has a profile) and the recent batches. ``{% load batches %}{% batches_card membership batch_form
checkable=icp %}`` (research/platform/panels.py); ``batch_form`` is the bound form when a batch was refused."""

from __future__ import annotations

from django import template
from django.template import Context
from django.utils.safestring import SafeString

from research.batches.forms import BatchForm
from research.batches.selectors import batch_list
from research.models import Membership
from research.platform.panels import render_panel
from research.platform.submissions import submission_token

CARD = "research/partials/batches.html"
register = template.Library()


@register.simple_tag(takes_context=True)
def batches_card(context: Context, membership: Membership, form: BatchForm | str, *, checkable: object) -> SafeString:
    """``form`` is "" where the page has none (an unknown template variable), so a fresh one is shown."""
    workspace = membership.workspace
    values = {
        "membership": membership,
        "workspace": workspace,
        "batch_form": form or BatchForm(workspace=workspace),
        "batches": batch_list(workspace=workspace),
        "checkable": bool(checkable),
        "submission": submission_token(),  # one per drawing: a double-click starts one batch
    }
    return render_panel(context, CARD, values)
