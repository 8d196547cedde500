"""A workspace with an owner, a viewer and a corpus, and API tokens for them; runs are not queued (the tests execute
them here when they need them finished)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from research.api.tokens import token_create
from research.corpora import services as corpora
from research.models import Corpus, Membership, Workspace
from research.runs import services as runs


@dataclass(frozen=True)
class Team:
    workspace: Workspace
    owner: Membership
    viewer: Membership
    corpus: Corpus
    outsider: Membership


@pytest.fixture(autouse=True)
def _no_queue(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runs, "run_enqueue", lambda run_id: None)


@pytest.fixture
def team(make_user: Callable[..., User], make_workspace: Callable[..., Workspace]) -> Team:
    owner, viewer, outsider = make_user("olga"), make_user("vic"), make_user("eve")
    workspace = make_workspace(owner, "Market team", {viewer: "viewer"})
    elsewhere = make_workspace(outsider, "Elsewhere")
    member = Membership.objects.select_related("workspace", "user").get(workspace=workspace, user=owner)
    return Team(
        workspace=workspace,
        owner=member,
        viewer=Membership.objects.select_related("workspace", "user").get(workspace=workspace, user=viewer),
        corpus=corpora.corpus_create(actor=member, name="Market"),
        outsider=Membership.objects.select_related("workspace", "user").get(workspace=elsewhere, user=outsider),
    )


def bearer(member: Membership, *scopes: str, **options: Any) -> Client:
    """A client that sends a new token of ``member`` for their workspace."""
    made = token_create(user=member.user, workspace_slug=member.workspace.slug, name="tests", scopes=scopes, **options)
    return Client(HTTP_AUTHORIZATION=f"Bearer {made.key}")
