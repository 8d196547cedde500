"""Worker warm-ups (named in settings.WORKER_WARMUP): load expensive clients before the first task."""

from __future__ import annotations

from research.composition import chroma_client


def open_chroma() -> None:
    chroma_client().heartbeat()
