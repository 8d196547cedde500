"""The inference backends by name (INFERENCE_BACKEND, ``evaluate --backend``): each a module's ``factory``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from research.harness.ports import InferenceBackend
from research.protocol.registry import Registry


@dataclass(frozen=True)
class InferenceSettings:
    """What a backend may need; each takes what it uses (only the openai backend reads these today)."""

    base_url: str | None = None  # the OpenAI-compatible server's root (vLLM)
    model: str = "chromadb/context-1"
    api_key: str | None = None
    timeout: float = 120.0  # seconds per network read or write
    temperature: float | None = None  # None: the server's default
    # Each rollout asks about one named subject (a report's facets: "What does Halvorix charge?"), not a chain of
    # entities: a backend that follows names found in results from hop to hop by rule (the heuristic) need not.
    single_subject: bool = False


BackendFactory = Callable[[int], InferenceBackend]  # a backend for each rollout (its number)
FactoryMaker = Callable[[InferenceSettings], BackendFactory]

# Adding a backend: a module with the backend and ``factory(settings) -> BackendFactory``, and a line here.
BACKENDS: Registry[FactoryMaker] = Registry(
    "inference backend",
    {
        "heuristic": "research.inference.heuristic:factory",
        "scripted": "research.inference.scripted:factory",
        "openai": "research.inference.openai_compat:factory",
    },
)
# The scripted backend completes with what its first search returned: it exists to test and evaluate the loop
# (``evaluate --backend scripted``), never to answer a team's question, so the product does not offer it.
EVALUATION_ONLY = frozenset({"scripted"})
PRODUCT_BACKENDS = tuple(name for name in BACKENDS.names if name not in EVALUATION_ONLY)


def backend_factory(name: str, settings: InferenceSettings) -> BackendFactory:
    """The backends of ``name``, one per rollout; ValueError for an unknown name or a missing setting."""
    return BACKENDS.load(name)(settings)
