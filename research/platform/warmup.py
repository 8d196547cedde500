"""Worker warm-ups (named in settings.WORKER_WARMUP): load expensive clients before the first task."""

from __future__ import annotations

from research.platform.composition import chroma_client


def open_chroma() -> None:
    chroma_client().heartbeat()


def load_embedder() -> None:
    from research.platform.composition import embedder, token_counter

    embedder().embed_query("warm up")
    token_counter().count("warm up")


def load_places() -> None:
    """The place tables the ICP judge and the criteria page read (cities, countries, first-level regions)."""
    from research.writing.places import load

    load()
