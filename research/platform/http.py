"""Helpers shared by the views."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec

from django import forms
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django_htmx.middleware import HtmxDetails


def user_of(request: HttpRequest) -> User:
    """The logged-in user (views that call this are behind ``login_required``)."""
    assert isinstance(request.user, User)
    return request.user


class HtmxRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it: ``request.htmx`` is true for a request htmx sent."""

    htmx: HtmxDetails


def apply_errors(form: forms.BaseForm, error: ValidationError) -> None:
    """Show a service's validation errors on the form, on their field when it has one."""
    for field, messages in error.message_dict.items():
        for message in messages:
            form.add_error(field if field in form.fields else None, message)


P = ParamSpec("P")


def json_view(view: Callable[P, HttpResponse]) -> Callable[P, HttpResponse]:
    """For views that answer JSON: a logged-out client gets ``{"error": ...}`` with 401 (not a redirect to the
    HTML login page), and a missing object or a refused action gets a JSON 404 or 403 (not Django's HTML pages).
    Use it in place of ``login_required``."""

    @functools.wraps(view)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        request = args[0]
        assert isinstance(request, HttpRequest)
        if not request.user.is_authenticated:
            return _error(401, "Log in first: this endpoint needs an authenticated session.")
        try:
            return view(*args, **kwargs)
        except Http404:
            return _error(404, "Not found.")
        except PermissionDenied as denied:
            return _error(403, str(denied) or "You may not do that here.")

    return wrapper


def _error(status: int, message: str) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)
