"""Harness benchmarks: overhead per turn at a full context, prune cost, memory per run, concurrency of rollouts."""

from __future__ import annotations

import asyncio
import itertools
import random
import re
import statistics
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from research.harness.budget import BudgetConfig
from research.harness.config import HarnessConfig
from research.harness.context import Context, Counter, Observation
from research.harness.messages import Message, ModelTurn, ToolSpec
from research.harness.ports import DeltaCallback, ListSink
from research.harness.prompts import SYSTEM_PROMPT
from research.harness.run import run_research
from research.harness.tools import TOOL_SPECS
from research.inference.scripted import call, turn
from research.protocol import wire
from research.protocol.events import TurnRecorded
from research.retrieval.memory import MemoryCorpus

QUESTION = "Which supplier did the regional office choose after the audit, and who signed the contract?"
_VOCABULARY = tuple(dict.fromkeys(re.findall(r"[a-z]{3,}", SYSTEM_PROMPT.lower())))  # plain English words
_USAGE = re.compile(r"\[Token usage: ([\d,]+)/")
Policy = Callable[[Sequence[Message]], ModelTurn]


@dataclass(frozen=True)
class BenchSettings:
    budget: int = 32_768
    turns: int = 24  # turns of the overhead run (the last one completes)
    chunk_tokens: int = 480
    search_tokens: int = 3_000
    fill_fraction: float = 0.75  # the overhead run keeps its context at or above this share of the budget
    latency_s: float = 0.2  # simulated model latency of the rollout run
    rollout_turns: int = 5
    prune_repeats: int = 7
    counter_name: str = ""  # the hits carry counts by this counter, trusted by the harness (as the product's are)


def synthetic_text(rng: random.Random, tokens: int, count: Counter) -> str:
    """English-looking text of about ``tokens`` tokens by ``count`` (one measured correction)."""
    first = " ".join(rng.choice(_VOCABULARY) for _ in range(tokens))
    words = max(1, round(tokens * tokens / max(1, count(first))))
    return " ".join(rng.choice(_VOCABULARY) for _ in range(words))


@dataclass
class BenchBackend:
    """A scripted model that sleeps ``latency`` per call and stamps when each call enters and leaves."""

    policy: Policy
    latency: float = 0.0
    stamps: list[tuple[float, float]] = field(default_factory=list)

    @property
    def name(self) -> str:
        return "bench"

    async def complete(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec], *, on_delta: DeltaCallback | None = None
    ) -> ModelTurn:
        entered = time.perf_counter()
        if self.latency:
            await asyncio.sleep(self.latency)
        result = self.policy(messages)
        self.stamps.append((entered, time.perf_counter()))
        return result


def _fresh_chunk_ids(messages: Sequence[Message]) -> list[str]:
    """Chunk ids in the tool messages since the model's last call."""
    fresh = list(itertools.takewhile(lambda message: message.role == "tool", reversed(messages)))
    return [chunk.chunk_id for message in reversed(fresh) for chunk in wire.parse(message.content)]


@dataclass
class FillingPolicy:
    """Searches until the context holds ``target`` tokens, then each turn prunes its oldest chunks and searches
    again (the context stays full), and completes on the last turn. Records the usage it saw at each call."""

    settings: BenchSettings
    live: list[str] = field(default_factory=list)
    used: list[int] = field(default_factory=list)

    def __call__(self, messages: Sequence[Message]) -> ModelTurn:
        self.live.extend(_fresh_chunk_ids(messages))
        usage = next((found for m in reversed(messages) if (found := _USAGE.search(m.content))), None)
        used, step = int(usage.group(1).replace(",", "")) if usage else 0, sum(m.role == "assistant" for m in messages)
        self.used.append(used)
        settings = self.settings
        if step + 1 >= settings.turns:
            return turn(call("complete", {"ranked_chunk_ids": self.live[-10:]}))
        target = int(settings.budget * settings.fill_fraction)
        if used < target:
            calls = 1 if target - used <= settings.search_tokens else 2
            return turn(*(call("search_corpus", {"query": f"fill {step} {n}"}) for n in range(calls)))
        drop = settings.search_tokens // settings.chunk_tokens + 1
        pruned, self.live = self.live[:drop], self.live[drop:]
        return turn(call("search_corpus", {"query": f"more {step}"}), call("prune_chunks", {"chunk_ids": pruned}))


def bench_corpus(
    *, chunks: int, chunk_tokens: int, count: Counter, seed: int = 7, counter_name: str = ""
) -> MemoryCorpus:
    """Single-chunk documents of synthetic text; searches return unseen chunks from a place that depends on the
    query (so concurrent searches differ), up to 10 and within the budget, their hits counted as the product's."""
    rng = random.Random(seed)  # noqa: S311 - reproducible filler text, not a secret
    documents = {f"d{n}": [synthetic_text(rng, chunk_tokens, count)] for n in range(chunks)}
    titles = {f"d{n}": f"Document {n}" for n in range(chunks)}
    return MemoryCorpus(
        documents,
        ranking="rotation",
        per_call=10,
        titles=titles,
        count=count,
        counter_name=counter_name,
        record=False,  # the calls would stay alive and count in the run's peak memory
    )


def _corpus(settings: BenchSettings, count: Counter) -> MemoryCorpus:
    per_turn = 2 * (settings.search_tokens // settings.chunk_tokens + 1)
    return bench_corpus(
        chunks=settings.turns * per_turn + 10,
        chunk_tokens=settings.chunk_tokens,
        count=count,
        counter_name=settings.counter_name,
    )


def timed_run(
    settings: BenchSettings, corpus: MemoryCorpus, count: Counter, backends: Sequence[BenchBackend]
) -> tuple[float, ListSink]:
    """A run with one rollout per backend: (wall seconds, the events)."""
    budget, sink = BudgetConfig(limit=settings.budget), ListSink()
    config = HarnessConfig(
        budget=budget,
        rollouts=len(backends),
        max_turns=settings.turns,
        search_tokens=settings.search_tokens,
        counter_name=settings.counter_name,
    )
    started = time.perf_counter()
    asyncio.run(
        run_research(
            question=QUESTION, corpus=corpus, backend_for=backends.__getitem__, config=config, sink=sink, count=count
        )
    )
    return time.perf_counter() - started, sink


def overhead(settings: BenchSettings, count: Counter) -> dict[str, Any]:
    """Harness time per turn (the run's wall time less the time inside the model), overall and at a full context."""
    corpus, policy = _corpus(settings, count), FillingPolicy(settings)
    timed_run(settings, corpus, count, [BenchBackend(FillingPolicy(settings))])  # warm-up
    backend = BenchBackend(policy)
    wall, sink = timed_run(settings, corpus, count, [backend])
    stamps = backend.stamps
    model = sum(left - entered for entered, left in stamps)
    gaps = [(stamps[k + 1][0] - stamps[k][1]) * 1000 for k in range(len(stamps) - 1)]
    full = [
        gap for gap, used in zip(gaps, policy.used[1:], strict=True) if used >= settings.budget * settings.fill_fraction
    ]
    contexts = [e.context_tokens for e in sink.events if isinstance(e, TurnRecorded)]
    return {
        "overhead_ms_per_turn": (wall - model) * 1000 / max(1, len(stamps)),
        "overhead_ms_per_turn_p50": statistics.median(gaps) if gaps else None,
        "overhead_ms_per_turn_full_context_p50": statistics.median(full) if full else None,
        "overhead_turns": len(stamps),
        "full_context_turns": len(full),
        "context_tokens_max": max(contexts, default=0),
        "context_tokens_final": contexts[-1] if contexts else 0,
    }


def _full_context(settings: BenchSettings, corpus: MemoryCorpus, count: Counter) -> Context:
    """A context whose one search result fills the budget."""
    context = Context(system=SYSTEM_PROMPT, question=QUESTION, tools=TOOL_SPECS, count=count)
    room = settings.budget - context.estimate() - 64
    hits = corpus.search("", exclude=frozenset(), budget=room, limit=len(corpus.hits)).hits
    chunks = [wire.WireChunk(h.chunk_id, h.doc_id, h.title, h.score, h.text) for h in hits]
    context.add_observation(Observation(call_id="full", tool="search_corpus", header="", chunks=chunks))
    return context


def prune_cost(settings: BenchSettings, count: Counter) -> dict[str, Any]:
    """Median time of ``Context.prune`` of one search result's chunks on a full context (a fresh one each time)."""
    corpus, times, pruned, tokens = _corpus(settings, count), [], 0, 0
    drop = settings.search_tokens // settings.chunk_tokens + 1
    for _ in range(settings.prune_repeats):
        context = _full_context(settings, corpus, count)
        tokens = context.estimate()
        started = time.perf_counter()
        pruned = len(context.prune(list(context.chunks)[-drop:]).pruned)
        times.append((time.perf_counter() - started) * 1000)
    return {"prune_ms": statistics.median(times), "prune_chunks": pruned, "prune_context_tokens": tokens}


def peak_memory(settings: BenchSettings, count: Counter) -> dict[str, Any]:
    """Peak Python memory (tracemalloc) of one filling run, the corpus excluded."""
    corpus = _corpus(settings, count)
    tracemalloc.start()
    try:
        timed_run(settings, corpus, count, [BenchBackend(FillingPolicy(settings))])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return {"peak_memory_mb_per_run": peak / 2**20}


def _rollouts_wall(settings: BenchSettings, count: Counter, rollouts: int) -> float:
    """Each rollout: ``rollout_turns`` turns of the filling policy, each model call ``latency_s`` long."""
    each = replace(settings, turns=settings.rollout_turns)
    backends = [BenchBackend(FillingPolicy(each), settings.latency_s) for _ in range(rollouts)]
    return timed_run(each, _corpus(each, count), count, backends)[0]


def rollout_concurrency(settings: BenchSettings, count: Counter) -> dict[str, Any]:
    """Wall time of 4 rollouts against 1, the same turns each, with simulated model latency."""
    one, four = _rollouts_wall(settings, count, 1), _rollouts_wall(settings, count, 4)
    return {"rollout1_wall_s": one, "rollouts4_wall_s": four, "rollouts4_wall_ratio": four / one}


def bench_harness(settings: BenchSettings, count: Counter, *, counter_name: str = "") -> dict[str, Any]:
    """Every harness benchmark; the report's keys are documented in the functions above."""
    settings = replace(settings, counter_name=counter_name)
    return {
        **overhead(settings, count),
        **prune_cost(settings, count),
        **peak_memory(settings, count),
        **rollout_concurrency(settings, count),
        "settings": {**asdict(settings), "counter": counter_name},
    }
