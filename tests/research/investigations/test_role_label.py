"""The investigation page names the reader's role: "owner" for its author and the workspace's owners (they
share, archive and delete it), "editor" or "viewer" for the others (issue 34)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from research.investigations import services
from research.models import ShareRole, Visibility
from tests.research.investigations.conftest import Team, finished_run

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("who", "role"), [("author", "owner"), ("owner", "owner"), ("editor", "editor"), ("viewer", "viewer")]
)
def test_the_page_says_owner_for_its_author_and_the_workspace_owner(
    team: Team, login: Callable[[User], Client], who: str, role: str
) -> None:
    run = finished_run(team, claims=["Halvorix opened a Berlin office."])
    investigation = services.investigation_create(actor=team.author, run=run, title="Halvorix watch")
    services.investigation_share(
        actor=team.author,
        investigation=investigation,
        visibility=Visibility.MEMBERS,
        members={team.editor.user_id: ShareRole.EDITOR, team.viewer.user_id: ShareRole.VIEWER},
    )
    url = reverse("investigation_page", kwargs={"slug": team.workspace.slug, "investigation_id": investigation.pk})
    page = login(team.member(who).user).get(url)
    assert page.status_code == 200
    assert f"your role: {role}</p>" in page.content.decode()
