"""Who may do what with an investigation, and so with its runs: one set of rules for pages, partials, JSON,
exports, document views and sockets alike.

- Workspace owners read and edit every investigation of their workspace; its author always may.
- ``private``: nobody else. ``workspace``: every member, with the investigation's ``workspace_role``.
  ``members``: the members it is shared with, each with their own role.
- A viewer reads; an editor also re-runs, edits notes and tags and manages schedules. Starting a run also needs
  a workspace role that may start runs (a workspace viewer made editor of an investigation edits its notes but
  spends no compute).
- Sharing (visibility, members), archiving and deleting: the author and workspace owners.
- A run that belongs to no investigation is read by every member of its workspace, as before investigations.
"""

from __future__ import annotations

from django.db.models import Q
from django.http import Http404

from research.models import Investigation, InvestigationMember, Membership, Role, Run, ShareRole, Visibility


def investigation_role(*, membership: Membership, investigation: Investigation) -> str | None:
    """``editor``, ``viewer`` or None (may not read it)."""
    if investigation.workspace_id != membership.workspace_id:
        return None
    if membership.role == Role.OWNER or investigation.created_by_id == membership.user_id:
        return ShareRole.EDITOR
    if investigation.visibility == Visibility.WORKSPACE:
        return str(investigation.workspace_role)
    if investigation.visibility == Visibility.MEMBERS:
        share = InvestigationMember.objects.filter(investigation=investigation, user_id=membership.user_id).first()
        return str(share.role) if share else None
    return None


def can_read(*, membership: Membership, investigation: Investigation) -> bool:
    return investigation_role(membership=membership, investigation=investigation) is not None


def can_edit(*, membership: Membership, investigation: Investigation) -> bool:
    return investigation_role(membership=membership, investigation=investigation) == ShareRole.EDITOR


def can_rerun(*, membership: Membership, investigation: Investigation) -> bool:
    return membership.can_edit and can_edit(membership=membership, investigation=investigation)


def can_manage(*, membership: Membership, investigation: Investigation) -> bool:
    """Share, archive, delete."""
    return investigation.workspace_id == membership.workspace_id and (
        membership.role == Role.OWNER or investigation.created_by_id == membership.user_id
    )


def readable(membership: Membership) -> Q:
    """The investigations of the member's workspace they may read, as a filter on ``Investigation``."""
    mine = Q(workspace_id=membership.workspace_id)
    if membership.role == Role.OWNER:
        return mine
    return mine & (
        Q(created_by_id=membership.user_id)
        | Q(visibility=Visibility.WORKSPACE)
        | Q(visibility=Visibility.MEMBERS, shares__user_id=membership.user_id)
    )


def readable_runs(membership: Membership) -> Q:
    """The runs of the member's workspace they may read, as a filter on ``Run``."""
    visible = Investigation.objects.filter(readable(membership)).values("pk")
    return Q(workspace_id=membership.workspace_id) & (Q(investigation__isnull=True) | Q(investigation__in=visible))


def readable_run(*, membership: Membership, run_id: int) -> Run:
    """A run of the member's workspace that they may read, with its investigation and corpora; 404 otherwise
    (never a hint that it exists). Every page, partial, export and API call reads a run through this."""
    run = (
        Run.objects.filter(readable_runs(membership), pk=run_id)
        .select_related("investigation")
        .prefetch_related("corpora")
        .first()
    )
    if run is None:
        raise Http404("No such run")
    return run
