"""A worker warm-up for tests (``WORKER_WARMUP=tests.support.slow_model.install``): every call of the
heuristic backend takes a second longer, so a test can kill the worker while a run is in the middle."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

DELAY_SECONDS = 1.0


def install() -> None:
    from research.inference.heuristic import HeuristicBackend

    original = HeuristicBackend.complete

    async def slow(self: HeuristicBackend, messages: Sequence[Any], tools: Sequence[Any], **kwargs: Any) -> Any:
        await asyncio.sleep(DELAY_SECONDS)
        return await original(self, messages, tools, **kwargs)

    HeuristicBackend.complete = slow  # type: ignore[method-assign]
