"""The schedule form of an investigation's page."""

from __future__ import annotations

from typing import Any

from django import forms

from research.models import Frequency, NotifyMode
from research.schedules.timing import DAY_NAMES


class ScheduleForm(forms.Form):
    frequency = forms.ChoiceField(choices=Frequency.choices, initial=Frequency.WEEKLY, widget=forms.RadioSelect)
    time_of_day = forms.TimeField(
        required=False, label="At", widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"), initial="08:00"
    )
    weekdays = forms.TypedMultipleChoiceField(
        choices=list(enumerate(DAY_NAMES)),
        coerce=int,
        required=False,
        label="On",
        widget=forms.CheckboxSelectMultiple,
        initial=[0],
    )
    cron = forms.CharField(
        required=False,
        max_length=120,
        label="Cron expression",
        help_text="Five fields: minute hour day-of-month month day-of-week, e.g. “0 7 * * 1-5”.",
        widget=forms.TextInput(attrs={"placeholder": "0 7 * * 1-5", "autocomplete": "off", "spellcheck": "false"}),
    )
    timezone = forms.CharField(
        max_length=64,
        initial="UTC",
        label="Time zone",
        help_text="An IANA name such as Europe/Berlin or America/New_York.",
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )
    notify = forms.ChoiceField(choices=NotifyMode.choices, initial=NotifyMode.CHANGED, label="Notify")

    def __init__(self, *args: Any, new: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if new:  # a new schedule starts in the browser's time zone (static/js/app.js fills it in)
            self.fields["timezone"].widget.attrs["data-browser-timezone"] = ""

    def service_arguments(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "frequency": data["frequency"],
            "time_of_day": data["time_of_day"],
            "weekdays": data["weekdays"],
            "cron": data["cron"],
            "timezone_name": data["timezone"],
            "notify": data["notify"],
        }
