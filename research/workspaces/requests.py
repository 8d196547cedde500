"""The request a workspace's views receive: its member resolved once, typed.

``workspace_view`` sits directly above a view that takes the workspace's ``slug`` (under ``login_required``
or ``json_view``, and any method check): it resolves the user's membership of that workspace (404 for anyone
else, the same answer as for a workspace that does not exist) and hands the view a ``WorkspaceRequest``, so
no view looks the member up itself.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Concatenate, ParamSpec, TypeVar, cast

from django.http import HttpRequest, HttpResponse

from research.models import Membership
from research.platform.http import HtmxRequest
from research.workspaces.selectors import membership_get

P = ParamSpec("P")
R = TypeVar("R", bound=HttpResponse)


class WorkspaceRequest(HtmxRequest):
    """A logged-in member's request to their workspace: ``membership`` (with its ``workspace``) and ``htmx``."""

    membership: Membership


def workspace_view(view: Callable[Concatenate[WorkspaceRequest, P], R]) -> Callable[Concatenate[HttpRequest, P], R]:
    @functools.wraps(view)
    def wrapper(request: HttpRequest, /, *args: P.args, **kwargs: P.kwargs) -> R:
        slug = kwargs["slug"] if "slug" in kwargs else args[0]  # the URL's keyword, or a direct call's first
        member = cast(WorkspaceRequest, request)
        member.membership = membership_get(user=request.user, slug=str(slug))
        return view(member, *args, **kwargs)

    wrapper.resolves_member = True  # type: ignore[attr-defined]  # decorators above copy it (functools.wraps)
    return wrapper
