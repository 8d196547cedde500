"""Shared fixtures: factories for users and workspaces, and a check that the real services answer."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest
import redis
from chromadb.api import ClientAPI
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from research.inference.network_guard import forbid_real_requests
from research.models import Membership, Role, Workspace
from research.retrieval.chroma_client import open_client
from research.workspaces.services import workspace_create
from tests.support import network

_counter = itertools.count(1)


def pytest_configure(config: pytest.Config) -> None:
    """No test may reach a model server off this machine (tests/support/openai_server.py is local), nor any
    address but loopback (the network guard: web fetches, search providers, anything)."""
    forbid_real_requests()
    network.install()


@pytest.fixture(scope="session", autouse=True)
def _real_services_answer() -> None:
    """The suite runs against real Redis; fail loudly (never skip) when it is not there."""
    client = redis.Redis.from_url(settings.REDIS.client_url, socket_timeout=3, socket_connect_timeout=3)
    try:
        client.ping()
    except redis.RedisError as error:
        pytest.exit(f"Redis at {settings.REDIS.client_url} does not answer ({error}); start it or set REDIS_URL", 3)
    finally:
        client.close()


@pytest.fixture(scope="session")
def chroma(tmp_path_factory: pytest.TempPathFactory) -> ClientAPI:
    """A real embedded Chroma in a temporary folder, for index tests."""
    return open_client(url=None, path=tmp_path_factory.mktemp("chroma"))


@pytest.fixture
def make_user(db: None) -> Callable[..., User]:
    def make(username: str | None = None, password: str = "pw-for-tests-123") -> User:
        return User.objects.create_user(username=username or f"user{next(_counter)}", password=password)

    return make


@pytest.fixture
def make_workspace(db: None) -> Callable[..., Workspace]:
    def make(owner: User, name: str | None = None, members: dict[User, str] | None = None) -> Workspace:
        workspace = workspace_create(name=name or f"Workspace {next(_counter)}", owner=owner)
        for user, role in (members or {}).items():
            Membership.objects.create(workspace=workspace, user=user, role=Role(role))
        return workspace

    return make


@pytest.fixture
def login(make_user: Callable[..., User]) -> Callable[[User], Client]:
    def as_user(user: User) -> Client:
        client = Client()
        client.force_login(user)
        return client

    return as_user
