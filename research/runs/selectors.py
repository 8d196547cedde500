"""Read-side queries of runs and their stored events, always within a member's workspace."""

from __future__ import annotations

from collections.abc import Iterable

from django.http import Http404

from research.models import TERMINAL_RUN_STATUSES, Chunk, Document, Membership, Run, RunEvent
from research.runs.journal import StoredEvent, stored
from research.workspaces.access import readable_run, readable_runs

EVENTS_PAGE = 500  # stored events one read returns at most (pages, the events endpoint, socket replays)


def run_list(*, membership: Membership, limit: int = 50) -> list[Run]:
    """The member's workspace's latest runs that they may read (research/workspaces/access.py)."""
    runs = Run.objects.filter(readable_runs(membership)).select_related("investigation")
    return list(runs.prefetch_related("corpora").order_by("-created_at", "-id")[:limit])


def run_get(*, membership: Membership, run_id: int) -> Run:
    """A run of the member's workspace that they may read; 404 otherwise (``access.readable_run``)."""
    return readable_run(membership=membership, run_id=run_id)


def run_find_for_user(*, user_id: int, run_id: int) -> Run | None:
    """The run if the user is a member of its workspace and may read it (the socket's check); None otherwise."""
    workspace_id = Run.objects.filter(pk=run_id).values_list("workspace_id", flat=True).first()
    membership = Membership.objects.filter(workspace_id=workspace_id or 0, user_id=user_id).first()
    if membership is None:
        return None
    return Run.objects.filter(readable_runs(membership), pk=run_id).first()


def run_events_after(
    *, run_id: int, after: int, limit: int = EVENTS_PAGE, through: int | None = None
) -> list[StoredEvent]:
    """Stored events with ``seq > after`` (and ``seq <= through`` when given), in order, at most ``limit``."""
    events = RunEvent.objects.filter(run_id=run_id, seq__gt=after)
    if through is not None:
        events = events.filter(seq__lte=through)
    return [stored(event) for event in events.order_by("seq")[:limit]]


def run_events_all(*, run_id: int, through: int | None = None) -> list[StoredEvent]:
    """Every stored event of the run (or those with ``seq <= through``), in order, read a page at a time."""
    events: list[StoredEvent] = []
    while True:
        page = run_events_after(run_id=run_id, after=events[-1].seq if events else 0, through=through)
        events += page
        if len(page) < EVENTS_PAGE:
            return events


def run_progress(*, run_id: int) -> tuple[int, bool]:
    """The run's latest seq and whether it has ended (what a socket checks to catch up on dropped messages)."""
    row = Run.objects.filter(pk=run_id).values_list("last_seq", "status").first()
    if row is None:
        return 0, True
    return row[0], row[1] in TERMINAL_RUN_STATUSES


def run_document_get(*, run: Run, doc_id: str) -> Document:
    """A document of any of the run's corpora; 404 otherwise."""
    document = Document.objects.filter(corpus__in=run.corpora.all(), doc_id=doc_id).select_related("corpus").first()
    if document is None:
        raise Http404("No such document in this run's corpora")
    return document


def run_events_current(*, run: Run) -> list[StoredEvent]:
    """The stored events of the run's latest attempt (an earlier attempt's are superseded by its restart)."""
    return [event for event in run_events_all(run_id=run.pk) if event.attempt == max(run.attempts, 1)]


def run_chunk_texts(*, run: Run, chunk_ids: Iterable[str]) -> dict[str, str]:
    """The texts of these chunks in the run's corpora, by chunk id (a chunk deleted since is missing)."""
    wanted = set(chunk_ids)
    rows = Chunk.objects.filter(document__corpus__in=run.corpora.all(), chunk_id__in=wanted)
    return dict(rows.values_list("chunk_id", "text"))
