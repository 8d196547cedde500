"""The corpus page's "Add a web page" form: an address, or a sitemap and how many of its pages."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.core.validators import MaxValueValidator


class UrlAddForm(forms.Form):
    url = forms.URLField(max_length=2000, label="Web page address", assume_scheme="https")
    sitemap = forms.BooleanField(required=False, label="It is a sitemap: add its pages")
    limit = forms.IntegerField(min_value=1, required=False, label="At most this many of its pages")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        most = settings.WEB_SITEMAP_PAGES
        limit = self.fields["limit"]
        limit.initial = min(20, most)
        limit.validators.append(MaxValueValidator(most, f"A sitemap adds at most {most} pages (WEB_SITEMAP_PAGES)."))
        limit.widget.attrs["max"] = most
