"""The Schedule card, drawn on an investigation's page:
``{% load schedules %}{% schedule_card membership investigation %}`` (research/platform/panels.py)."""

from __future__ import annotations

from typing import Any

from django import template
from django.template import Context
from django.utils.safestring import SafeString

from research.models import Investigation, Membership, Schedule
from research.platform.panels import render_panel
from research.schedules import selectors
from research.schedules.forms import ScheduleForm
from research.workspaces import access

CARD = "research/partials/schedule.html"
register = template.Library()


def _initial(schedule: Schedule) -> dict[str, Any]:
    return {
        "frequency": schedule.frequency,
        "time_of_day": schedule.time_of_day,
        "weekdays": schedule.weekdays,
        "cron": schedule.cron,
        "timezone": schedule.timezone,
        "notify": schedule.notify,
    }


def schedule_context(
    membership: Membership, investigation: Investigation, *, form: ScheduleForm | None = None, **extra: Any
) -> dict[str, Any]:
    """What the Schedule card shows: the schedule in words, its next times, recent fires and digests, the form."""
    card = selectors.schedule_card(investigation=investigation, user=membership.user)
    if form is None:
        schedule = card.schedule
        form = ScheduleForm(initial=_initial(schedule)) if schedule else ScheduleForm(new=True)
    return {
        "membership": membership,
        "workspace": membership.workspace,
        "investigation": investigation,
        "card": card,
        "schedule_form": form,
        "can_schedule": access.can_rerun(membership=membership, investigation=investigation),
        **extra,
    }


@register.simple_tag(takes_context=True)
def schedule_card(context: Context, membership: Membership, investigation: Investigation) -> SafeString:
    return render_panel(context, CARD, schedule_context(membership, investigation))
