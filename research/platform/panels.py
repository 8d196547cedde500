"""Panels: a feature draws its card on another feature's page through a template tag, so that the page's view
imports nothing of that feature and the features stack in one declared order (the layers contract in
pyproject.toml).

Each feature's ``panels.py`` is a template library, registered under the feature's name in the settings'
``TEMPLATES`` ``libraries``; a page loads it (``{% load schedules %}``) and calls its tag with what the page
has (``{% schedule_card membership investigation %}``). The tag renders the feature's partial with the
feature's own context and the page's request (so ``{% csrf_token %}`` and the context processors work).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.template import Context
from django.template.loader import render_to_string
from django.utils.safestring import SafeString


def render_panel(context: Context, template_name: str, values: Mapping[str, Any]) -> SafeString:
    return render_to_string(template_name, dict(values), request=getattr(context, "request", None))
