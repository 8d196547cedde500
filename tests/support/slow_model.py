"""A worker warm-up for tests (``WORKER_WARMUP=tests.support.slow_model.install``): every call of the
heuristic backend takes a second longer (``SLOW_MODEL_SECONDS`` to change it), so a test can kill the worker or
cancel a run while it is in the middle."""

from __future__ import annotations

import os
from typing import Any

DELAY_SECONDS = 1.0


def install() -> None:
    from research.bench.model import slow_down

    slow_down(float(os.environ.get("SLOW_MODEL_SECONDS", DELAY_SECONDS)))


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
