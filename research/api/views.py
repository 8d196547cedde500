"""The account's API tokens page (``/accounts/tokens/``): make a token (shown once), see one's tokens (name,
workspace, scopes, first characters, last use), revoke one."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views import defaults
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from research.api.errors import problem
from research.api.forms import TokenForm
from research.api.tokens import token_create, token_of, token_revoke, tokens_of
from research.platform.http import apply_errors, user_of

PAGE = "research/api_tokens.html"


def _context(request: HttpRequest, form: TokenForm, **extra: Any) -> dict[str, Any]:
    return {"form": form, "tokens": tokens_of(user_of(request)), **extra}


@never_cache  # the page that shows a new token must not be kept by the browser
@login_required
@require_http_methods(["GET", "POST"])
def api_tokens(request: HttpRequest) -> HttpResponse:
    user = user_of(request)
    form = TokenForm(request.POST or None, user=user)
    if request.method == "POST" and form.is_valid():
        try:
            made = token_create(
                user=user,
                workspace_slug=form.cleaned_data["workspace"],
                name=form.cleaned_data["name"],
                scopes=form.cleaned_data["scopes"],
                days=form.days_value(),
            )
        except ValidationError as error:
            apply_errors(form, error)
        else:
            return render(request, PAGE, _context(request, TokenForm(user=user), made=made))
    return render(request, PAGE, _context(request, form), status=422 if form.errors else 200)


@login_required
@require_POST
def api_token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    token = token_of(user=user_of(request), token_id=token_id)
    token_revoke(token=token)
    messages.info(request, f"Revoked “{token.name}” ({token.hint}): it stopped working at once.")
    return redirect("api_tokens")


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's answer to a request it refuses before any view runs (an empty or unknown Host header, a body it
    cannot parse): ``application/problem+json`` under ``/api/``, as every other API error; the plain page elsewhere."""
    if request.path.startswith("/api/"):
        return problem("malformed", "The request cannot be read: its Host header or its body is malformed.")
    return defaults.bad_request(request, exception)
