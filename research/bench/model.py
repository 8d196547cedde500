"""A simulated model latency for benchmarks: the offline heuristic backend made as slow per call as a served
model (the time a vLLM call takes is what concurrent rollouts and runs overlap)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from research.inference.heuristic import HeuristicBackend

DELAY_VARIABLE = "BENCH_MODEL_DELAY_S"  # read by ``install`` in a worker started by a benchmark


@contextmanager
def model_latency(seconds: float) -> Iterator[None]:
    """Every heuristic model call takes ``seconds`` longer while inside."""
    original = HeuristicBackend.complete
    slow_down(seconds)
    try:
        yield
    finally:
        HeuristicBackend.complete = original  # type: ignore[method-assign]


def install() -> None:
    """A worker warm-up (``WORKER_WARMUP=...,research.bench.model.install``): every heuristic model call in this
    process takes ``BENCH_MODEL_DELAY_S`` seconds longer, for good."""
    slow_down(float(os.environ.get(DELAY_VARIABLE, "0")))


def slow_down(seconds: float) -> None:
    """Every heuristic model call in this process takes ``seconds`` longer from now on."""
    original = HeuristicBackend.complete

    async def slow(self: HeuristicBackend, messages: Sequence[Any], tools: Sequence[Any], **kwargs: Any) -> Any:
        await asyncio.sleep(seconds)
        return await original(self, messages, tools, **kwargs)

    HeuristicBackend.complete = slow  # type: ignore[method-assign]
