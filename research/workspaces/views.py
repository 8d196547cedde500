"""Workspace views: thin, typed, rendering whole pages or (for HTMX requests) the partial they update."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from research.models import Membership
from research.platform.composition import web_offered
from research.platform.http import HtmxRequest, apply_errors, user_of
from research.workspaces import selectors, services
from research.workspaces.forms import IcpForm, WorkspaceForm
from research.workspaces.icp import icp_context
from research.workspaces.requests import WorkspaceRequest, workspace_view


@login_required
@require_http_methods(["GET", "POST"])
def home(request: HtmxRequest) -> HttpResponse:
    form = WorkspaceForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            workspace = services.workspace_create(
                name=form.cleaned_data["name"], description=form.cleaned_data["description"], owner=user_of(request)
            )
        except ValidationError as error:
            apply_errors(form, error)
        else:
            if not request.htmx:
                return redirect("workspace_detail", slug=workspace.slug)
            form = WorkspaceForm()
    context = {"workspaces": selectors.workspace_list_for_user(user=request.user), "form": form}
    template = "research/home.html#workspaces" if request.htmx else "research/home.html"
    status = 422 if request.method == "POST" and form.errors else 200
    return render(request, template, context, status=status)


@login_required
@require_GET
@workspace_view
def workspace_detail(request: WorkspaceRequest, slug: str) -> HttpResponse:
    membership = request.membership
    return render(request, "research/workspace_detail.html", _workspace_context(membership))


def _workspace_context(membership: Membership, member_error: str = "") -> dict[str, object]:
    return {
        **icp_context(membership),
        "membership": membership,
        "workspace": membership.workspace,
        "members": selectors.membership_list(workspace=membership.workspace),
        "member_error": member_error,
        "web_offered": web_offered(),
    }


@login_required
@require_POST
@workspace_view
def member_remove(request: WorkspaceRequest, slug: str, member_id: int) -> HttpResponse:
    """An owner removes a member (themselves too, while another owner remains); 422 with the reason otherwise."""
    membership = request.membership
    member = selectors.membership_get_in_workspace(workspace=membership.workspace, membership_id=member_id)
    try:
        services.membership_remove(actor=membership, member=member)
    except ValidationError as error:
        template = "research/workspace_detail.html#members" if request.htmx else "research/workspace_detail.html"
        context = _workspace_context(membership, member_error=" ".join(error.messages))
        return render(request, template, context, status=422)
    if member.pk == membership.pk:  # they left: the workspace is no longer theirs to see
        return HttpResponseClientRedirect(reverse("home")) if request.htmx else redirect("home")
    if not request.htmx:
        return redirect("workspace_detail", slug=slug)
    return render(request, "research/workspace_detail.html#members", _workspace_context(membership))


@login_required
@require_POST
@workspace_view
def icp_update(request: WorkspaceRequest, slug: str) -> HttpResponse:
    """Owners and editors set the workspace's ideal customer profile; 422 with the reason for a bad line."""
    membership = request.membership
    form: IcpForm | None = IcpForm(request.POST)
    status = 200
    if form is not None and form.is_valid():
        try:
            services.workspace_icp_set(actor=membership, text=form.cleaned_data["criteria"])
        except ValidationError as error:
            apply_errors(form, error)
        else:
            membership.workspace.refresh_from_db()
            if not request.htmx:
                return redirect("workspace_detail", slug=slug)
            form = None
    if form is not None and form.errors:
        status = 422
    context = {"membership": membership, "workspace": membership.workspace, **icp_context(membership, form)}
    template = "research/workspace_detail.html#icp" if request.htmx else "research/workspace_detail.html"
    if not request.htmx:
        context = {**_workspace_context(membership), **icp_context(membership, form)}
    return render(request, template, context, status=status)


@login_required
@require_POST
@workspace_view
def workspace_web_default(request: WorkspaceRequest, slug: str) -> HttpResponse:
    """Owners and editors choose whether the run form starts with "search the web too" ticked."""
    membership = request.membership
    services.workspace_web_default_set(actor=membership, on=request.POST.get("on") == "1")
    if not request.htmx:
        return redirect("workspace_detail", slug=slug)
    context = {"membership": membership, "workspace": membership.workspace, "web_offered": True}
    return render(request, "research/workspace_detail.html#web_default", context)
