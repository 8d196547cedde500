"""Investigations: saved from a run, edited, re-run with the same configuration, shared, archived, deleted."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from research.investigations import services
from research.models import Document, Investigation, Run, RunStatus, Visibility
from research.runs import selectors as run_selectors
from research.workspaces import access
from tests.research.investigations.conftest import Team, finished_run

pytestmark = pytest.mark.django_db


def test_a_run_saved_as_an_investigation_keeps_its_configuration(team: Team) -> None:
    run = finished_run(team, claims=["Halvorix opened a Berlin office."], aspects=["EU data residency"])
    investigation = services.investigation_create(actor=team.author, run=run, title="  Halvorix   watch ")
    assert investigation.title == "Halvorix watch"
    assert investigation.template == "competitor"
    assert investigation.config == {
        "template": "competitor",
        "question": "",
        "company": "Halvorix",
        "aspects": ["EU data residency"],
        "corpora": [team.corpus.pk],
        "rollouts": 1,
        "budget": 32_768,
        "max_turns": 16,
        "writer": "extractive",
        "web": False,
    }
    assert investigation.visibility == Visibility.WORKSPACE  # the run was visible to the workspace; it stays so
    assert Run.objects.get(pk=run.pk).investigation == investigation
    with pytest.raises(ValidationError, match="already belongs"):
        services.investigation_create(actor=team.author, run=Run.objects.get(pk=run.pk))


def test_a_viewer_cannot_save_and_only_same_template_runs_are_added(team: Team) -> None:
    run = finished_run(team, claims=["a."])
    with pytest.raises(PermissionDenied):
        services.investigation_create(actor=team.viewer, run=run)
    investigation = services.investigation_create(actor=team.author, run=run)
    with pytest.raises(PermissionDenied):  # the workspace reads a new investigation; it does not edit it
        services.investigation_add_run(
            actor=team.editor, investigation=investigation, run=finished_run(team, claims=["d."])
        )
    _everyone_edits(team, investigation)
    question = finished_run(team, claims=["b."], template="question")
    with pytest.raises(ValidationError, match="competitor report runs only"):
        services.investigation_add_run(actor=team.author, investigation=investigation, run=question)
    second = finished_run(team, claims=["c."])
    services.investigation_add_run(actor=team.editor, investigation=investigation, run=second)
    assert set(investigation.runs.values_list("pk", flat=True)) == {run.pk, second.pk}


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"title": "   "}, "title", "Give the investigation a title."),
        ({"title": "x" * 201}, "title", "within 200 characters"),
        ({"tags": ",".join(f"t{i}" for i in range(13))}, "tags", "at most 12 tags"),
        ({"tags": "y" * 41}, "tags", "within 40 characters"),
        ({"notes": "n" * 20_001}, "notes", "within 20,000 characters"),
    ],
)
def test_edits_are_validated_field_by_field(team: Team, fields: dict[str, str], field: str, message: str) -> None:
    investigation = services.investigation_create(actor=team.author, run=finished_run(team, claims=["a."]))
    values = {"title": "Watch", "notes": "", "tags": "", **fields}
    with pytest.raises(ValidationError) as refused:
        services.investigation_update(actor=team.author, investigation=investigation, **values)
    assert set(refused.value.message_dict) == {field}
    assert message in refused.value.message_dict[field][0]
    assert Investigation.objects.get(pk=investigation.pk).title == investigation.title


def _everyone_edits(team: Team, investigation: Investigation) -> None:
    services.investigation_share(
        actor=team.author, investigation=investigation, visibility=Visibility.WORKSPACE, workspace_role="editor"
    )


def test_tags_are_folded_deduplicated_and_sorted(team: Team) -> None:
    investigation = services.investigation_create(actor=team.author, run=finished_run(team, claims=["a."]))
    _everyone_edits(team, investigation)
    services.investigation_update(
        actor=team.editor,
        investigation=investigation,
        title="Watch",
        notes="**Q3**",
        tags="Pricing, EU  market,pricing,",
    )
    assert Investigation.objects.get(pk=investigation.pk).tags == ["eu market", "pricing"]


def test_a_rerun_starts_the_same_configuration_and_joins_the_investigation(team: Team) -> None:
    first = finished_run(team, claims=["a."], aspects=["EU data residency"])
    investigation = services.investigation_create(actor=team.author, run=first)
    _everyone_edits(team, investigation)
    again = services.investigation_rerun(actor=team.editor, investigation=investigation)
    assert again.investigation_id == investigation.pk
    assert (again.template, again.subject, again.options) == (
        "competitor",
        "Halvorix",
        {"aspects": ["EU data residency"], "writer": "extractive"},
    )
    assert list(again.corpora.all()) == [team.corpus]
    assert again.status == RunStatus.QUEUED
    assert again.created_by == team.editor.user


def test_an_icp_rerun_judges_against_the_profile_it_was_saved_with(team: Team) -> None:
    criteria = [{"name": "size", "description": "between 50 and 500 employees", "weight": 2}]
    run = finished_run(team, claims=["a."], template="icp", criteria=criteria)
    investigation = services.investigation_create(actor=team.author, run=run)
    team.workspace.icp = [{"name": "eu", "description": "headquartered in the EU", "weight": 1}]
    team.workspace.save()
    again = services.investigation_rerun(actor=team.author, investigation=investigation)
    assert [c["description"] for c in again.options["criteria"]] == ["between 50 and 500 employees"]


def test_who_may_rerun(team: Team) -> None:
    investigation = services.investigation_create(actor=team.author, run=finished_run(team, claims=["a."]))
    with pytest.raises(PermissionDenied):  # a workspace viewer, even if the investigation made them editor
        services.investigation_rerun(actor=team.viewer, investigation=investigation)
    services.investigation_share(
        actor=team.author, investigation=investigation, visibility=Visibility.WORKSPACE, workspace_role="viewer"
    )
    with pytest.raises(PermissionDenied):  # a workspace editor who is only a viewer of the investigation
        services.investigation_rerun(actor=team.editor, investigation=investigation)
    services.investigation_archive(actor=team.author, investigation=investigation, archived=True)
    with pytest.raises(ValidationError, match="archived"):
        services.investigation_rerun(actor=team.author, investigation=investigation)


def test_a_rerun_whose_corpora_are_all_gone_says_so(team: Team) -> None:
    run = finished_run(team, claims=["a."])
    investigation = services.investigation_create(actor=team.author, run=run)
    Run.objects.filter(pk=run.pk).update(status=RunStatus.FINISHED)
    team.corpus.delete()
    with pytest.raises(ValidationError) as refused:
        services.investigation_rerun(actor=team.author, investigation=investigation)
    assert refused.value.message_dict == {"corpora": ["None of this investigation's corpora exists any more."]}


def test_deleting_takes_its_runs_never_documents_and_waits_for_a_running_one(team: Team) -> None:
    Document.objects.create(corpus=team.corpus, doc_id="press", source_name="press.md", kind="text", content_hash="h")
    run = finished_run(team, claims=["a."])
    investigation = services.investigation_create(actor=team.author, run=run)
    running = services.investigation_rerun(actor=team.author, investigation=investigation)
    with pytest.raises(PermissionDenied):
        services.investigation_delete(actor=team.editor, investigation=investigation)
    with pytest.raises(ValidationError, match="still going"):
        services.investigation_delete(actor=team.author, investigation=investigation)
    Run.objects.filter(pk=running.pk).update(status=RunStatus.CANCELLED)
    services.investigation_delete(actor=team.owner, investigation=investigation)  # an owner may, too
    assert not Investigation.objects.exists()
    assert not Run.objects.filter(pk__in=[run.pk, running.pk]).exists()
    assert Document.objects.filter(corpus=team.corpus).count() == 1


def _can(team: Team, investigation: Investigation) -> dict[str, tuple[bool, bool]]:
    """name -> (reads, edits)."""
    return {
        name: (
            access.can_read(membership=team.member(name), investigation=investigation),
            access.can_edit(membership=team.member(name), investigation=investigation),
        )
        for name in ("owner", "author", "editor", "viewer", "outsider")
    }


def test_every_visibility_and_role(team: Team) -> None:
    investigation = services.investigation_create(actor=team.author, run=finished_run(team, claims=["a."]))
    share = {"actor": team.author, "investigation": investigation}
    services.investigation_share(**share, visibility=Visibility.PRIVATE)
    assert _can(team, investigation) == {
        "owner": (True, True),
        "author": (True, True),
        "editor": (False, False),
        "viewer": (False, False),
        "outsider": (False, False),
    }
    services.investigation_share(**share, visibility=Visibility.WORKSPACE, workspace_role="editor")
    assert _can(team, investigation)["viewer"] == (True, True)
    assert _can(team, investigation)["outsider"] == (False, False)
    services.investigation_share(**share, visibility=Visibility.MEMBERS, members={team.viewer.user_id: "viewer"})
    assert _can(team, investigation) == {
        "owner": (True, True),
        "author": (True, True),
        "editor": (False, False),
        "viewer": (True, False),
        "outsider": (False, False),
    }


def test_sharing_is_refused_outside_the_workspace_and_to_non_managers(team: Team) -> None:
    investigation = services.investigation_create(actor=team.author, run=finished_run(team, claims=["a."]))
    with pytest.raises(ValidationError, match="members of this workspace"):
        services.investigation_share(
            actor=team.author,
            investigation=investigation,
            visibility=Visibility.MEMBERS,
            members={team.outsider.user_id: "viewer"},
        )
    with pytest.raises(ValidationError, match="at least one member"):
        services.investigation_share(actor=team.author, investigation=investigation, visibility=Visibility.MEMBERS)
    with pytest.raises(PermissionDenied):
        services.investigation_share(actor=team.editor, investigation=investigation, visibility=Visibility.PRIVATE)


def test_narrowing_tells_the_sockets_of_those_who_lost_access(
    team: Team, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    told: list[int] = []
    monkeypatch.setattr(services, "access_revoke", lambda *, user_id: told.append(user_id))
    investigation = services.investigation_create(actor=team.author, run=finished_run(team, claims=["a."]))
    services.investigation_share(
        actor=team.author,
        investigation=investigation,
        visibility=Visibility.MEMBERS,
        members={team.editor.user_id: "editor"},
    )
    assert sorted(told) == [team.viewer.user_id]
    told.clear()
    services.investigation_share(actor=team.author, investigation=investigation, visibility=Visibility.PRIVATE)
    assert told == [team.editor.user_id]


def test_the_run_list_and_lookups_follow_the_investigations_visibility(team: Team) -> None:
    saved, loose = finished_run(team, claims=["a."]), finished_run(team, claims=["b."])
    investigation = services.investigation_create(actor=team.author, run=saved)
    services.investigation_share(actor=team.author, investigation=investigation, visibility=Visibility.PRIVATE)
    for name, sees in (("owner", True), ("author", True), ("editor", False), ("viewer", False)):
        membership = team.member(name)
        listed = {run.pk for run in run_selectors.run_list(membership=membership)}
        assert (saved.pk in listed, loose.pk in listed) == (sees, True), name
        assert (run_selectors.run_find_for_user(user_id=membership.user_id, run_id=saved.pk) is not None) == sees
    assert run_selectors.run_find_for_user(user_id=team.outsider.user_id, run_id=loose.pk) is None
