"""A team to share with: an owner, the author (an editor), another editor, a viewer, and an outsider; runs with
stored reports (no worker: the tests write what a finished run leaves)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User

from research.corpora import services as corpora
from research.models import Corpus, Membership, Run, RunStatus, Workspace
from research.protocol.report import Citation, Claim, Report, Section, Source
from research.reporting.services import report_save
from research.runs import services as runs


@dataclass
class Team:
    workspace: Workspace
    owner: Membership
    author: Membership  # an editor, who saves the investigations
    editor: Membership
    viewer: Membership
    outsider: Membership  # the owner of another workspace
    corpus: Corpus

    def member(self, name: str) -> Membership:
        return getattr(self, name)  # type: ignore[no-any-return]


@pytest.fixture
def team(make_user: Callable[..., User], make_workspace: Callable[..., Workspace]) -> Team:
    owner, author, editor, viewer, outsider = (make_user(name) for name in ("olga", "ada", "ed", "vic", "eve"))
    workspace = make_workspace(owner, "Market team", {author: "editor", editor: "editor", viewer: "viewer"})
    make_workspace(outsider, "Elsewhere")
    memberships = {m.user.username: m for m in Membership.objects.select_related("user", "workspace")}
    return Team(
        workspace=workspace,
        owner=memberships["olga"],
        author=memberships["ada"],
        editor=memberships["ed"],
        viewer=memberships["vic"],
        outsider=memberships["eve"],
        corpus=corpora.corpus_create(actor=memberships["ada"], name="Market"),
    )


@pytest.fixture(autouse=True)
def _no_queue(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runs, "run_enqueue", lambda run_id: None)


def claim(text: str, doc: str = "press", chunk: int = 0) -> Claim:
    return Claim(
        text=text, citations=(Citation(chunk_id=f"{doc}#{chunk}", doc_id=doc, quote=text, source=f"{doc}.md"),)
    )


def finished_run(team: Team, *, claims: list[str], template: str = "competitor", **options: Any) -> Run:
    """A run that ended with a stored report of ``claims`` (one section) and its ranked documents."""
    run = runs.run_start(
        actor=team.author,
        question="Who sponsors Project Halyard?",
        corpora=[team.corpus],
        template=template,
        company="Halvorix" if template != "question" else "",
        **options,
    )
    documents = [{"doc_id": "press", "title": "Press release", "score": 1.0, "chunk_ids": ["press#0"]}]
    Run.objects.filter(pk=run.pk).update(status=RunStatus.FINISHED, result=documents)
    report = Report(
        template=template,
        writer="extractive",
        subject="Halvorix",
        sections=(Section(facet="news", title="News", claims=tuple(claim(text) for text in claims)),),
        sources=(Source(doc_id="press", title="Press release", source="press.md"),),
    )
    report_save(run, report)
    run.refresh_from_db()
    return run
