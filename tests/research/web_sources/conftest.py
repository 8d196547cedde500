"""A loopback web site the tests may fetch from (the only allowed private address), a SearXNG-compatible search
on it, and the fetcher rebuilt with those rules; an owner and a workspace."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User

from research.models import Membership, Workspace
from research.platform import composition
from research.runs import services as runs
from tests.support.web_site import Site, web_site


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    with web_site() as served:
        yield served


@pytest.fixture
def web_settings(settings, site: Site) -> Iterator[Site]:  # type: ignore[no-untyped-def]
    settings.WEB_SEARCH_PROVIDER = "searxng"
    settings.SEARXNG_URL = site.base
    settings.WEB_FETCH_ALLOWED_HOSTS = [f"127.0.0.1:{site.port}"]
    settings.WEB_FETCH_INTERVAL = 0.0
    settings.WEB_FETCH_TIMEOUT = 1.0
    composition.web_reset()
    yield site
    composition.web_reset()


@dataclass
class Owner:
    membership: Membership
    workspace: Workspace


@pytest.fixture
def owner(make_user: Callable[..., User], make_workspace: Callable[..., Workspace], monkeypatch) -> Owner:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(runs, "run_enqueue", lambda run_id: None)
    user = make_user("ada")
    workspace = make_workspace(user, "Market watch")
    return Owner(Membership.objects.select_related("workspace", "user").get(user=user), workspace)
