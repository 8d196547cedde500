"""A hypothesis state machine over an upload file's ingest lease: claim, renew, advance, release, sweep, time.

It drives the real lease functions (research/corpora/lease.py) against the real database, as the ingest
pipeline calls them (research/corpora/ingestion.py): ``claim`` by a task for any stage or for the vector stage
only, ``renew`` during a long stage, ``advance`` through stored -> parsed -> chunked -> searchable -> indexed
(or failed, or searchable with the lease handed to the refining task), ``release`` by id after a transient
failure, and the beat's ``sweep_stuck``. Each worker is its own context (``contextvars.Context``), as each task
runs in its own process or thread, and keeps the row its claim gave it after it lost the lease, so the stale
worker's writes are tried too.

Time is driven, not waited for: the clock is frozen (time_machine) and moved by the ``wait`` rule, so a lease
runs out exactly when the model says it does. After every step the invariants compare the database with the
model: one holder at most, a stale worker's renew/advance/release changes nothing and says so, a swept file
is claimable again, a file is finished, claimable or held (never lost), a finished file stays finished, and
progress goes back only when a new holder starts the file again (the pipeline re-runs a re-claimed file from
its first stage, research/corpora/ingestion.py ``upload_file_ingest``).
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, TypeVar

import pytest
import time_machine
from django.utils import timezone
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test

from research.corpora import ingestion, lease, progress, services, task_names
from research.models import TERMINAL_STAGES, Corpus, Membership, Stage, Upload, UploadFile
from research.platform.composition import corpus_index
from research.retrieval.embedders import EmbeddingUnavailable

T = TypeVar("T")
LEASE_S = 60
WORKERS = ("w1", "w2", "w3")
FILES = 2
PIPELINE = (Stage.STORED, Stage.PARSED, Stage.CHUNKED, Stage.SEARCHABLE, Stage.INDEXED)
ORDER = {stage: index for index, stage in enumerate((Stage.QUEUED, *PIPELINE))}
SETTINGS = hypothesis_settings(max_examples=40, stateful_step_count=30, deadline=None, report_multiple_bugs=False)


@dataclass
class Expected:
    """What one upload file must look like in the database, as the model has it."""

    pk: int
    stage: str = Stage.QUEUED
    until: datetime | None = None
    attempts: int = 0
    error: str = ""
    holder: str | None = None  # the worker whose lease ``until`` is

    @property
    def done(self) -> bool:
        return self.stage in TERMINAL_STAGES

    def claimable(self, now: datetime, stage: Stage | None) -> bool:
        unleased = self.until is None or self.until < now
        return not self.done and (stage is None or self.stage == stage) and unleased


@dataclass
class Hand:
    """The row one worker's claim gave it (its lease is ``item.claimed_until``), and the stages its task goes
    through next."""

    item: UploadFile
    path: list[Stage] = field(default_factory=list)


class LeaseMachine(RuleBasedStateMachine):
    """Set ``upload`` (the files' upload), ``clock`` (a time_machine traveller) and ``pushed``, ``words`` and
    ``vectors`` (where the patched progress and queue functions record) in a subclass."""

    upload: Upload
    clock: Any
    pushed: list[tuple[int, str]]
    words: list[int]
    vectors: list[int]

    def __init__(self) -> None:
        super().__init__()
        UploadFile.objects.all().delete()  # examples share the database: the sweep must see this example's files
        for log in (self.pushed, self.words, self.vectors):
            log.clear()
        self.files = [
            Expected(UploadFile.objects.create(upload=self.upload, name=f"file-{n}.txt").pk) for n in range(FILES)
        ]
        self.contexts = {worker: contextvars.Context() for worker in WORKERS}  # one per task process or thread
        self.hands: dict[tuple[str, int], Hand] = {}
        self.finished: dict[int, tuple[Any, ...]] = {}
        self.progress: dict[int, tuple[int, int, int | None]] = {}  # file -> (attempts, stage at claim, furthest)

    def _as(self, worker: str, call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return self.contexts[worker].run(call, *args, **kwargs)

    def _tick(self) -> datetime:
        """A millisecond passes before each call: no two claims or renewals happen at the same instant."""
        self.clock.shift(timedelta(milliseconds=1))
        return timezone.now()

    def _hand(self, data: st.DataObject) -> tuple[str, Expected, Hand]:
        worker, pk = data.draw(st.sampled_from(sorted(self.hands)))
        return worker, next(f for f in self.files if f.pk == pk), self.hands[(worker, pk)]

    # --- rules ----------------------------------------------------------------------------------
    @rule(seconds=st.sampled_from([1, LEASE_S // 2, LEASE_S + 1]))
    def wait(self, seconds: int) -> None:
        """Time passes: a second, half a lease, or more than a lease (a worker that did not renew lost it)."""
        self.clock.shift(timedelta(seconds=seconds))

    @rule(worker=st.sampled_from(WORKERS), index=st.integers(0, FILES - 1), vectors=st.booleans())
    def claim(self, worker: str, index: int, vectors: bool) -> None:
        """A task claims a file (the vector task only a searchable one): it gets it only if the file is not
        finished and no live lease is on it (a lease that ran out may be taken over before the sweep)."""
        model, now = self.files[index], self._tick()
        stage = Stage.SEARCHABLE if vectors else None
        item = self._as(worker, lease.claim, model.pk, stage=stage)
        if not model.claimable(now, stage):
            assert item is None, f"{worker} claimed file {model.pk} ({model.stage}, lease until {model.until})"
            return
        assert item is not None, f"{worker} could not claim file {model.pk} ({model.stage}, until {model.until})"
        assert item.claimed_until == now + timedelta(seconds=LEASE_S)
        model.until, model.attempts, model.holder = item.claimed_until, model.attempts + 1, worker
        self.hands[(worker, model.pk)] = Hand(item, [Stage.INDEXED] if vectors else list(PIPELINE))

    @precondition(lambda self: self.hands)
    @rule(data=st.data())
    def renew(self, data: st.DataObject) -> None:
        """A worker in a long stage renews its lease; a worker that lost it is told (LeaseLost), changing
        nothing."""
        worker, model, hand = self._hand(data)
        before, now = hand.item.claimed_until, self._tick()
        if model.holder != worker:
            with pytest.raises(lease.LeaseLost):
                self._as(worker, lease.renew, hand.item)
            assert hand.item.claimed_until == before
            return
        self._as(worker, lease.renew, hand.item)
        assert hand.item.claimed_until == now + timedelta(seconds=LEASE_S)
        model.until = hand.item.claimed_until

    @precondition(lambda self: self.hands)
    @rule(data=st.data(), stages=st.integers(1, 4), end=st.sampled_from(["go on", "go on", "fail", "hand over"]))
    def advance(self, data: st.DataObject, stages: int, end: str) -> None:
        """A worker moves its file through the next ``stages`` stages of its task, the last one failed (``fail``),
        or stops at searchable handing the lease to the refining task (``hand over``: ``refine=False``)."""
        worker, model, hand = self._hand(data)
        moves: list[tuple[Stage, dict[str, Any]]] = [(stage, {}) for stage in hand.path[:stages]]
        if end == "fail":
            moves[-1] = (Stage.FAILED, {"error": "no text found"})
        if end == "hand over" and (Stage.SEARCHABLE, {}) in moves:
            moves = [*moves[: moves.index((Stage.SEARCHABLE, {}))], (Stage.SEARCHABLE, {"claimed_until": None})]
        for stage, fields in moves:
            if not self._advance(worker, model, hand, stage, fields):
                return

    def _advance(self, worker: str, model: Expected, hand: Hand, stage: Stage, fields: dict[str, Any]) -> bool:
        """One stage change: whether the worker goes on. A worker that lost the file writes nothing (LeaseLost)
        and pushes no progress line."""
        pushes = len(self.pushed)
        self._tick()
        if model.holder != worker:
            with pytest.raises(lease.LeaseLost):
                self._as(worker, lease.advance, hand.item, stage, **fields)
            assert len(self.pushed) == pushes, f"{worker} lost file {model.pk} but pushed progress"
            return False
        self._as(worker, lease.advance, hand.item, stage, **fields)
        assert self.pushed[pushes:] == [(model.pk, stage)]
        model.stage, model.error = stage, str(fields.get("error", model.error))
        if stage in TERMINAL_STAGES or "claimed_until" in fields:  # the lease is given up with the stage
            model.until, model.holder = None, None
            del self.hands[(worker, model.pk)]  # its task ends here: the row in hand no longer holds anything
            return False
        hand.path.pop(0)
        return True

    @precondition(lambda self: self.hands)
    @rule(data=st.data())
    def release(self, data: st.DataObject) -> None:
        """A task hit a transient failure (the embedder is unavailable) and gives its lease back by file id,
        for its retry; a task that had lost the file meanwhile must not release the new holder's lease."""
        worker, model, _ = self._hand(data)
        self._tick()
        released = self._as(worker, lease.release, model.pk, "embedding service unavailable, retrying")
        holds = model.holder == worker
        assert released is holds, f"{worker} (holder: {holds}) released file {model.pk}: {released}"
        if holds:
            model.until, model.holder, model.error = None, None, "embedding service unavailable, retrying"

    @precondition(lambda self: any(f.until is not None for f in self.files))
    @rule()
    def sweep(self) -> None:
        """Beat's sweep: each unfinished file whose lease ran out is released and queued again for its stage,
        once; live leases and finished files are left alone."""
        now = self._tick()
        stuck = [f for f in self.files if not f.done and f.until is not None and f.until < now]
        words, vectors = len(self.words), len(self.vectors)
        swept = lease.sweep_stuck()
        assert sorted(swept) == sorted((f.pk, f.stage) for f in stuck)
        assert sorted(self.vectors[vectors:]) == sorted(f.pk for f in stuck if f.stage == Stage.SEARCHABLE)
        assert sorted(self.words[words:]) == sorted(f.pk for f in stuck if f.stage != Stage.SEARCHABLE)
        for model in stuck:
            model.until, model.holder = None, None

    @precondition(lambda self: any(f.until is None and not f.done for f in self.files))
    @rule(data=st.data(), worker=st.sampled_from(WORKERS))
    def claim_released(self, data: st.DataObject, worker: str) -> None:
        """A swept, released or handed-over file is claimable again (the task sent for it can take it)."""
        index = data.draw(st.sampled_from([n for n, f in enumerate(self.files) if f.until is None and not f.done]))
        model = self.files[index]
        self.claim(worker, index, vectors=model.stage == Stage.SEARCHABLE and data.draw(st.booleans()))
        assert model.holder == worker

    # --- invariants, over the database -----------------------------------------------------------
    def _rows(self) -> Iterator[tuple[Expected, UploadFile]]:
        rows = UploadFile.objects.in_bulk([f.pk for f in self.files])
        for model in self.files:
            yield model, rows[model.pk]

    @invariant()
    def the_database_matches_the_model(self) -> None:
        for model, row in self._rows():
            found = (row.stage, row.claimed_until, row.attempts, row.error)
            assert found == (model.stage, model.until, model.attempts, model.error), f"file {model.pk}: {found}"

    @invariant()
    def at_most_one_holder_and_it_is_the_models(self) -> None:
        for model in self.files:
            holders = [w for (w, pk), hand in self.hands.items() if pk == model.pk and lease.held(hand.item)]
            assert holders == ([model.holder] if model.holder else []), f"file {model.pk}: held by {holders}"

    @invariant()
    def nothing_is_lost(self) -> None:
        """Every file is finished, claimable now, or held by a live worker of the model."""
        now = timezone.now()
        for model, row in self._rows():
            claimable = row.claimed_until is None or row.claimed_until < now
            assert row.stage in TERMINAL_STAGES or claimable or model.holder is not None, f"file {model.pk}"
            assert row.stage not in TERMINAL_STAGES or row.claimed_until is None, f"file {model.pk}: still leased"

    @invariant()
    def finished_files_stay_finished(self) -> None:
        for model, row in self._rows():
            now = (row.stage, row.claimed_until, row.attempts, row.error)
            if model.pk in self.finished:
                assert now == self.finished[model.pk], f"file {model.pk} changed after it finished"
            elif row.stage in TERMINAL_STAGES:
                self.finished[model.pk] = now

    @invariant()
    def progress_goes_back_only_when_a_new_holder_starts_again(self) -> None:
        """Attempts only grow; under one claim, once its holder wrote a stage, the stage only moves forward (a new
        holder may start the file again from its first stage: the pipeline re-runs it)."""
        for model, row in self._rows():
            stage = ORDER.get(Stage(row.stage), len(ORDER))  # a final stage is the furthest
            attempts, at_claim, furthest = self.progress.get(model.pk, (row.attempts, stage, None))
            assert row.attempts >= attempts, f"file {model.pk}: attempts went back {attempts} -> {row.attempts}"
            if row.attempts > attempts:
                self.progress[model.pk] = (row.attempts, stage, None)  # a new claim: nothing written under it yet
                continue
            if furthest is None and stage == at_claim:
                self.progress[model.pk] = (attempts, at_claim, None)
                continue
            assert furthest is None or stage >= furthest, f"file {model.pk}: stage went back under one claim"
            self.progress[model.pk] = (attempts, at_claim, stage)


@pytest.mark.django_db
def test_the_ingest_lease_keeps_one_holder_and_loses_nothing(owner: Membership, monkeypatch, settings) -> None:  # type: ignore[no-untyped-def]
    settings.INGEST_LEASE_SECONDS = LEASE_S
    pushed: list[tuple[int, str]] = []
    words: list[int] = []
    vectors: list[int] = []
    monkeypatch.setattr(progress, "file_changed", lambda item: pushed.append((item.pk, str(item.stage))))
    monkeypatch.setattr(task_names, "ingest_files_enqueue", words.extend)
    monkeypatch.setattr(task_names, "refine_enqueue", lambda file_id, countdown=None: vectors.append(file_id))
    corpus = Corpus.objects.create(workspace=owner.workspace, name="Bare", slug="bare")
    upload = Upload.objects.create(corpus=corpus)
    with time_machine.travel(timezone.now(), tick=False) as clock:
        attributes = {"upload": upload, "clock": clock, "pushed": pushed, "words": words, "vectors": vectors}
        run_state_machine_as_test(type("Lease", (LeaseMachine,), attributes), settings=SETTINGS)


@pytest.fixture
def owner(make_user: Callable[..., Any], make_workspace: Callable[..., Any]) -> Membership:
    return Membership.objects.select_related("workspace").get(workspace=make_workspace(make_user()))


@pytest.mark.django_db
def test_a_task_whose_embedder_failed_after_it_lost_its_file_leaves_the_new_holder_alone(
    owner: Membership, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The machine's stale ``release`` through the real caller: the pipeline releases by file id after the
    embedder gave up (``ingestion._safely``), which must not take the lease of the worker that took the file over
    while this one waited, nor write its error on that worker's file."""
    corpus = services.corpus_create(actor=owner, name="Market")
    upload = services.upload_create(
        actor=owner,
        corpus=corpus,
        files=[services.IncomingFile("globex.txt", [b"Globex raised its prices."])],
        enqueue=False,
    )
    item = UploadFile.objects.get(upload=upload)
    taken: list[UploadFile] = []

    def waited_too_long(self: Any, doc_ids: Any, **kwargs: Any) -> None:
        UploadFile.objects.filter(pk=item.pk).update(claimed_until=None)  # the sweep released the file ...
        again = contextvars.Context().run(lease.claim, item.pk, stage=Stage.SEARCHABLE)  # ... another task took it
        assert again is not None
        taken.append(again)
        raise EmbeddingUnavailable("timed out")

    monkeypatch.setattr(type(corpus_index(corpus)), "refine", waited_too_long)
    with pytest.raises(EmbeddingUnavailable):  # the task retries (and finds the file taken)
        ingestion.upload_file_ingest_safely(upload_file_id=item.pk)
    item.refresh_from_db()
    assert (item.stage, item.claimed_until, item.error) == (Stage.SEARCHABLE, taken[0].claimed_until, "")
