"""A worker warm-up for tests (``WORKER_WARMUP=tests.support.slow_model.install``): every call of the
heuristic backend takes a second longer (``SLOW_MODEL_SECONDS`` to change it), so a test can kill the worker or
cancel a run while it is in the middle."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence
from typing import Any

DELAY_SECONDS = 1.0


def install() -> None:
    from research.inference.heuristic import HeuristicBackend

    original = HeuristicBackend.complete

    async def slow(self: HeuristicBackend, messages: Sequence[Any], tools: Sequence[Any], **kwargs: Any) -> Any:
        await asyncio.sleep(float(os.environ.get("SLOW_MODEL_SECONDS", DELAY_SECONDS)))
        return await original(self, messages, tools, **kwargs)

    HeuristicBackend.complete = slow  # type: ignore[method-assign]
