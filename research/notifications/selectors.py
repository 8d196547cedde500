"""Reading a user's notices: only those of workspaces they still belong to and investigations they may still
read (a notice never outlives its reader's access)."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q, QuerySet
from django.http import Http404

from research.models import Investigation, Membership, Notification
from research.workspaces.access import readable


def _visible(user: User) -> Q:
    memberships = list(Membership.objects.filter(user=user))
    if not memberships:
        return Q(pk__in=[])
    readable_ids = Q()
    for membership in memberships:
        readable_ids |= readable(membership)
    investigations = Investigation.objects.filter(readable_ids).values("pk")
    return Q(user=user, workspace_id__in=[m.workspace_id for m in memberships]) & (
        Q(investigation__isnull=True) | Q(investigation__in=investigations)
    )


def notifications_for(*, user: User) -> QuerySet[Notification]:
    return Notification.objects.filter(_visible(user)).select_related("workspace", "investigation")


def unread_count(*, user: User | AnonymousUser) -> int:
    if not isinstance(user, User):
        return 0
    if not Notification.objects.filter(user=user, read_at__isnull=True).exists():
        return 0  # the cheap common case: one indexed query per page
    return notifications_for(user=user).filter(read_at__isnull=True).count()


def notification_get(*, user: User, notification_id: int) -> Notification:
    found = notifications_for(user=user).filter(pk=notification_id).first()
    if found is None:
        raise Http404("No such notification")
    return found
