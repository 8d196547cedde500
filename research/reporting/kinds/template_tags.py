"""The run's kind in templates: ``{% load run_kinds %}{% with kind=run.template|run_kind %}``, so a page asks the
kind (``kind.about_company``, ``kind.rollouts_chosen``, ``kind.rollout_unit``) instead of comparing templates."""

from __future__ import annotations

from django import template

from research.reporting.kinds import KINDS
from research.reporting.kinds.base import RunKind

register = template.Library()


@register.filter
def run_kind(template_name: str) -> RunKind | None:
    """The kind named ``template_name`` (None for a name that is not one: the page then says nothing of it)."""
    return KINDS.get(template_name)
