"""A hypothesis state machine over the run lifecycle: start, claim, renew, emit, expire, sweep, cancel, finish.

It drives the real services (``run_start``, ``run_claim``, ``JournalSink``, ``events_store_leased``,
``run_sweep``, ``run_cancel``, ``run_complete``) against the real database, keeps a model of what each run
must look like, and after every step checks the journal's invariants (AGENTS.md, "Run events") over the
database: seqs 1..last_seq that never change once stored; one lease holder, whose predecessors' writes
are refused; terminal states that stay final; restarts that supersede exactly what came before them.

Time is driven, not waited for: the lease is long (no lease lapses by itself during an example) and a
worker's death is modelled by moving ``claimed_until`` into the past; the sweeper gets ``now``. The sink's
writer thread is asynchronous, so a sink step starts a sink, emits, and closes it: ``close`` unregisters it
from the heartbeat and flushes, so when it returns the writer has stored what it would and neither stores
nor renews for that claim again, and every step's effect is known before the invariants run. The writer's
own storing call (``events_store_leased``) is also driven directly, with or without events, as a
synchronous store-and-renew.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    initialize,
    invariant,
    multiple,
    precondition,
    rule,
    run_state_machine_as_test,
)

from research.models import Corpus, Membership, Run, RunEvent, RunStatus
from research.protocol.events import TurnStarted
from research.runs import services, sweeper
from research.runs.execution import Outcome, run_complete
from research.runs.journal import LeasedBatch, UnreadableEvent, events_store_leased, stored
from research.runs.lease import Claim, lease_length, run_claim
from research.runs.sink import JournalSink

MAX_ATTEMPTS = 3  # small, so that running out of attempts is reachable in a few steps
MAX_RUNS = 3
TERMINAL = {RunStatus.FINISHED, RunStatus.FAILED, RunStatus.CANCELLED}
ENDINGS = st.sampled_from([RunStatus.FINISHED, RunStatus.FAILED, RunStatus.CANCELLED])
SETTINGS = hypothesis_settings(max_examples=40, stateful_step_count=25, deadline=None)


@dataclass
class Expected:
    """What one run must look like in the database, as the machine's model has it."""

    status: str = RunStatus.QUEUED
    attempts: int = 0
    owner: Claim | None = None  # the claim holding the lease (while running)
    expired: bool = False  # its lease moved into the past: the worker is presumed dead
    cancel_requested: bool = False
    journal: list[tuple[str, int]] = field(default_factory=list)  # (type, attempt) of its events, in seq order

    def holds(self, claim: Claim) -> bool:
        return self.status == RunStatus.RUNNING and self.owner == claim

    def claimable(self) -> bool:
        return (self.status == RunStatus.QUEUED or lapsed(self)) and self.attempts < MAX_ATTEMPTS


def live(model: Expected) -> bool:
    return model.status == RunStatus.RUNNING and not model.expired


def lapsed(model: Expected) -> bool:
    return model.status == RunStatus.RUNNING and model.expired


def requeued(model: Expected) -> bool:
    return model.status == RunStatus.QUEUED and model.attempts > 0


Snapshot = dict[int, tuple[Run, list[RunEvent]]]


class LifecycleMachine(RuleBasedStateMachine):
    """Set ``actor``, ``corpus`` and ``sent`` (where the patched ``run_enqueue`` records) in a subclass."""

    actor: Membership
    corpus: Corpus
    sent: list[int]

    runs = Bundle("runs")
    claims = Bundle("claims")  # every claim ever granted, stale ones included

    def __init__(self) -> None:
        super().__init__()
        Run.objects.all().delete()  # examples share the database: the sweeper must see this example's runs only
        self.sent.clear()
        self.expected: dict[int, Expected] = {}
        self.to_send: list[int] = []  # the run ids that must have been enqueued, as a multiset
        self.seen: dict[tuple[int, int], tuple[str, int, dict[str, Any]]] = {}  # (run, seq) -> the stored event
        self.terminal: dict[int, tuple[str, int, int]] = {}  # run -> (status, last_seq, events) when it ended
        self.granted: list[Claim] = []

    # --- rules ----------------------------------------------------------------------------------
    def _start(self) -> int:
        run = services.run_start(actor=self.actor, question="Who sponsors Halyard?", corpora=[self.corpus])
        self.expected[run.pk] = Expected()
        self.to_send.append(run.pk)
        return run.pk

    @initialize(target=runs)
    def first(self) -> int:
        """Every example has a run (hypothesis's swarm testing may switch ``start`` off for a whole example)."""
        return self._start()

    @precondition(lambda self: len(self.expected) < MAX_RUNS)
    @rule(target=runs)
    def start(self) -> int:
        return self._start()

    def _claim(self, run_id: int) -> Any:
        model = self.expected[run_id]
        claim = run_claim(run_id=run_id)
        if not model.claimable():
            assert claim is None, f"run {run_id} ({model.status}, expired={model.expired}) was claimed again"
            return multiple()
        assert claim is not None, f"run {run_id} ({model.status}, expired={model.expired}) could not be claimed"
        assert claim.attempt == model.attempts + 1
        model.status, model.attempts, model.owner, model.expired = RunStatus.RUNNING, claim.attempt, claim, False
        self.granted.append(claim)
        if claim.attempt > 1:
            model.journal.append(("run_restarted", claim.attempt))
        return claim

    def _pick(self, data: st.DataObject, which: Callable[[Expected], bool]) -> int:
        return data.draw(st.sampled_from(sorted(pk for pk, model in self.expected.items() if which(model))))

    @rule(target=claims, run_id=runs)
    def claim(self, run_id: int) -> Any:
        """Any run, in any state: a worker gets it only if it is queued, or its lease lapsed, with attempts left
        (a second worker while a live lease exists is refused, and so is a claim of a finished run)."""
        return self._claim(run_id)

    @precondition(lambda self: any(requeued(model) for model in self.expected.values()))
    @rule(target=claims, data=st.data())
    def restart(self, data: st.DataObject) -> Any:
        """The worker that gets the message the sweeper sent restarts the run as a new attempt."""
        return self._claim(self._pick(data, requeued))

    @precondition(lambda self: any(lapsed(model) for model in self.expected.values()))
    @rule(target=claims, data=st.data())
    def take_over(self, data: st.DataObject) -> Any:
        """A redelivered message reaches a worker before the sweeper ran: it takes over the lapsed lease."""
        return self._claim(self._pick(data, lapsed))

    @rule(claim=claims, turns=st.integers(1, 3))
    def emit_through_sink(self, claim: Claim, turns: int) -> None:
        """The worker's path: the sink queues, the writer thread stores under the lease (renewing it)."""
        model = self.expected[claim.run_id]
        holds = model.holds(claim)
        sink = JournalSink(claim).start()
        for turn in range(1, turns + 1):
            sink.emit(TurnStarted(rollout=0, turn=turn))
        sink.close()
        lost, cancelled = sink.lost.is_set(), sink.cancelled()
        assert lost == (not holds), f"attempt {claim.attempt} of run {claim.run_id}: holds={holds} but lost={lost}"
        assert cancelled == (model.cancel_requested or not holds), f"run {claim.run_id}: cancelled={cancelled}"
        if holds:
            model.journal.extend([("turn_started", claim.attempt)] * turns)
            model.expired = False

    @rule(claim=claims, turns=st.integers(0, 2))
    def store_leased(self, claim: Claim, turns: int) -> None:
        """The writer's storing call made directly: store under the lease and renew it (no events: a renewal)."""
        model = self.expected[claim.run_id]
        batch = LeasedBatch(
            claim.run_id, claim.owner, claim.attempt, [TurnStarted(rollout=1, turn=t) for t in range(turns)]
        )
        result = events_store_leased([batch], claimed_until=timezone.now() + lease_length())
        written = claim.run_id in result
        assert written == model.holds(claim), f"attempt {claim.attempt} of run {claim.run_id}: written={written}"
        if written:
            first = len(model.journal) + 1
            assert [event.seq for event in result[claim.run_id]] == list(range(first, first + turns))
            model.journal.extend([("turn_started", claim.attempt)] * turns)
            model.expired = False

    def _superseded(self) -> list[Claim]:
        """Claims of running runs that another attempt holds now: only the lease owner check refuses them."""
        running = [claim for claim in self.granted if self.expected[claim.run_id].status == RunStatus.RUNNING]
        return [claim for claim in running if not self.expected[claim.run_id].holds(claim)]

    @precondition(lambda self: self._superseded())
    @rule(data=st.data(), ending=ENDINGS)
    def superseded_attempt_writes(self, data: st.DataObject, ending: RunStatus) -> None:
        """The worker that was presumed dead is alive and carries on: every write it tries is refused.

        (The rules above also draw stale claims, but only now and then; this one picks them on purpose.)"""
        claim = data.draw(st.sampled_from(self._superseded()))
        self.emit_through_sink(claim, 1)
        self.store_leased(claim, 1)
        self.finish(claim, ending)

    @precondition(lambda self: any(live(model) for model in self.expected.values()))
    @rule(data=st.data())
    def expire(self, data: st.DataObject) -> None:
        """The worker holding a run dies: its lease runs out, as if it had not been renewed."""
        run_id = self._pick(data, live)
        Run.objects.filter(pk=run_id).update(claimed_until=timezone.now() - timedelta(seconds=1))
        self.expected[run_id].expired = True

    @precondition(lambda self: any(lapsed(model) for model in self.expected.values()))
    @rule()
    def sweep(self) -> None:
        """The periodic sweeper, once a lease has lapsed (it must leave live and ended runs alone)."""
        gone = {pk: model for pk, model in self.expected.items() if lapsed(model)}
        report = sweeper.run_sweep(now=timezone.now())
        cancelled = sorted(pk for pk, model in gone.items() if model.cancel_requested)
        failed = sorted(pk for pk, model in gone.items() if model.attempts >= MAX_ATTEMPTS and pk not in cancelled)
        back = sorted(set(gone) - set(failed) - set(cancelled))
        found = (sorted(report.cancelled), sorted(report.failed), sorted(report.requeued), report.reenqueued)
        assert found == (cancelled, failed, back, [])
        ends = {
            **dict.fromkeys(cancelled, ("run_cancelled", RunStatus.CANCELLED)),
            **dict.fromkeys(failed, ("run_failed", RunStatus.FAILED)),
            **dict.fromkeys(back, ("run_requeued", RunStatus.QUEUED)),
        }
        for pk, model in gone.items():
            event, model.status = ends[pk]
            model.journal.append((event, model.attempts))
            model.owner, model.expired = None, False
        self.to_send.extend(back)

    @rule(run_id=runs)
    def cancel(self, run_id: int) -> None:
        """A member cancels: a queued run at once, a running one by a request its worker sees."""
        model = self.expected[run_id]
        run = Run.objects.get(pk=run_id)  # as the view does: the run as it is now
        if model.status in TERMINAL:
            with pytest.raises(ValidationError):
                services.run_cancel(actor=self.actor, run=run, reason="enough")
            return
        result = services.run_cancel(actor=self.actor, run=run, reason="enough")
        attempt = max(model.attempts, 1)
        if model.status == RunStatus.QUEUED:
            model.status = RunStatus.CANCELLED
            model.journal.append(("run_cancelled", attempt))
        elif not model.cancel_requested:
            model.journal.append(("cancel_requested", attempt))
        model.cancel_requested = True
        assert result.status == model.status

    @rule(claim=claims, status=ENDINGS)
    def finish(self, claim: Claim, status: RunStatus) -> None:
        """The attempt records how the run ended: only while it still holds the run."""
        model = self.expected[claim.run_id]
        result = run_complete(claim=claim, outcome=Outcome(status, "the attempt ended"), tokens=5)
        if not model.holds(claim):
            assert result == "lost", f"attempt {claim.attempt} of run {claim.run_id} ended the run: {result}"
            return
        assert result == str(status)
        model.status, model.owner, model.expired = status, None, False

    # --- invariants, over the database -----------------------------------------------------------
    def _database(self) -> Snapshot:
        runs = {run.pk: run for run in Run.objects.filter(pk__in=self.expected)}
        events: dict[int, list[RunEvent]] = defaultdict(list)
        for event in RunEvent.objects.filter(run_id__in=self.expected).order_by("run_id", "seq"):
            events[event.run_id].append(event)
        assert set(runs) == set(self.expected)
        return {pk: (run, events[pk]) for pk, run in runs.items()}

    @invariant()
    def seqs_run_from_one_to_last_seq_and_never_change(self) -> None:
        database = self._database()
        for pk, (run, events) in database.items():
            assert [e.seq for e in events] == list(range(1, run.last_seq + 1)), f"run {pk}: not 1..{run.last_seq}"
            for event in events:
                assert not isinstance(stored(event).event(), UnreadableEvent), f"run {pk} #{event.seq}"
                before = self.seen.setdefault((pk, event.seq), (event.type, event.attempt, event.payload))
                assert before == (event.type, event.attempt, event.payload), f"run {pk} #{event.seq} changed"
        assert {key[0] for key in self.seen} <= set(self.expected)
        assert sum(run.last_seq for run, _ in database.values()) == len(self.seen), "a stored event vanished"

    @invariant()
    def one_lease_holder_and_no_stale_attempt_writes(self) -> None:
        now = timezone.now()
        for pk, (run, events) in self._database().items():
            model = self.expected[pk]
            running = run.status == RunStatus.RUNNING
            assert bool(run.lease_owner) == running == (run.claimed_until is not None), f"run {pk}"
            assert run.lease_owner == (model.owner.owner if model.owner else ""), f"run {pk}: not the model's holder"
            assert not running or (run.claimed_until > now) == (not model.expired), f"run {pk}: lease"
            attempts = [event.attempt for event in events]
            assert attempts == sorted(attempts), f"run {pk}: an older attempt wrote after a newer one: {attempts}"
            assert all(attempt <= max(run.attempts, 1) for attempt in attempts), f"run {pk}: {attempts}"

    @invariant()
    def terminal_states_are_final(self) -> None:
        for pk, (run, events) in self._database().items():
            now = (run.status, run.last_seq, len(events))
            if pk in self.terminal:
                assert now == self.terminal[pk], f"run {pk} changed after it ended"
            elif run.status in TERMINAL:
                self.terminal[pk] = now

    @invariant()
    def each_restart_follows_everything_before_its_attempt(self) -> None:
        for pk, (run, events) in self._database().items():
            restarts = [event for event in events if event.type == "run_restarted"]
            assert [e.attempt for e in restarts] == list(range(2, run.attempts + 1)), f"run {pk}: restarts {restarts}"
            for restart in restarts:
                assert restart.payload["attempt"] == restart.attempt
                assert restart.payload["superseded_through"] == restart.seq - 1, f"run {pk} #{restart.seq}"
                first = min(event.seq for event in events if event.attempt == restart.attempt)
                assert first == restart.seq, f"run {pk}: attempt {restart.attempt} wrote before its run_restarted"

    @invariant()
    def the_database_matches_the_model(self) -> None:
        for pk, (run, events) in self._database().items():
            model = self.expected[pk]
            assert (run.status, run.attempts, run.cancel_requested) == (
                model.status,
                model.attempts,
                model.cancel_requested,
            ), f"run {pk}: not the model's state"
            journal = [(event.type, event.attempt) for event in events]
            assert journal == model.journal, f"run {pk}: the journal is not the model's"
        assert sorted(self.sent) == sorted(self.to_send)


@pytest.mark.django_db(transaction=True)
def test_the_run_lifecycle_keeps_the_journal_invariants(owner, monkeypatch, settings) -> None:  # type: ignore[no-untyped-def]
    settings.RUN_LEASE_SECONDS = 600  # no lease lapses by itself: the machine expires them
    settings.RUN_MAX_ATTEMPTS = MAX_ATTEMPTS
    sent: list[int] = []
    monkeypatch.setattr(services, "run_enqueue", sent.append)
    monkeypatch.setattr(sweeper, "run_enqueue", sent.append)
    corpus = Corpus.objects.create(workspace=owner.workspace, name="Bare", slug="bare")  # runs never search it
    machine = type("Lifecycle", (LifecycleMachine,), {"actor": owner, "corpus": corpus, "sent": sent})
    run_state_machine_as_test(machine, settings=SETTINGS)
