"""A run's writer: chosen on the run form among those this deployment offers, kept in the run, used to write
its answer, saved with an investigation and kept by its re-runs."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.test import Client, override_settings

from research.investigations import services as investigations
from research.models import Corpus, Membership, Run, RunStatus, Workspace
from research.platform import composition
from research.reporting import services as reporting
from research.runs import services as runs
from research.runs.forms import RunForm

pytestmark = pytest.mark.django_db
WRITER_SERVER = "http://127.0.0.1:9/writer"


def _owner(team: tuple[Workspace, Corpus, User, User, User]) -> tuple[Membership, Corpus]:
    workspace, corpus, ada, _, _ = team
    return Membership.objects.select_related("workspace", "user").get(workspace=workspace, user=ada), corpus


def test_offline_only_the_extractive_writer_is_offered(team) -> None:  # type: ignore[no-untyped-def]
    owner, corpus = _owner(team)
    assert composition.writer_choices() == ("extractive",)
    form = RunForm(workspace=owner.workspace)
    assert [name for name, _ in form.fields["writer"].choices] == ["extractive"]  # type: ignore[attr-defined]
    with pytest.raises(ValidationError) as refused:
        runs.run_start(actor=owner, question="Who?", corpora=[corpus], writer="openai")
    assert "The openai writer is not offered here (offered: extractive)" in str(refused.value)
    run = runs.run_start(actor=owner, question="Who?", corpora=[corpus])
    assert run.options["writer"] == "extractive"  # the default, recorded


@override_settings(WRITER_BASE_URL=WRITER_SERVER)
def test_a_configured_writer_model_can_be_chosen_per_run_and_is_used(  # type: ignore[no-untyped-def]
    team, login: Callable[[User], Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    owner, corpus = _owner(team)
    assert composition.writer_choices() == ("extractive", "openai")
    page = login(owner.user).get(f"/w/{owner.workspace.slug}/runs/").content.decode()
    assert 'value="openai"' in page
    assert "openai (writer model)" in page
    run = runs.run_start(actor=owner, question="Who?", corpora=[corpus], writer="openai")
    assert run.options["writer"] == "openai"
    asked: list[str | None] = []
    monkeypatch.setattr(reporting, "writer", lambda name=None: asked.append(name) or (_ for _ in ()).throw(OSError))
    reporting.report_write(run, [], [], lambda event: None)
    assert asked == ["openai"]  # the run's choice reaches the writer's construction


@override_settings(WRITER_BASE_URL=WRITER_SERVER)
def test_an_investigation_keeps_its_writer_and_falls_back_when_it_is_gone(team) -> None:  # type: ignore[no-untyped-def]
    owner, corpus = _owner(team)
    run = runs.run_start(actor=owner, question="Who?", corpora=[corpus], writer="openai")
    Run.objects.filter(pk=run.pk).update(status=RunStatus.FINISHED)
    investigation = investigations.investigation_create(actor=owner, run=run)
    assert investigation.config["writer"] == "openai"
    again = investigations.investigation_rerun(actor=owner, investigation=investigation)
    assert again.options["writer"] == "openai"
    Run.objects.filter(pk=again.pk).update(status=RunStatus.FINISHED)
    with override_settings(WRITER_BASE_URL=None, WRITER_BACKEND="extractive"):
        fallback = investigations.investigation_rerun(actor=owner, investigation=investigation)
    assert fallback.options["writer"] == "extractive"  # today's default, recorded in the run
