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


def install_slow_embedding() -> None:
    """Every batch of a file's vector stage (``HybridCorpus._move``) waits ``SLOW_EMBED_SECONDS`` (default 1)
    first, so a test can kill the worker while a file is half-embedded."""
    import time

    from research.retrieval.corpus import HybridCorpus

    original = HybridCorpus._move

    def slow(self: HybridCorpus, doc_ids: list[str], chunks: list[Any]) -> int:
        time.sleep(float(os.environ.get("SLOW_EMBED_SECONDS", DELAY_SECONDS)))
        return original(self, doc_ids, chunks)

    HybridCorpus._move = slow  # type: ignore[method-assign]
