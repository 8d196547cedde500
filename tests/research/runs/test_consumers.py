"""The run socket through the real ASGI app and Redis layer: access (at connect and after: removal, logout,
a row deleted behind the product's back), replay from a seq, no gap and no duplicate."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import OperationalError, connection, connections
from django.db.models import Q
from django.test import Client

from context1_web.asgi import application
from research.models import Membership, Run
from research.platform.realtime import CLOSE_FORBIDDEN
from research.protocol.events import TurnStarted
from research.runs import consumers, journal, selectors
from research.runs.journal import StoredEvent
from research.workspaces.services import membership_remove

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
async def _close_thread_connections() -> AsyncIterator[None]:
    yield
    await sync_to_async(connections.close_all)()


def _headers(client: Client) -> list[tuple[bytes, bytes]]:
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    return [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1"), (b"cookie", cookie.encode())]


@sync_to_async
def _setup(make_user: Callable[..., Any], make_workspace: Callable[..., Any], login: Callable[..., Client]) -> Any:
    ada, eve = make_user(), make_user()
    workspace = make_workspace(ada)
    make_workspace(eve)  # eve is a member elsewhere, not here
    run = Run.objects.create(workspace=workspace, created_by=ada, question="q")
    return run, login(ada), login(eve)


def _store(run: Run, count: int) -> list[StoredEvent]:
    """Store ``count`` events without publishing them (as if their messages were lost)."""
    start = Run.objects.get(pk=run.pk).last_seq
    turns = [TurnStarted(rollout=0, turn=start + i + 1) for i in range(count)]
    stored = journal.events_store(run_id=run.pk, events=turns, attempt=1, guard=Q())
    assert stored is not None
    return stored


def _append(run: Run) -> StoredEvent:
    """Store one event and publish it after commit (what every writer does)."""
    n = Run.objects.get(pk=run.pk).last_seq + 1
    event = journal.event_append(run_id=run.pk, event=TurnStarted(rollout=0, turn=n), attempt=1, guard=Q())
    assert event is not None
    return event


async def _open(run: Run, client: Client, query: str = "") -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(application, f"/ws/runs/{run.pk}/{query}", headers=_headers(client))
    connected, code = await communicator.connect(timeout=5)
    assert connected, code
    return communicator


async def _receive(communicator: WebsocketCommunicator, count: int) -> list[dict[str, Any]]:
    return [json.loads(await communicator.receive_from(timeout=5)) for _ in range(count)]


async def _seqs(communicator: WebsocketCommunicator, count: int) -> list[int]:
    return [message["seq"] for message in await _receive(communicator, count)]


async def test_a_member_gets_the_stored_events_then_live_ones(make_user, make_workspace, login) -> None:  # type: ignore[no-untyped-def]
    run, ada, _ = await _setup(make_user, make_workspace, login)
    await sync_to_async(_store)(run, 3)
    communicator = await _open(run, ada)
    replayed = await _receive(communicator, 3)
    assert [m["seq"] for m in replayed] == [1, 2, 3]
    assert set(replayed[0]) == {"seq", "type", "payload", "attempt", "at"}
    assert replayed[0]["type"] == "turn_started"
    assert replayed[0]["payload"] == {"type": "turn_started", "rollout": 0, "turn": 1}
    await sync_to_async(_append)(run)
    assert await _seqs(communicator, 1) == [4]
    assert await communicator.receive_nothing(timeout=0.3)
    await communicator.disconnect()


async def test_it_replays_from_the_clients_last_seq(make_user, make_workspace, login) -> None:  # type: ignore[no-untyped-def]
    run, ada, _ = await _setup(make_user, make_workspace, login)
    await sync_to_async(_store)(run, 5)
    communicator = await _open(run, ada, "?after=3")
    assert await _seqs(communicator, 2) == [4, 5]
    assert await communicator.receive_nothing(timeout=0.3)
    await communicator.disconnect()


async def test_a_member_of_another_workspace_gets_nothing(make_user, make_workspace, login) -> None:  # type: ignore[no-untyped-def]
    run, _, eve = await _setup(make_user, make_workspace, login)
    await sync_to_async(_store)(run, 2)
    communicator = WebsocketCommunicator(application, f"/ws/runs/{run.pk}/", headers=_headers(eve))
    connected, code = await communicator.connect(timeout=5)
    assert not connected
    assert code == CLOSE_FORBIDDEN
    assert await communicator.receive_nothing(timeout=0.3)


async def test_an_unknown_run_and_an_anonymous_socket_are_refused_alike(make_user, make_workspace, login) -> None:  # type: ignore[no-untyped-def]
    run, ada, _ = await _setup(make_user, make_workspace, login)
    unknown = WebsocketCommunicator(application, f"/ws/runs/{run.pk + 1000}/", headers=_headers(ada))
    assert await unknown.connect(timeout=5) == (False, CLOSE_FORBIDDEN)
    anonymous = WebsocketCommunicator(
        application, f"/ws/runs/{run.pk}/", headers=[(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]
    )
    assert await anonymous.connect(timeout=5) == (False, CLOSE_FORBIDDEN)


async def test_a_viewer_may_watch(make_user, make_workspace, login) -> None:  # type: ignore[no-untyped-def]
    run, _, _ = await _setup(make_user, make_workspace, login)
    viewer = await sync_to_async(make_user)()
    await sync_to_async(Membership.objects.create)(workspace_id=run.workspace_id, user=viewer, role="viewer")
    await sync_to_async(_store)(run, 1)
    communicator = await _open(run, await sync_to_async(login)(viewer))
    assert await _seqs(communicator, 1) == [1]
    await communicator.disconnect()


async def test_events_published_during_the_replay_arrive_once_and_in_order(  # type: ignore[no-untyped-def]
    make_user, make_workspace, login, monkeypatch
) -> None:
    run, ada, _ = await _setup(make_user, make_workspace, login)
    await sync_to_async(_store)(run, 5)
    real = selectors.run_events_after
    calls = []

    def racing(*, run_id: int, after: int, limit: int = 500) -> list[StoredEvent]:
        rows = real(run_id=run_id, after=after, limit=limit)
        if not calls:
            # While the socket replays: the batch message of 4 and 5 (committed before the read, published
            # after the socket joined) arrives, the writer commits and publishes 6 and 7, and 6 again.
            journal.events_publish(run_id=run_id, events=rows[-2:])
            sixth = _append(run)
            _append(run)
            journal.events_publish(run_id=run_id, events=[sixth])
        calls.append(after)
        return rows

    monkeypatch.setattr(selectors, "run_events_after", racing)
    communicator = await _open(run, ada)
    assert await _seqs(communicator, 7) == [1, 2, 3, 4, 5, 6, 7]
    assert await communicator.receive_nothing(timeout=0.5)
    await sync_to_async(_append)(run)
    assert await _seqs(communicator, 1) == [8]
    await communicator.disconnect()


async def test_a_live_message_that_skips_ahead_is_preceded_by_the_missing_ones(
    make_user, make_workspace, login
) -> None:  # type: ignore[no-untyped-def]
    run, ada, _ = await _setup(make_user, make_workspace, login)
    await sync_to_async(_store)(run, 2)
    communicator = await _open(run, ada)
    assert await _seqs(communicator, 2) == [1, 2]
    await sync_to_async(_store)(run, 2)  # 3 and 4: their messages were dropped by the channel layer
    await sync_to_async(_append)(run)  # 5 arrives
    assert await _seqs(communicator, 3) == [3, 4, 5]
    assert await communicator.receive_nothing(timeout=0.3)
    await communicator.disconnect()


async def test_a_dropped_last_message_is_caught_up_by_the_tail_check(  # type: ignore[no-untyped-def]
    make_user, make_workspace, login, monkeypatch
) -> None:
    monkeypatch.setattr(consumers.RunConsumer, "tail_check_seconds", 0.1)
    run, ada, _ = await _setup(make_user, make_workspace, login)
    communicator = await _open(run, ada)
    await sync_to_async(_store)(run, 2)  # stored, never published
    assert await _seqs(communicator, 2) == [1, 2]
    await communicator.disconnect()


async def test_a_tail_check_that_finds_the_database_away_checks_again(  # type: ignore[no-untyped-def]
    make_user, make_workspace, login, monkeypatch
) -> None:
    monkeypatch.setattr(consumers.RunConsumer, "tail_check_seconds", 0.1)
    progress, away = selectors.run_progress, iter(range(3))  # the first three checks find the database away

    def check(**kwargs: Any) -> tuple[int, bool]:
        if next(away, None) is not None:
            raise OperationalError("connection failed: server closed the connection unexpectedly")
        return progress(**kwargs)

    monkeypatch.setattr(selectors, "run_progress", check)
    run, ada, _ = await _setup(make_user, make_workspace, login)
    communicator = await _open(run, ada)
    await sync_to_async(_store)(run, 2)  # stored, never published: only the tail check delivers them
    assert await _seqs(communicator, 2) == [1, 2]
    assert next(away, None) is None
    await communicator.disconnect()  # the watcher is still alive: its disconnect does not fail


async def test_the_html_format_sends_fragments_for_the_page(make_user, make_workspace, login) -> None:  # type: ignore[no-untyped-def]
    run, ada, _ = await _setup(make_user, make_workspace, login)
    await sync_to_async(_store)(run, 1)
    communicator = await _open(run, ada, "?after=0&format=html")
    fragment = await communicator.receive_from(timeout=5)
    assert 'hx-swap-oob="beforeend"' in fragment
    assert 'data-seq="1"' in fragment
    await communicator.disconnect()


async def _closed_with(communicator: WebsocketCommunicator) -> Any:
    output = await communicator.receive_output(timeout=5)
    assert output["type"] == "websocket.close", output
    return output.get("code")


@sync_to_async
def _viewer(run: Run, make_user: Callable[..., Any], login: Callable[..., Client]) -> tuple[Membership, Client]:
    bob = make_user()
    membership = Membership.objects.create(workspace_id=run.workspace_id, user=bob, role="viewer")
    return membership, login(bob)


async def test_a_member_removed_mid_run_is_closed_and_gets_no_more_events(make_user, make_workspace, login) -> None:  # type: ignore[no-untyped-def]
    run, _, _ = await _setup(make_user, make_workspace, login)
    bob, bobs_client = await _viewer(run, make_user, login)
    await sync_to_async(_store)(run, 1)
    communicator = await _open(run, bobs_client)
    assert await _seqs(communicator, 1) == [1]
    owner = await sync_to_async(Membership.objects.select_related("workspace").get)(
        workspace_id=run.workspace_id, role="owner"
    )
    await sync_to_async(membership_remove)(actor=owner, member=bob)
    assert await _closed_with(communicator) == CLOSE_FORBIDDEN
    await sync_to_async(_append)(run)
    assert await communicator.receive_nothing(timeout=0.5)


async def test_logging_out_closes_the_run_socket(make_user, make_workspace, login) -> None:  # type: ignore[no-untyped-def]
    run, ada, _ = await _setup(make_user, make_workspace, login)
    communicator = await _open(run, ada)
    await sync_to_async(ada.logout)()
    assert await _closed_with(communicator) == CLOSE_FORBIDDEN
    await sync_to_async(_append)(run)
    assert await communicator.receive_nothing(timeout=0.5)


async def test_an_idle_run_socket_closes_within_the_recheck_bound(  # type: ignore[no-untyped-def]
    make_user, make_workspace, login, monkeypatch
) -> None:
    """Access removed with raw SQL (no signal, no message): the tail check's re-check closes the socket."""
    monkeypatch.setattr(consumers.RunConsumer, "tail_check_seconds", 0.1)
    monkeypatch.setattr(consumers.RunConsumer, "access_check_seconds", 0.1)
    run, _, _ = await _setup(make_user, make_workspace, login)
    bob, bobs_client = await _viewer(run, make_user, login)
    communicator = await _open(run, bobs_client)

    @sync_to_async
    def delete_with_sql() -> None:
        with connection.cursor() as cursor:
            cursor.execute(f"DELETE FROM {Membership._meta.db_table} WHERE id = %s", [bob.pk])

    await delete_with_sql()
    assert await _closed_with(communicator) == CLOSE_FORBIDDEN
