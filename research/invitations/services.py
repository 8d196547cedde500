"""Invitations into a workspace: an owner invites an e-mail address with a role; the link in the e-mail (256
random bits, only its SHA-256 stored) creates an account, once, before it expires. An existing account joins by a
second link, bound to it and mailed to the invited address when it asks (so a link that reached someone else's hands
never lets their account in).
Inviting the same address again replaces the pending invitation (its old link stops working); an owner revokes
a pending one."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from research.models import Invitation, Membership, Role, Workspace
from research.platform.mail import Mail, Sent, absolute, mail_send
from research.platform.quotas import OverLimit, wait_words
from research.platform.tokens import token_digest, token_new


def pending() -> Q:
    """Invitations that can still be accepted, as a filter."""
    return Q(accepted_at__isnull=True, revoked_at__isnull=True, expires_at__gt=timezone.now())


@dataclass(frozen=True)
class NewInvitation:
    invitation: Invitation
    url: str  # the link, shown to the owner once (only its digest is stored)
    sent: Sent


def _email_clean(email: str) -> str:
    email = email.strip().lower()
    try:
        validate_email(email)
    except ValidationError:
        raise ValidationError({"email": f"“{email[:80]}” is not an e-mail address."}) from None
    return email


def invitation_create(*, actor: Membership, email: str, role: str) -> NewInvitation:
    """Invite ``email`` into the actor's workspace as ``role`` (owners only) and send the link by e-mail."""
    if not actor.can_manage:
        raise PermissionDenied("Only a workspace owner can invite people.")
    if role not in Role.values:
        raise ValidationError({"role": f"Unknown role {role!r}."})
    email = _email_clean(email)
    member = Membership.objects.filter(workspace_id=actor.workspace_id, user__email__iexact=email).first()
    if member is not None:
        raise ValidationError({"email": f"{email} is already a member ({member.user.get_username()})."})
    return _issued(workspace_id=actor.workspace_id, email=email, role=role, invited_by=actor.user)


def _issued(
    *, workspace_id: int, email: str, role: str, invited_by: User | None, for_user: User | None = None
) -> NewInvitation:
    """A new pending invitation (replacing the address's pending one), its link mailed to the address."""
    token = token_new()
    now = timezone.now()
    with transaction.atomic():
        _within_rate(workspace_id, invited_by, now)
        Invitation.objects.filter(pending(), workspace_id=workspace_id, email=email).update(revoked_at=now)
        invitation = Invitation.objects.create(
            workspace_id=workspace_id,
            email=email,
            role=role,
            token_sha256=token_digest(token),
            invited_by=invited_by,
            for_user=for_user,
            expires_at=now + timedelta(days=settings.INVITATION_DAYS),
        )
    url = absolute(reverse("invitation_page", kwargs={"token": token}))
    sent = mail_send([_mail(invitation, url)])
    if sent.error:
        Invitation.objects.filter(pk=invitation.pk).update(mail_error=sent.error)
        invitation.mail_error = sent.error
    return NewInvitation(invitation, url, sent)


RATE_WINDOW = timedelta(hours=1)


def _within_rate(workspace_id: int, invited_by: User | None, now: datetime) -> None:
    """Refuse (``OverLimit``) a link past INVITATIONS_PER_HOUR mailed for the workspace, or sent by the inviting
    member over all their workspaces, in the last hour; says when the oldest of them leaves the hour."""
    Workspace.objects.select_for_update().filter(pk=workspace_id).exists()
    recent = Invitation.objects.filter(created_at__gt=now - RATE_WINDOW)
    limit = settings.INVITATIONS_PER_HOUR
    for sent, whose in (
        (recent.filter(workspace_id=workspace_id), "this workspace"),
        (recent.filter(invited_by=invited_by) if invited_by else recent.none(), "you"),
    ):
        oldest = sent.order_by("created_at").values_list("created_at", flat=True)[:limit]
        if len(oldest) >= limit:
            wait = (oldest[0] + RATE_WINDOW - now).total_seconds()
            raise OverLimit(
                f"{limit} invitations were sent by {whose} in the last hour, the most allowed"
                f" (INVITATIONS_PER_HOUR). Try again in {wait_words(wait)}.",
                retry_after=round(wait),
                field="email",
            )


def invitation_confirm_send(*, invitation: Invitation, user: User) -> NewInvitation:
    """An existing account asks to join by ``invitation``: a new link, bound to that account, is mailed to the
    invited address (the old link stops working). Only someone who reads the address can open it, so a forwarded
    or leaked link never lets another account in."""
    if Invitation.objects.filter(pending(), pk=invitation.pk).count() != 1:
        raise ValidationError("This invitation has just been used, revoked or has expired.")
    return _issued(
        workspace_id=invitation.workspace_id,
        email=invitation.email,
        role=invitation.role,
        invited_by=invitation.invited_by,
        for_user=user,
    )


def _mail(invitation: Invitation, url: str) -> Mail:
    inviter = invitation.invited_by.get_username() if invitation.invited_by else "An owner"
    context = {"invitation": invitation, "url": url, "inviter": inviter, "workspace": invitation.workspace}
    if invitation.for_user is not None:
        account = invitation.for_user.get_username()
        subject = f"Confirm that {account} joins {invitation.workspace.name} on Context-1 Web"
    else:
        subject = f"{inviter} invites you to {invitation.workspace.name} on Context-1 Web"
    return Mail(to=invitation.email, subject=subject, template="email/invitation", context=context)


def invitation_revoke(*, actor: Membership, invitation: Invitation) -> None:
    if not actor.can_manage or invitation.workspace_id != actor.workspace_id:
        raise PermissionDenied("Only a workspace owner can revoke invitations.")
    Invitation.objects.filter(pending(), pk=invitation.pk).update(revoked_at=timezone.now())


def may_join(*, invitation: Invitation, user: User, new_account: bool = False) -> bool:
    """Whether ``user`` may join by this link: an account just created from it (for the invited address), or the
    account a confirmation link was sent for (``invitation_confirm_send``). Any other account holding the link (it
    may have been forwarded or leaked) asks for a confirmation sent to the address first."""
    return new_account if invitation.for_user_id is None else invitation.for_user_id == user.pk


def invitation_accept(*, invitation: Invitation, user: User, new_account: bool = False) -> Membership:
    """``user`` joins the invitation's workspace with its role; the invitation is spent. A user who already is a
    member keeps their role. Refused (ValidationError) when it was accepted, revoked or expired meanwhile, or when
    the link is not ``user``'s to use (``may_join``)."""
    if not may_join(invitation=invitation, user=user, new_account=new_account):
        raise ValidationError("This link joins another account. Ask for a confirmation link for yours.")
    with transaction.atomic():
        spent = Invitation.objects.filter(pending(), pk=invitation.pk).update(
            accepted_at=timezone.now(), accepted_by=user
        )
        if spent != 1:
            raise ValidationError("This invitation has just been used, revoked or has expired.")
        membership, _ = Membership.objects.get_or_create(
            workspace_id=invitation.workspace_id, user=user, defaults={"role": invitation.role}
        )
    return membership


def account_exists(*, email: str) -> bool:
    return get_user_model().objects.filter(email__iexact=email).exists()


def account_create(*, invitation: Invitation, username: str, password: str) -> User:
    """A new account for the invited address (the form has validated the password); refused when an account
    already has that address (its owner logs in and joins with it)."""
    users = get_user_model()
    if account_exists(email=invitation.email):
        raise ValidationError({"username": f"An account with {invitation.email} exists: log in to join with it."})
    try:
        with transaction.atomic():
            return users.objects.create_user(username=username, email=invitation.email, password=password)
    except IntegrityError:
        raise ValidationError({"username": f"The username {username!r} is taken."}) from None
