"""The model's context: an append-only transcript whose tool results can have chunks pruned out of them.

Tool results are kept as parts (a header, chunks in the shared wire format, a footer) so that a
pruned chunk's text can leave every later prompt, replaced by a short stub that keeps the structure.
The full unpruned trajectory is kept alongside for metrics.
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

    def render(self, *, unpruned: bool = False) -> str:
        hidden = set() if unpruned else self.pruned
        body = [wire.render_stub(c.chunk_id) if c.chunk_id in hidden else wire.render(c) for c in self.chunks]
        parts = [self.header, *body]
        if self.footer:
            parts.append(self.footer)
        return "\n\n".join(part for part in parts if part)

    def as_message(self, *, unpruned: bool = False) -> Message:
        return Message(role="tool", content=self.render(unpruned=unpruned), tool_call_id=self.call_id, name=self.tool)


@dataclass(frozen=True)
class PruneOutcome:
    pruned: tuple[str, ...]
    unknown: tuple[str, ...]  # never seen in this rollout
    already: tuple[str, ...]  # pruned before
    freed_tokens: int


class Context:
    def __init__(self, *, system: str, question: str, tools: Sequence[ToolSpec], count: Counter) -> None:
        # Messages are re-counted every turn; most are unchanged, so counts are memoised by text.
        self._count: Counter = functools.lru_cache(maxsize=8192)(count)
        opening = [Message("system", system), Message("user", question)]
        self._entries: list[Message | Observation] = list(opening)
        self.trajectory: list[Message] = list(opening)
        self._tools_tokens = sum(count(str(spec.as_openai())) for spec in tools)
        self.chunks: dict[str, wire.WireChunk] = {}  # every chunk seen, in first-seen order
        self._where: dict[str, Observation] = {}
        self._exact: tuple[int, int] | None = None  # (exact tokens, estimate at that moment)

    # --- building -------------------------------------------------------------------------
    def add_message(self, message: Message) -> None:
        self._entries.append(message)
        self.trajectory.append(message)

    def add_observation(self, observation: Observation) -> None:
        self._entries.append(observation)
        self.trajectory.append(observation.as_message(unpruned=True))
        for chunk in observation.chunks:
            self.chunks.setdefault(chunk.chunk_id, chunk)
            self._where.setdefault(chunk.chunk_id, observation)

    def set_footer(self, observation: Observation, footer: str) -> None:
        """Attach the usage line (and any budget notice) to an observation already in the context."""
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
                observation.pruned.add(chunk_id)
                freed += self._count(wire.render(self.chunks[chunk_id])) - self._count(wire.render_stub(chunk_id))
                pruned.append(chunk_id)
        return PruneOutcome(tuple(pruned), tuple(unknown), tuple(already), max(0, freed))

    # --- token accounting -----------------------------------------------------------------
    def estimate(self) -> int:
        total = self._tools_tokens
        for message in self.messages():
            total += MESSAGE_OVERHEAD + self._count(message.content)
            total += sum(self._count(call.name) + self._count(call.arguments) for call in message.tool_calls)
        return total

    def record_exact(self, tokens: int) -> None:
        """The backend's exact size of the context as of now (prompt + reply tokens of the last call)."""
        self._exact = (tokens, self.estimate())

    def used(self) -> int:
        """Exact tokens from the last model call plus the estimated change since; all estimate before that."""
        if self._exact is None:
            return self.estimate()
        exact, estimate_then = self._exact
        return max(0, exact + self.estimate() - estimate_then)
