"""Invitation views: owners invite and revoke on the workspace page (the Invitations card); the link's page,
``/invite/<token>/``, lets a logged-in person join, or a new one create an account and join. A used, revoked,
expired or unknown link answers 404 with a page that says so."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from research.invitations import selectors, services
from research.invitations.forms import InviteForm, SignupForm
from research.invitations.panels import CARD, invitations_context
from research.models import Invitation, Membership
from research.platform.http import apply_errors, user_of
from research.platform.quotas import with_retry_after
from research.workspaces.requests import WorkspaceRequest, workspace_view

PAGE = "research/invitation.html"


def _card(request: WorkspaceRequest, membership: Membership, status: int = 200, **extra: Any) -> HttpResponse:
    if not request.htmx:
        return redirect("workspace_detail", slug=membership.workspace.slug)
    return render(request, CARD, invitations_context(membership, **extra), status=status)


@login_required
@require_POST
@workspace_view
def invitation_create(request: WorkspaceRequest, slug: str) -> HttpResponse:
    membership = request.membership
    form = InviteForm(request.POST)
    refused: ValidationError | None = None
    if form.is_valid():
        try:
            made = services.invitation_create(actor=membership, **form.cleaned_data)
        except ValidationError as error:
            apply_errors(form, error)
            refused = error
        else:
            if not request.htmx:  # without JavaScript, the link is shown on a page of its own, once
                return render(request, "research/invitation_created.html", invitations_context(membership, made=made))
            return _card(request, membership, made=made)
    if not request.htmx:
        context = invitations_context(membership, form=form)
        response = render(request, "research/invitation_created.html", context, status=422)
    else:
        response = _card(request, membership, status=422, form=form)
    return with_retry_after(response, refused) if refused is not None else response


@login_required
@require_POST
@workspace_view
def invitation_revoke(request: WorkspaceRequest, slug: str, invitation_id: int) -> HttpResponse:
    membership = request.membership
    invitation = get_object_or_404(Invitation, pk=invitation_id, workspace_id=membership.workspace_id)
    services.invitation_revoke(actor=membership, invitation=invitation)
    return _card(request, membership)


def _join(request: HttpRequest, invitation: Invitation, *, new_account: bool = False) -> HttpResponse:
    membership = services.invitation_accept(invitation=invitation, user=user_of(request), new_account=new_account)
    return redirect("workspace_detail", slug=membership.workspace.slug)


@never_cache
@require_http_methods(["GET", "POST"])
def invitation_page(request: HttpRequest, token: str) -> HttpResponse:
    """Create an account and join (logged out; an address that already has an account logs in instead, so one
    address is one account), or, logged in, join by a link bound to the account (``_signed_in``)."""
    try:
        invitation = selectors.invitation_live(token=token)
    except Http404:
        return render(request, PAGE, {"gone": True}, status=404)
    here = reverse("invitation_page", kwargs={"token": token})
    context: dict[str, Any] = {"invitation": invitation, "token": token, "login_url": f"{reverse('login')}?next={here}"}
    if request.user.is_authenticated:
        return _signed_in(request, invitation, context)
    if invitation.for_user is not None:  # a confirmation for one account: log in as it
        return render(request, PAGE, {**context, "for_account": invitation.for_user.get_username()})
    context["has_account"] = services.account_exists(email=invitation.email)
    form = SignupForm(request.POST or None) if not context["has_account"] else None
    context["form"] = form
    if request.method == "POST" and form is not None and form.is_valid():
        try:
            user = services.account_create(
                invitation=invitation, username=form.cleaned_data["username"], password=form.cleaned_data["password1"]
            )
        except ValidationError as error:
            apply_errors(form, error)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return _join_or_say(request, invitation, context, new_account=True)
    failed = request.method == "POST" and form is not None and bool(form.errors)
    return render(request, PAGE, context, status=422 if failed else 200)


def _signed_in(request: HttpRequest, invitation: Invitation, context: dict[str, Any]) -> HttpResponse:
    """A logged-in account: joins by a link bound to it; by any other, asks for one mailed to the address."""
    context["member"] = Membership.objects.filter(workspace_id=invitation.workspace_id, user=user_of(request)).first()
    context["may_join"] = services.may_join(invitation=invitation, user=user_of(request))
    if request.method == "POST" and context["member"] is None:
        if context["may_join"]:
            return _join_or_say(request, invitation, context)
        return _confirm_or_say(request, invitation, context)
    return render(request, PAGE, context)


def _join_or_say(
    request: HttpRequest, invitation: Invitation, context: dict[str, Any], *, new_account: bool = False
) -> HttpResponse:
    """Join, or say why not (the invitation was used, revoked or expired a moment ago)."""
    try:
        return _join(request, invitation, new_account=new_account)
    except ValidationError as error:
        context.update(error=" ".join(error.messages), form=None)
        return render(request, PAGE, context, status=409)


def _confirm_or_say(request: HttpRequest, invitation: Invitation, context: dict[str, Any]) -> HttpResponse:
    """Mail a link bound to the signed-in account to the invited address, and say so (or why not)."""
    try:
        services.invitation_confirm_send(invitation=invitation, user=user_of(request))
    except ValidationError as error:
        context.update(error=" ".join(error.messages), form=None)
        return with_retry_after(render(request, PAGE, context, status=409), error)
    context.update(confirmation_sent=True)
    return render(request, PAGE, context)
