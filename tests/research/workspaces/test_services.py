from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from research.workspaces.services import workspace_create


def test_it_gives_workspaces_unique_slugs(make_user) -> None:  # type: ignore[no-untyped-def]
    owner = make_user()
    first = workspace_create(name="Acme Watch", owner=owner)
    second = workspace_create(name="Acme  watch!", owner=owner)
    assert (first.slug, second.slug) == ("acme-watch", "acme-watch-2")


def test_it_refuses_a_blank_name(make_user) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValidationError):
        workspace_create(name="   ", owner=make_user())
