"""The model's context: an append-only transcript whose tool results can have chunks pruned out of them.

Tool results are kept as parts (a header, chunks in the shared wire format, a footer) so that a
pruned chunk's text can leave every later prompt, replaced by a short stub that keeps the structure.
The full unpruned trajectory is kept alongside for metrics.

Token accounting is incremental: a message is counted once when it is added, an observation as the
sum of its parts (header, each chunk or its stub, footer, joined by blank lines, so counts add up for
whitespace-splitting counters), and a prune or a new footer changes the running total by exactly
the difference. The estimate of the whole context is therefore O(1) per turn, whatever its size.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from research.harness.messages import Message, ToolSpec
from research.protocol import wire

MESSAGE_OVERHEAD = 4  # tokens of role and separators per message, for estimates

Counter = Callable[[str], int]


@dataclass
class Observation:
    """A tool message whose chunks can be pruned."""

    call_id: str
    tool: str
    header: str
    chunks: list[wire.WireChunk]
    footer: str = ""
    pruned: set[str] = field(default_factory=set)
    known_tokens: dict[str, int] = field(default_factory=dict)  # chunk id -> rendered tokens, counted by the corpus
    _sent: tuple[tuple[str, int], Message] | None = field(default=None, repr=False, compare=False)

    def parts(self, *, unpruned: bool = False) -> list[str]:
        hidden = set() if unpruned else self.pruned
        body = [wire.render_stub(c.chunk_id) if c.chunk_id in hidden else wire.render(c) for c in self.chunks]
        return [part for part in (self.header, *body, self.footer) if part]

    def render(self, *, unpruned: bool = False) -> str:
        return "\n\n".join(self.parts(unpruned=unpruned))

    def as_message(self, *, unpruned: bool = False) -> Message:
        if unpruned:
            return Message(role="tool", content=self.render(unpruned=True), tool_call_id=self.call_id, name=self.tool)
        version = (self.footer, len(self.pruned))  # ``pruned`` only grows, so its size versions it
        if self._sent is None or self._sent[0] != version:
            message = Message(role="tool", content=self.render(), tool_call_id=self.call_id, name=self.tool)
            self._sent = (version, message)
        return self._sent[1]


@dataclass(frozen=True)
class PruneOutcome:
    pruned: tuple[str, ...]
    unknown: tuple[str, ...]  # never seen in this rollout
    already: tuple[str, ...]  # pruned before
    freed_tokens: int


class Context:
    def __init__(
        self, *, system: str, question: str, tools: Sequence[ToolSpec], count: Counter, counter_name: str = ""
    ) -> None:
        self.counter_name = counter_name  # chunk counts a corpus made with a counter of this name are trusted
        # Messages are re-counted every turn; most are unchanged, so counts are memoised by text.
        self._count: Counter = functools.lru_cache(maxsize=8192)(count)
        opening = [Message("system", system), Message("user", question)]
        self._entries: list[Message | Observation] = list(opening)
        self.trajectory: list[Message] = list(opening)
        self._tools_tokens = sum(count(str(spec.as_openai())) for spec in tools)
        self._total = self._tools_tokens + sum(self._message_tokens(m) for m in opening)
        self.chunks: dict[str, wire.WireChunk] = {}  # every chunk seen, in first-seen order
        self._where: dict[str, Observation] = {}
        self._exact: tuple[int, int] | None = None  # (exact tokens, estimate at that moment)

    # --- building -------------------------------------------------------------------------
    def add_message(self, message: Message) -> None:
        self._entries.append(message)
        self.trajectory.append(message)
        self._total += self._message_tokens(message)

    def add_observation(self, observation: Observation) -> None:
        self._entries.append(observation)
        self._total += self._observation_tokens(observation)
        self.trajectory.append(observation.as_message(unpruned=True))
        for chunk in observation.chunks:
            self.chunks.setdefault(chunk.chunk_id, chunk)
            self._where.setdefault(chunk.chunk_id, observation)

    def set_footer(self, observation: Observation, footer: str) -> None:
        """Attach the usage line (and any budget notice) to an observation already in the context."""
        self._total += self._count(footer) - self._count(observation.footer)
        observation.footer = footer
        for index in range(len(self.trajectory) - 1, -1, -1):
            if self.trajectory[index].tool_call_id == observation.call_id:
                self.trajectory[index] = observation.as_message(unpruned=True)
                return

    def messages(self) -> list[Message]:
        """What is sent to the model now: pruned chunks appear as stubs."""
        return [entry.as_message() if isinstance(entry, Observation) else entry for entry in self._entries]

    # --- pruning --------------------------------------------------------------------------
    def live_chunk_ids(self) -> list[str]:
        return [chunk_id for chunk_id, obs in self._where.items() if chunk_id not in obs.pruned]

    def prune(self, chunk_ids: Sequence[str]) -> PruneOutcome:
        pruned, unknown, already, freed = [], [], [], 0
        for chunk_id in dict.fromkeys(chunk_ids):
            observation = self._where.get(chunk_id)
            if observation is None:
                unknown.append(chunk_id)
            elif chunk_id in observation.pruned:
                already.append(chunk_id)
            else:
                freed += self._chunk_tokens(observation, self.chunks[chunk_id]) - self._count(
                    wire.render_stub(chunk_id)
                )
                observation.pruned.add(chunk_id)
                pruned.append(chunk_id)
        self._total -= freed
        return PruneOutcome(tuple(pruned), tuple(unknown), tuple(already), max(0, freed))

    # --- token accounting -----------------------------------------------------------------
    def _message_tokens(self, message: Message) -> int:
        calls = sum(self._count(call.name) + self._count(call.arguments) for call in message.tool_calls)
        return MESSAGE_OVERHEAD + self._count(message.content) + calls

    def _chunk_tokens(self, observation: Observation, chunk: wire.WireChunk) -> int:
        if chunk.chunk_id in observation.pruned:
            return self._count(wire.render_stub(chunk.chunk_id))
        known = observation.known_tokens.get(chunk.chunk_id)
        return known if known is not None else self._count(wire.render(chunk))

    def _observation_tokens(self, observation: Observation) -> int:
        """Its parts' counts (header, each chunk or its stub, footer); chunks the corpus counted are not re-counted."""
        ends = sum(self._count(part) for part in (observation.header, observation.footer) if part)
        return MESSAGE_OVERHEAD + ends + sum(self._chunk_tokens(observation, c) for c in observation.chunks)

    def estimate(self) -> int:
        """The estimated size of what would be sent now (kept as a running total)."""
        return self._total

    def recount(self) -> int:
        """The same estimate computed from scratch (what the running total must always equal)."""
        return self._tools_tokens + sum(
            self._observation_tokens(entry) if isinstance(entry, Observation) else self._message_tokens(entry)
            for entry in self._entries
        )

    def record_exact(self, tokens: int) -> None:
        """The backend's exact size of the context as of now (prompt + reply tokens of the last call)."""
        self._exact = (tokens, self.estimate())

    def used(self) -> int:
        """Exact tokens from the last model call plus the estimated change since; all estimate before that."""
        if self._exact is None:
            return self.estimate()
        exact, estimate_then = self._exact
        return max(0, exact + self.estimate() - estimate_then)
