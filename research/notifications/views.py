"""The notifications page: the user's notices (digests of scheduled reports, paused schedules), newest first,
unread ones marked; opening one marks it read and goes where it points."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST

from research.notifications import selectors, services
from research.platform.http import user_of

SHOWN = 100


@login_required
@require_GET
def notification_list(request: HttpRequest) -> HttpResponse:
    user = user_of(request)
    notices = list(selectors.notifications_for(user=user)[:SHOWN])
    return render(request, "research/notifications.html", {"notices": notices})


@login_required
@require_GET
def notification_open(request: HttpRequest, notification_id: int) -> HttpResponse:
    user = user_of(request)
    notification = selectors.notification_get(user=user, notification_id=notification_id)
    url = services.notification_open(user=user, notification=notification)
    if not url_has_allowed_host_and_scheme(url, allowed_hosts=None):  # stored paths only, never another site
        url = "/notifications/"
    return redirect(url)


@login_required
@require_POST
def notifications_read(request: HttpRequest) -> HttpResponse:
    services.notifications_mark_read(user=user_of(request))
    return redirect("notification_list")
