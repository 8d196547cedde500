"""The harness's three doors out: an inference backend, a corpus, and an event sink."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from research.harness.messages import Message, ModelTurn, ToolSpec

if TYPE_CHECKING:
    from research.protocol.events import Event, PageRef, WebHit


class InferenceError(RuntimeError):
    """A permanent failure of the model call (bad request, unknown model, malformed reply): do not retry."""


class InferenceUnavailable(InferenceError):
    """A transient failure (connection refused, timeout, 5xx) that outlasted the backend's own retries."""


class ModelMisbehaving(InferenceError):
    """The server answered, but its model's turns could not be used several times in a row (see
    ``HarnessConfig.max_unusable_turns``)."""


DeltaCallback = Callable[[str], None]


class InferenceBackend(Protocol):
    """Given the messages and tool specs, return the model's next turn."""

    @property
    def name(self) -> str: ...

    async def complete(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec], *, on_delta: DeltaCallback | None = None
    ) -> ModelTurn: ...


@dataclass(frozen=True)
class CorpusHit:
    """One chunk as a corpus tool returns it."""

    chunk_id: str
    doc_id: str
    title: str
    score: float
    text: str
    truncated: bool = False
    # The hit's rendered wire tokens, when the corpus counted them, and the name of the counter that did:
    # the harness uses the count instead of re-counting when its own counter has that name.
    tokens: int | None = None
    counter: str = ""


@dataclass(frozen=True)
class CorpusResult:
    hits: tuple[CorpusHit, ...]
    omitted: int = 0  # ranked hits left out to respect the token budget
    truncated: bool = False  # the last hit was cut (read_document)
    note: str = ""


class CorpusToolError(ValueError):
    """A mistake in a tool call the model can correct (an invalid regex, an unknown document)."""


class Corpus(Protocol):
    """Search, grep and read one run's corpus. Never returns a chunk id in ``exclude``; stays within ``budget``."""

    def search(self, query: str, *, exclude: frozenset[str], budget: int) -> CorpusResult: ...

    def grep(self, pattern: str, *, exclude: frozenset[str], budget: int) -> CorpusResult: ...

    def read_document(self, doc_id: str, *, query: str, exclude: frozenset[str], budget: int) -> CorpusResult: ...


class WebToolError(ValueError):
    """A web call that could not be done (the provider is down, the search failed); told to the model."""


@dataclass(frozen=True)
class FetchedPage:
    """What ``fetch_url`` did, and the page's unseen chunks when it has some (fetched, unchanged or cached)."""

    page: PageRef
    result: CorpusResult | None = None


class Web(Protocol):
    """Web search and page fetching for a run that has web sources. The implementation applies every rule
    (addresses, robots.txt, size, rate) whoever asks: a page's text cannot widen what the agent may fetch."""

    def search(self, query: str) -> tuple[WebHit, ...]: ...

    def fetch(self, url: str, *, query: str, exclude: frozenset[str], budget: int) -> FetchedPage: ...


class EventSink(Protocol):
    def emit(self, event: Event) -> None: ...


class ListSink:
    """Collects events in memory: the in-memory ``EventSink`` of tests, benchmarks, evaluation and the CLI."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)
