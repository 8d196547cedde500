"""Write-side operations on investigations: save a run as one, add runs, edit, re-run, share, archive, delete."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from research.models import (
    TERMINAL_RUN_STATUSES,
    Corpus,
    Investigation,
    InvestigationMember,
    Membership,
    Run,
    Schedule,
    ShareRole,
    Visibility,
)
from research.platform.access import access_revoke
from research.platform.composition import web_offered, writer_choices
from research.protocol.run_options import RunOptions
from research.reporting.kinds import kind_of
from research.runs import services as runs
from research.workspaces import access

TITLE_MAX, NOTES_MAX, TAGS_MAX, TAG_MAX = 200, 20_000, 12, 40
_TAG_SPACE = re.compile(r"\s+")


def config_of(run: Run) -> dict[str, Any]:
    """What a re-run of ``run`` starts: its template's inputs, its corpora and its limits."""
    options = RunOptions.of(run.options)
    config: dict[str, Any] = {
        "template": run.template,
        "company": run.subject,
        "aspects": list(options.aspects),
        "corpora": sorted(run.corpora.values_list("pk", flat=True)),
        "rollouts": run.rollouts,
        "budget": run.budget,
        "max_turns": run.max_turns,
        "writer": options.writer,
        "web": options.web,
    }
    return config | kind_of(run.template).rerun_config(run)  # a free question's question, an ICP check's profile


def default_title(run: Run) -> str:
    return run.question.strip()[:TITLE_MAX] or f"Run {run.pk}"


def title_clean(title: str) -> str:
    title = " ".join(title.split())
    if not title:
        raise ValidationError({"title": "Give the investigation a title."})
    if len(title) > TITLE_MAX:
        raise ValidationError({"title": f"Keep the title within {TITLE_MAX} characters (this one has {len(title)})."})
    return title


def tags_parse(text: str) -> list[str]:
    """Comma-separated labels, lower-cased with their spacing collapsed, each once, sorted."""
    tags = sorted({_TAG_SPACE.sub(" ", tag.strip().casefold()) for tag in text.split(",") if tag.strip()})
    if len(tags) > TAGS_MAX:
        raise ValidationError({"tags": f"Use at most {TAGS_MAX} tags (these are {len(tags)})."})
    long = [tag for tag in tags if len(tag) > TAG_MAX]
    if long:
        raise ValidationError({"tags": f"Keep each tag within {TAG_MAX} characters (“{long[0][:60]}” is longer)."})
    return tags


def _require(allowed: bool, message: str) -> None:
    if not allowed:
        raise PermissionDenied(message)


def _touch(investigation: Investigation) -> None:
    investigation.last_activity_at = timezone.now()
    Investigation.objects.filter(pk=investigation.pk).update(last_activity_at=investigation.last_activity_at)


def investigation_create(*, actor: Membership, run: Run, title: str = "") -> Investigation:
    """Save ``run`` as a new investigation (visible to the workspace, as the run was); the run moves into it."""
    _require(actor.can_edit, "Only owners and editors can save investigations.")
    if run.workspace_id != actor.workspace_id:
        raise PermissionDenied("That run is not in your workspace.")
    if run.investigation_id is not None:
        raise ValidationError({"run": "This run already belongs to an investigation."})
    with transaction.atomic():
        investigation = Investigation.objects.create(
            workspace_id=actor.workspace_id,
            created_by=actor.user,
            title=title_clean(title or default_title(run)),
            template=run.template,
            config=config_of(run),
        )
        Run.objects.filter(pk=run.pk).update(investigation=investigation)
        run.investigation = investigation
    return investigation


def investigation_add_run(*, actor: Membership, investigation: Investigation, run: Run) -> None:
    """Add a run of the same template to the investigation (a run belongs to one investigation at most)."""
    _require(access.can_edit(membership=actor, investigation=investigation), "You may not edit this investigation.")
    if run.workspace_id != actor.workspace_id:
        raise PermissionDenied("That run is not in your workspace.")
    if run.investigation_id == investigation.pk:
        return
    if run.investigation_id is not None:
        raise ValidationError({"run": "This run already belongs to another investigation."})
    if run.template != investigation.template:
        raise ValidationError(
            {"run": f"This investigation holds {investigation.get_template_display().lower()} runs only."}
        )
    Run.objects.filter(pk=run.pk).update(investigation=investigation)
    run.investigation = investigation
    _touch(investigation)


def investigation_update(
    *, actor: Membership, investigation: Investigation, title: str, notes: str, tags: str
) -> Investigation:
    _require(access.can_edit(membership=actor, investigation=investigation), "You may not edit this investigation.")
    if len(notes) > NOTES_MAX:
        raise ValidationError({"notes": f"Keep the notes within {NOTES_MAX:,} characters (these have {len(notes):,})."})
    investigation.title, investigation.notes, investigation.tags = title_clean(title), notes, tags_parse(tags)
    investigation.last_activity_at = timezone.now()
    investigation.save(update_fields=["title", "notes", "tags", "last_activity_at"])
    return investigation


def investigation_rerun(
    *, actor: Membership, investigation: Investigation, enqueue: bool = True, schedule: Schedule | None = None
) -> Run:
    """A new run with the investigation's configuration (its corpora that still exist), added to it (and marked
    as fired by ``schedule``, whose digest it then feeds)."""
    _require(
        access.can_rerun(membership=actor, investigation=investigation),
        "Re-running needs the editor role on the investigation and a workspace role that starts runs.",
    )
    if investigation.archived_at is not None:
        raise ValidationError("This investigation is archived: restore it to run it again.")
    config = investigation.config
    corpora = list(Corpus.objects.filter(workspace_id=investigation.workspace_id, pk__in=config.get("corpora", [])))
    if not corpora:
        raise ValidationError({"corpora": "None of this investigation's corpora exists any more."})
    with transaction.atomic():
        run = runs.run_start(
            actor=actor,
            question=config.get("question", ""),
            corpora=corpora,
            template=investigation.template,
            rollouts=config.get("rollouts", 4),
            budget=config.get("budget", 32_768),
            max_turns=config.get("max_turns", 16),
            company=config.get("company", ""),
            aspects=config.get("aspects", []),
            criteria=config.get("criteria"),
            # The saved writer while this deployment still offers it; otherwise today's default (the run says which)
            writer=config.get("writer", "") if config.get("writer") in writer_choices() else "",
            # With web sources while the deployment still has a search provider (otherwise its corpora only)
            web=bool(config.get("web")) and web_offered(),
            enqueue=enqueue,
        )
        Run.objects.filter(pk=run.pk).update(investigation=investigation, schedule=schedule)
        run.investigation, run.schedule = investigation, schedule
        _touch(investigation)
    return run


def investigation_archive(*, actor: Membership, investigation: Investigation, archived: bool) -> None:
    _require(access.can_manage(membership=actor, investigation=investigation), "Only its author or an owner may.")
    investigation.archived_at = timezone.now() if archived else None
    investigation.save(update_fields=["archived_at"])


def investigation_delete(*, actor: Membership, investigation: Investigation) -> None:
    """Delete the investigation with its runs and their reports (never a document); refused while one runs."""
    _require(access.can_manage(membership=actor, investigation=investigation), "Only its author or an owner may.")
    with transaction.atomic():
        locked = Investigation.objects.select_for_update().filter(pk=investigation.pk).first()
        if locked is None:
            return
        busy = Run.objects.filter(investigation=locked).exclude(status__in=TERMINAL_RUN_STATUSES)
        if busy.exists():
            raise ValidationError("A run of this investigation is still going: cancel it or wait, then delete.")
        readers = _readers(locked)
        locked.delete()
    for user_id in readers:
        access_revoke(user_id=user_id)


def _readers(investigation: Investigation) -> set[int]:
    memberships = Membership.objects.filter(workspace_id=investigation.workspace_id)
    return {m.user_id for m in memberships if access.can_read(membership=m, investigation=investigation)}


def investigation_share(
    *,
    actor: Membership,
    investigation: Investigation,
    visibility: str,
    workspace_role: str = ShareRole.VIEWER,
    members: Mapping[int, str] | None = None,
) -> Investigation:
    """Set who reads the investigation: only its author, the whole workspace (with ``workspace_role``), or the
    ``members`` given (user id -> role). Sockets of those who lose access close at once."""
    _require(access.can_manage(membership=actor, investigation=investigation), "Only its author or an owner may.")
    if visibility not in Visibility.values:
        raise ValidationError({"visibility": f"Unknown visibility {visibility!r}."})
    if workspace_role not in ShareRole.values or any(role not in ShareRole.values for role in (members or {}).values()):
        raise ValidationError({"role": "Choose viewer or editor."})
    chosen = dict(members or {})
    in_workspace = set(
        Membership.objects.filter(workspace_id=investigation.workspace_id, user_id__in=chosen).values_list(
            "user_id", flat=True
        )
    )
    if set(chosen) - in_workspace:
        raise ValidationError({"members": "Share only with members of this workspace."})
    if visibility == Visibility.MEMBERS and not chosen:
        raise ValidationError({"members": "Choose at least one member to share with."})
    with transaction.atomic():
        before = _readers(investigation)
        investigation.visibility, investigation.workspace_role = visibility, workspace_role
        investigation.save(update_fields=["visibility", "workspace_role"])
        InvestigationMember.objects.filter(investigation=investigation).delete()
        if visibility == Visibility.MEMBERS:
            InvestigationMember.objects.bulk_create(
                InvestigationMember(investigation=investigation, user_id=user_id, role=role)
                for user_id, role in chosen.items()
            )
        for user_id in before - _readers(investigation):
            access_revoke(user_id=user_id)
    return investigation
