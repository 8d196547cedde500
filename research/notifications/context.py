"""Template context: the logged-in user's unread notices, counted for the top bar of every page."""

from __future__ import annotations

from django.http import HttpRequest

from research.notifications.selectors import unread_count


def unread(request: HttpRequest) -> dict[str, int]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"unread_notifications": unread_count(user=user)}
