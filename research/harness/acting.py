"""Acting on one turn's tool calls: corpus calls run concurrently, then prunes, then complete."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from research.harness import budget
from research.harness.config import HarnessConfig
from research.harness.context import Context, Observation
from research.harness.messages import ToolCall, ToolSpec
from research.harness.ports import Corpus, CorpusResult, CorpusToolError, FetchedPage, Web, WebToolError
from research.harness.tools import (
    ALWAYS_ALLOWED,
    ParsedCall,
    ToolArgumentError,
    parse_call,
    tool_specs,
)
from research.protocol import wire
from research.protocol.events import (
    COMPLETE,
    FETCH,
    GREP,
    PRUNE,
    SEARCH,
    WEB_SEARCH,
    ChunkRef,
    ChunksPruned,
    Event,
    ToolCalled,
    ToolReturned,
    WebHit,
)

logger = logging.getLogger(__name__)
Result = (
    CorpusResult | FetchedPage | tuple[WebHit, ...] | str
)  # what a tool call gave: chunks, a page, web hits, an error
REPEAT_NUDGE = (
    "You already made this exact call in an earlier turn; its results are above. Try another query or finish."
)


@dataclass
class TurnOutcome:
    observations: list[Observation] = field(default_factory=list)
    completed: tuple[str, ...] | None = None  # the ranked chunk ids of a successful complete
    unreadable: list[str] = field(default_factory=list)  # why each call that could not be parsed was refused


@dataclass
class Actor:
    """Runs one rollout's tool calls against the corpus; remembers calls to detect repeats."""

    rollout: int
    question: str
    corpus: Corpus
    context: Context
    config: HarnessConfig
    emit: Callable[[Event], None]
    web: Web | None = None  # the run's web sources, when it has them
    past_calls: set[tuple[str, str]] = field(default_factory=set)

    @property
    def offered(self) -> tuple[ToolSpec, ...]:
        return tool_specs(web=self.web is not None)

    async def act(self, turn: int, calls: tuple[ToolCall, ...], *, hard: bool) -> TurnOutcome:
        outcome = TurnOutcome()
        slots: list[Observation | None] = []
        corpus_calls: list[tuple[int, ParsedCall]] = []
        deferred: list[tuple[int, ParsedCall]] = []
        for call in calls:
            immediate, parsed, unreadable = self._screen(turn, call, hard=hard)
            slots.append(immediate)
            if unreadable:
                outcome.unreadable.append(unreadable)
            if parsed is not None:
                (deferred if parsed.call.name in ALWAYS_ALLOWED else corpus_calls).append((len(slots) - 1, parsed))
        results = await asyncio.gather(*(self._run_corpus_call(parsed) for _, parsed in corpus_calls))
        seen_this_turn: set[str] = set()
        for (slot, parsed), result in zip(corpus_calls, results, strict=True):
            slots[slot] = self._observe_corpus(turn, parsed, result, seen_this_turn)
        for slot, parsed in deferred:
            slots[slot] = (
                self._prune(turn, parsed) if parsed.call.name == PRUNE else self._complete(turn, parsed, outcome)
            )
        outcome.observations = [slot for slot in slots if slot is not None]
        return outcome

    def _screen(self, turn: int, call: ToolCall, *, hard: bool) -> tuple[Observation | None, ParsedCall | None, str]:
        """Validate a call and emit tool_called; an error, a refusal or a repeat is answered at once. The third
        value says why a call that could not be parsed was refused ("" for any other)."""
        try:
            parsed = parse_call(call, offered=self.offered)
        except ToolArgumentError as error:
            self.emit(
                ToolCalled(
                    rollout=self.rollout, turn=turn, call_id=call.id, tool=call.name, query="", arguments=call.arguments
                )
            )
            return self._error(turn, call, str(error)), None, str(error)
        self.emit(
            ToolCalled(
                rollout=self.rollout,
                turn=turn,
                call_id=call.id,
                tool=call.name,
                query=parsed.subject,
                arguments=call.arguments,
            )
        )
        if hard and call.name not in ALWAYS_ALLOWED:
            return self._error(turn, call, budget.refusal(call.name)), None, ""
        if call.name not in ALWAYS_ALLOWED and parsed.key in self.past_calls:
            return self._error(turn, call, REPEAT_NUDGE), None, ""
        self.past_calls.add(parsed.key)
        return None, parsed, ""

    def _error(self, turn: int, call: ToolCall, message: str) -> Observation:
        self.emit(ToolReturned(rollout=self.rollout, turn=turn, call_id=call.id, tool=call.name, error=message))
        return Observation(call_id=call.id, tool=call.name, header=message, chunks=[])

    async def _run_corpus_call(self, parsed: ParsedCall) -> Result:
        exclude = frozenset(self.context.chunks)  # dedup: every chunk seen in this rollout, invisible to the model
        room = budget.room_for_tool_result(self.context.used(), self.config.budget)
        name, args = parsed.call.name, parsed.arguments
        try:
            if name in (WEB_SEARCH, FETCH):
                return await self._run_web_call(name, args, exclude, min(room, self.config.read_tokens))
            if name == SEARCH:
                return await asyncio.to_thread(
                    self.corpus.search, args["query"], exclude=exclude, budget=min(room, self.config.search_tokens)
                )
            if name == GREP:
                return await asyncio.to_thread(
                    self.corpus.grep, args["pattern"], exclude=exclude, budget=min(room, self.config.search_tokens)
                )
            return await asyncio.to_thread(
                self.corpus.read_document,
                args["doc_id"],
                query=self.question,
                exclude=exclude,
                budget=min(room, self.config.read_tokens),
            )
        except (CorpusToolError, WebToolError) as error:
            return f"Error: {error}"
        except Exception as error:
            logger.exception("corpus call %s failed", name)
            return f"Error: the corpus could not run {name} ({type(error).__name__}); try again or another tool."

    async def _run_web_call(self, name: str, args: dict[str, str], exclude: frozenset[str], room: int) -> Result:
        assert self.web is not None  # parse_call offers the web tools only with a web port
        if name == WEB_SEARCH:
            return await asyncio.to_thread(self.web.search, args["query"])
        return await asyncio.to_thread(self.web.fetch, args["url"], query=self.question, exclude=exclude, budget=room)

    def _observe_corpus(self, turn: int, parsed: ParsedCall, result: Result, seen: set[str]) -> Observation:
        call = parsed.call
        if isinstance(result, str):
            return self._error(turn, call, result)
        if isinstance(result, tuple):
            return self._observe_results(turn, parsed, result)
        if isinstance(result, FetchedPage):
            if result.result is None:
                return self._page_error(turn, parsed, result)
            return self._observe_chunks(turn, parsed, result.result, seen, page=result)
        return self._observe_chunks(turn, parsed, result, seen)

    def _page_error(self, turn: int, parsed: ParsedCall, fetched: FetchedPage) -> Observation:
        page, call = fetched.page, parsed.call
        message = f"Error: fetch_url({page.url!r}) {page.outcome}: {page.reason}"
        self.emit(
            ToolReturned(rollout=self.rollout, turn=turn, call_id=call.id, tool=call.name, error=message, page=page)
        )
        return Observation(call_id=call.id, tool=call.name, header=message, chunks=[])

    def _observe_results(self, turn: int, parsed: ParsedCall, hits: tuple[WebHit, ...]) -> Observation:
        call = parsed.call
        rendered = [wire.render_result(wire.WireResult(h.url, h.title, h.snippet, h.published_date)) for h in hits]
        header = "\n".join([f"{call.name}({parsed.subject!r}): {len(hits)} result(s).", *rendered])
        self.emit(ToolReturned(rollout=self.rollout, turn=turn, call_id=call.id, tool=call.name, results=hits))
        return Observation(call_id=call.id, tool=call.name, header=header, chunks=[])

    def _observe_chunks(
        self, turn: int, parsed: ParsedCall, result: CorpusResult, seen: set[str], *, page: FetchedPage | None = None
    ) -> Observation:
        call = parsed.call
        seen_before = set(seen)
        fresh = [hit for hit in result.hits if hit.chunk_id not in seen]
        refs = tuple(
            ChunkRef(chunk_id=h.chunk_id, doc_id=h.doc_id, title=h.title, score=h.score, new=h.chunk_id not in seen)
            for h in result.hits
        )
        seen.update(hit.chunk_id for hit in result.hits)
        chunks = [wire.WireChunk(h.chunk_id, h.doc_id, h.title, h.score, h.text, h.truncated) for h in fresh]
        repeats = [(rank, h.chunk_id) for rank, h in enumerate(result.hits, start=1) if h.chunk_id in seen_before]
        name = self.context.counter_name
        known = {h.chunk_id: h.tokens for h in fresh if name and h.counter == name and h.tokens is not None}
        header = _header(parsed, result, len(chunks), repeats)
        if page is not None:
            header = f"{header} The page was {page.page.outcome}: {page.page.title or page.page.url}."
        observation = Observation(call_id=call.id, tool=call.name, header=header, chunks=chunks, known_tokens=known)
        self.emit(
            ToolReturned(
                rollout=self.rollout,
                turn=turn,
                call_id=call.id,
                tool=call.name,
                chunks=refs,
                omitted=result.omitted,
                page=page.page if page is not None else None,
            )
        )
        return observation

    def _prune(self, turn: int, parsed: ParsedCall) -> Observation:
        outcome = self.context.prune(parsed.arguments["chunk_ids"])
        if outcome.pruned:
            self.emit(
                ChunksPruned(
                    rollout=self.rollout, turn=turn, chunk_ids=outcome.pruned, freed_tokens=outcome.freed_tokens
                )
            )
        text = f"Pruned {len(outcome.pruned)} chunk(s), freeing about {outcome.freed_tokens:,} tokens."
        if outcome.unknown:
            text += f" Error: unknown chunk id(s): {', '.join(outcome.unknown)}."
        if outcome.already:
            text += f" Already pruned: {', '.join(outcome.already)}."
        self.emit(
            ToolReturned(
                rollout=self.rollout,
                turn=turn,
                call_id=parsed.call.id,
                tool=PRUNE,
                error=None if not outcome.unknown else "unknown chunk ids",
            )
        )
        return Observation(call_id=parsed.call.id, tool=PRUNE, header=text, chunks=[])

    def _complete(self, turn: int, parsed: ParsedCall, outcome: TurnOutcome) -> Observation:
        ranked = list(dict.fromkeys(parsed.arguments["ranked_chunk_ids"]))
        unknown = [chunk_id for chunk_id in ranked if chunk_id not in self.context.chunks]
        if unknown:
            message = f"Error: unknown chunk id(s) in complete: {', '.join(unknown)}. Use ids from the results above."
            return self._error(turn, parsed.call, message)
        self.emit(ToolReturned(rollout=self.rollout, turn=turn, call_id=parsed.call.id, tool=COMPLETE))
        outcome.completed = tuple(ranked)
        return Observation(
            call_id=parsed.call.id, tool=COMPLETE, header=f"Completed with {len(ranked)} chunk(s).", chunks=[]
        )


def _header(parsed: ParsedCall, result: CorpusResult, shown: int, repeats: list[tuple[int, str]]) -> str:
    """The line above a tool result. Chunks another call of the same turn already returned are not repeated,
    but named with their rank here, since several searches agreeing on a chunk is evidence."""
    header = f"{parsed.call.name}({parsed.subject!r}): {shown} new chunk(s)."
    if repeats:
        header += " " + wire.render_repeats(repeats)
    if result.omitted:
        header += f" {result.omitted} more did not fit the token budget."
    if result.truncated:
        header += " The last chunk was cut to fit."
    if result.note:
        header += f" {result.note}"
    return header
