"""In-app notices: written for the users a digest or a paused schedule concerns, opened (and so read) one by one
or all marked read at once."""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import User
from django.utils import timezone

from research.models import Digest, Investigation, Notification


def notifications_create(
    *,
    users: Iterable[int],
    investigation: Investigation,
    title: str,
    url: str,
    text: str = "",
    digest: Digest | None = None,
) -> int:
    rows = [
        Notification(
            user_id=user_id,
            workspace_id=investigation.workspace_id,
            investigation=investigation,
            digest=digest,
            title=title[:300],
            text=text,
            url=url,
        )
        for user_id in sorted(set(users))
    ]
    Notification.objects.bulk_create(rows)
    return len(rows)


def notification_open(*, user: User, notification: Notification) -> str:
    """Mark it read; where it leads."""
    if notification.read_at is None:
        Notification.objects.filter(pk=notification.pk, user=user).update(read_at=timezone.now())
    return notification.url


def notifications_mark_read(*, user: User) -> int:
    return Notification.objects.filter(user=user, read_at__isnull=True).update(read_at=timezone.now())
