"""``workspace_view``: a workspace's views get their member resolved once, and nobody else gets past it."""

from __future__ import annotations

import pytest
from django.http import Http404, HttpResponse
from django.test import RequestFactory

from research.workspaces.requests import WorkspaceRequest, workspace_view


@workspace_view
def _view(request: WorkspaceRequest, slug: str, item: int) -> HttpResponse:
    return HttpResponse(f"{request.membership.workspace.slug} {request.membership.role} {item}")


def test_a_member_gets_their_membership_and_the_view_its_arguments(make_user, make_workspace) -> None:  # type: ignore[no-untyped-def]
    ada, vic = make_user(), make_user()
    workspace = make_workspace(ada, members={vic: "viewer"})
    request = RequestFactory().get("/")
    request.user = vic
    assert _view(request, slug=workspace.slug, item=7).content.decode() == f"{workspace.slug} viewer 7"
    assert _view(request, workspace.slug, 8).content.decode() == f"{workspace.slug} viewer 8"  # called directly


def test_a_non_member_and_an_unknown_workspace_get_the_same_404(make_user, make_workspace) -> None:  # type: ignore[no-untyped-def]
    ada, eve = make_user(), make_user()
    workspace = make_workspace(ada)
    request = RequestFactory().get("/")
    request.user = eve
    with pytest.raises(Http404, match="No such workspace"):
        _view(request, slug=workspace.slug, item=1)
    with pytest.raises(Http404, match="No such workspace"):
        _view(request, slug="no-such-workspace", item=1)


def test_every_view_that_takes_a_workspace_slug_resolves_its_member_through_workspace_view() -> None:
    """No workspace route's view goes without it (the mark it sets is copied up by the decorators above it)."""
    from django.urls import get_resolver
    from django.urls.resolvers import URLPattern, URLResolver

    def routes(patterns, prefix=""):  # type: ignore[no-untyped-def]
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from routes(pattern.url_patterns, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern):
                yield prefix + str(pattern.pattern), pattern.callback

    workspace_routes = [(route, view) for route, view in routes(get_resolver().url_patterns) if "<slug:slug>" in route]
    assert len(workspace_routes) > 40
    assert [route for route, view in workspace_routes if not getattr(view, "resolves_member", False)] == []
