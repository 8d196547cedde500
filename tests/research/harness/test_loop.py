"""The agent loop with the scripted backend and an in-memory corpus."""

from __future__ import annotations

import asyncio
import threading

import pytest

from research.harness import budget
from research.harness.budget import BudgetConfig
from research.harness.config import HarnessConfig
from research.harness.messages import ModelTurn, Usage
from research.harness.ports import InferenceUnavailable, ListSink
from research.harness.run import run_research
from research.inference.scripted import ScriptedBackend, call, turn
from research.protocol import wire
from research.protocol.events import (
    BudgetLevelChanged,
    ChunksPruned,
    FusedRankingUpdated,
    RolloutFinished,
    RunFinished,
    RunStarted,
    ToolCalled,
    ToolReturned,
    TurnStarted,
)
from research.retrieval.memory import MemoryCorpus

DOCS = {
    "globex": ["Globex raised the Team plan price in June.", "Globex hired Dana Reyes as VP of Engineering."],
    "initech": ["Initech sells vector search to banks.", "Initech pricing is usage based."],
    "hooli": ["Hooli launched Project Nimbus.", "Nimbus targets retailers."],
}


def one(config: HarnessConfig | None = None) -> HarnessConfig:
    return config or HarnessConfig(rollouts=1)


async def run(script, corpus=None, config=None, **kwargs):  # type: ignore[no-untyped-def]
    backend = script if isinstance(script, ScriptedBackend) else ScriptedBackend(script)
    sink = ListSink()
    corpus = corpus or MemoryCorpus(DOCS)
    result = await run_research(
        question="What did Globex change?",
        corpus=corpus,
        backend_for=lambda i: backend,
        config=one(config),
        sink=sink,
        **kwargs,
    )
    return result, sink.events, backend, corpus


async def test_it_searches_then_answers_and_ranks_the_live_chunks() -> None:
    result, events, _, _ = await run([turn(call("search_corpus", {"query": "Globex price June"}))])
    assert result.status == "finished"
    assert result.documents[0].doc_id == "globex"
    assert [type(e).__name__ for e in events][:5] == [
        "RunStarted",
        "TurnStarted",
        "TurnRecorded",
        "ToolCalled",
        "ToolReturned",
    ]
    assert isinstance(events[0], RunStarted)
    assert isinstance(events[-1], RunFinished)
    finished = [e for e in events if isinstance(e, RolloutFinished)]
    assert finished[0].reason == "answered"


async def test_every_seen_chunk_is_excluded_from_later_searches() -> None:
    script = [
        turn(call("search_corpus", {"query": "Globex price"})),
        turn(call("search_corpus", {"query": "Globex VP"})),
    ]
    _, _, _, corpus = await run(script)
    first, second = corpus.calls
    assert first[2] == frozenset()
    assert "globex#0" in second[2]
    assert "globex#0" not in {h for h in second[2] if h.startswith("initech")}


async def test_each_turn_ends_with_the_usage_line() -> None:
    _, _, backend, _ = await run([turn(call("search_corpus", {"query": "Globex"}))])
    tool_message = backend.requests[1][-1]
    assert tool_message.role == "tool"
    assert tool_message.content.splitlines()[-1].startswith("[Token usage: ")
    assert tool_message.content.splitlines()[-1].endswith("/32,768]")


async def test_pruned_text_leaves_every_later_request_and_the_trajectory_keeps_it() -> None:
    script = [
        turn(call("search_corpus", {"query": "Globex price June hired"})),
        turn(call("prune_chunks", {"chunk_ids": ["globex#1"]})),
        turn(call("search_corpus", {"query": "Initech banks"})),
    ]
    result, events, backend, _ = await run(script)
    assert "Dana Reyes" in "".join(m.content for m in backend.requests[1])
    for request in backend.requests[2:]:
        text = "".join(m.content for m in request)
        assert "Dana Reyes" not in text
        assert wire.render_stub("globex#1") in text
        assert "Globex raised the Team plan" in text  # only the named chunk went
    pruned = [e for e in events if isinstance(e, ChunksPruned)]
    assert pruned[0].chunk_ids == ("globex#1",)
    assert pruned[0].freed_tokens > 0
    assert all("globex#1" not in doc.chunk_ids for doc in result.documents)


async def test_pruning_is_exact_and_reports_unknown_and_repeated_ids() -> None:
    script = [
        turn(call("search_corpus", {"query": "Globex price June hired"})),
        turn(call("prune_chunks", {"chunk_ids": ["globex#0", "nope#9"]})),
        turn(call("prune_chunks", {"chunk_ids": ["globex#0"]})),
    ]
    _, _, backend, _ = await run(script)
    assert "Pruned 1 chunk(s)" in backend.requests[2][-1].content
    assert "Error: unknown chunk id(s): nope#9." in backend.requests[2][-1].content
    assert "Already pruned: globex#0." in backend.requests[3][-1].content


@pytest.mark.parametrize(
    ("bad_call", "message"),
    [
        (call("search_corpus", "{not json"), "are not valid JSON"),
        (call("search_corpus", "[1, 2]"), "must be a JSON object"),
        (call("search_corpus", {}), "missing query"),
        (call("search_corpus", {"query": "x", "k": 3}), "unexpected k"),
        (call("search_corpus", {"query": "   "}), "must be a non-empty string"),
        (call("prune_chunks", {"chunk_ids": "globex#0"}), "must be a non-empty list"),
        (call("delete_everything", {}), "unknown tool 'delete_everything'"),
        (call("grep_corpus", {"pattern": "(unclosed"}), "invalid pattern"),
        (call("read_document", {"doc_id": "missing"}), "no document 'missing'"),
        (call("complete", {"ranked_chunk_ids": ["ghost#1"]}), "unknown chunk id(s) in complete: ghost#1"),
    ],
)
async def test_a_malformed_call_becomes_an_error_observation_and_the_loop_goes_on(bad_call, message) -> None:  # type: ignore[no-untyped-def]
    result, events, backend, _ = await run([turn(bad_call), turn(call("search_corpus", {"query": "Globex"}))])
    assert message in backend.requests[1][-1].content
    assert result.status == "finished"
    assert len(backend.requests) == 3
    returned = [e for e in events if isinstance(e, ToolReturned)]
    assert returned[0].error is not None


CUT = ModelTurn(content="", reasoning="Let me think about this again and again", finish_reason="length")


async def test_a_model_whose_tool_calls_cannot_be_read_turn_after_turn_fails_its_rollout_with_why() -> None:
    bad = [turn(call("search_corpus", "{not json"), call("nonsense", {})) for _ in range(5)]
    result, events, backend, _ = await run(bad)
    assert result.status == "failed"
    assert len(backend.requests) == 3  # bounded: three wasted turns, not the run's sixteen
    assert "could not be used 3 times in a row: none of its tool calls could be read" in (result.error or "")
    assert type(events[-1]).__name__ == "RunFailed"


async def test_a_usable_turn_resets_the_count_of_wasted_ones() -> None:
    malformed = turn(call("search_corpus", "{not json"))
    script = [malformed, malformed, turn(call("search_corpus", {"query": "Globex"})), malformed, malformed]
    result, _, backend, _ = await run(script)
    assert result.status == "finished"
    assert len(backend.requests) == 6  # the five scripted turns, then the final answer


async def test_reasoning_that_never_ends_fails_the_rollout_with_why() -> None:
    result, _, backend, _ = await run([CUT, CUT, CUT, turn(call("search_corpus", {"query": "Globex"}))])
    assert result.status == "failed"
    assert len(backend.requests) == 3
    assert "cut at the token limit without a tool call" in (result.error or "")


async def test_one_reply_cut_at_the_token_limit_is_not_taken_for_an_answer() -> None:
    result, _, backend, _ = await run([CUT, turn(call("search_corpus", {"query": "Globex"}))])
    assert result.status == "finished"
    assert result.documents[0].doc_id == "globex"
    assert len(backend.requests) == 3


async def test_a_repeated_identical_call_gets_a_nudge_instead_of_a_rerun() -> None:
    script = [turn(call("search_corpus", {"query": "Globex"})), turn(call("search_corpus", {"query": "globex"}))]
    _, _, backend, corpus = await run(script)
    assert len(corpus.calls) == 1
    assert "You already made this exact call" in backend.requests[2][-1].content


async def test_past_the_hard_cutoff_only_prune_and_complete_run() -> None:
    config = HarnessConfig(rollouts=1, budget=BudgetConfig(limit=1_000, soft_fraction=0.5, hard_fraction=0.5))
    script = [
        turn(call("search_corpus", {"query": "Globex price June hired Dana"})),
        turn(call("search_corpus", {"query": "Initech"}), call("prune_chunks", {"chunk_ids": ["globex#0"]})),
    ]
    big = MemoryCorpus({"globex": ["Globex price June " + "word " * 700, "Globex hired Dana " + "word " * 200]})
    _, events, backend, corpus = await run(script, corpus=big, config=config)
    levels = [e.level for e in events if isinstance(e, BudgetLevelChanged)]
    assert levels[0] == "hard"
    assert budget.HARD_NOTICE in backend.requests[1][-1].content
    second_turn = backend.requests[2]
    assert budget.refusal("search_corpus") in "".join(m.content for m in second_turn)
    assert "Pruned 1 chunk(s)" in "".join(m.content for m in second_turn)
    assert len(corpus.calls) == 1


async def test_the_soft_nudge_can_be_switched_off() -> None:
    texts = {"globex": ["Globex " + "word " * 700]}
    for nudge in (True, False):
        config = HarnessConfig(rollouts=1, budget=BudgetConfig(limit=2_000, soft_nudge=nudge))
        _, _, backend, _ = await run([turn(call("search_corpus", {"query": "Globex"}))], MemoryCorpus(texts), config)
        assert (budget.SOFT_NUDGE in backend.requests[1][-1].content) is nudge


async def test_complete_ends_the_rollout_with_the_models_ranking() -> None:
    script = [
        turn(call("search_corpus", {"query": "Globex Initech price"})),
        turn(call("complete", {"ranked_chunk_ids": ["initech#0", "globex#0"]})),
        turn(call("search_corpus", {"query": "never reached"})),
    ]
    result, events, backend, _ = await run(script)
    assert [d.doc_id for d in result.documents] == ["initech", "globex"]
    assert next(e for e in events if isinstance(e, RolloutFinished)).reason == "completed"
    assert len(backend.requests) == 2


async def test_it_stops_at_the_maximum_number_of_turns() -> None:
    queries = iter(["Globex", "Initech", "Hooli", "Nimbus", "price"])
    backend = ScriptedBackend(lambda messages, tools: turn(call("search_corpus", {"query": next(queries)})))
    result, events, _, _ = await run(backend, config=HarnessConfig(rollouts=1, max_turns=3))
    finished = next(e for e in events if isinstance(e, RolloutFinished))
    assert (finished.reason, finished.turns) == ("max_turns", 3)
    assert result.status == "finished"


async def test_tool_calls_of_one_turn_run_concurrently() -> None:
    corpus = MemoryCorpus(DOCS, barrier=threading.Barrier(3))  # each call waits until all three are in flight
    script = [
        turn(
            call("search_corpus", {"query": "Globex"}),
            call("search_corpus", {"query": "Initech"}),
            call("grep_corpus", {"pattern": "Nimbus"}),
        )
    ]
    _, events, backend, _ = await run(script, corpus=corpus)
    returned = [e for e in events if isinstance(e, ToolReturned)]
    assert [e.error for e in returned] == [None, None, None]
    assert [m.role for m in backend.requests[1][-3:]] == ["tool", "tool", "tool"]


async def test_rollouts_run_concurrently_and_are_fused_with_agreement() -> None:
    arrived = 0
    gate = asyncio.Event()

    def script_for(index: int) -> ScriptedBackend:
        queries = ["Globex price", "Initech banks", "Globex hired", "Hooli Nimbus"]
        steps = iter([turn(call("search_corpus", {"query": queries[index]}))])

        async def wait_for_all() -> None:
            nonlocal arrived
            arrived += 1
            if arrived == 4:
                gate.set()
            await asyncio.wait_for(gate.wait(), timeout=5)  # fails unless all four rollouts are in flight together

        class Gated(ScriptedBackend):
            async def complete(self, messages, tools, *, on_delta=None):  # type: ignore[no-untyped-def]
                if len(self.requests) == 0:
                    await wait_for_all()
                return await super().complete(messages, tools, on_delta=on_delta)

        return Gated(list(steps))

    backends = {i: script_for(i) for i in range(4)}
    sink = ListSink()
    result = await run_research(
        question="q",
        corpus=MemoryCorpus(DOCS),
        backend_for=backends.__getitem__,
        config=HarnessConfig(rollouts=4),
        sink=sink,
    )
    by_id = {d.doc_id: d for d in result.documents}
    assert by_id["globex"].agreement == 2
    assert by_id["initech"].agreement == 1
    assert result.documents[0].doc_id == "globex"
    assert any(isinstance(e, FusedRankingUpdated) for e in sink.events)


async def test_a_failed_rollout_does_not_fail_the_others() -> None:
    good = ScriptedBackend([turn(call("search_corpus", {"query": "Globex"}))])
    bad = ScriptedBackend([InferenceUnavailable("vLLM is down")])
    sink = ListSink()
    result = await run_research(
        question="q",
        corpus=MemoryCorpus(DOCS),
        backend_for=lambda i: [good, bad][i],
        config=HarnessConfig(rollouts=2),
        sink=sink,
    )
    assert result.status == "finished"
    finished = {e.rollout: e for e in sink.events if isinstance(e, RolloutFinished)}
    assert finished[1].reason == "failed"
    assert "vLLM is down" in (finished[1].error or "")
    assert isinstance(sink.events[-1], RunFinished)
    assert sink.events[-1].rollouts_failed == 1


async def test_when_every_rollout_fails_the_run_fails() -> None:
    result, events, _, _ = await run([InferenceUnavailable("down")])
    assert result.status == "failed"
    assert type(events[-1]).__name__ == "RunFailed"


async def test_cancellation_stops_at_the_next_turn_boundary() -> None:
    stop = False

    def script(messages, tools):  # type: ignore[no-untyped-def]
        nonlocal stop
        stop = True
        return turn(call("search_corpus", {"query": "Globex"}))

    result, events, backend, _ = await run(ScriptedBackend(script), cancelled=lambda: stop)
    assert result.status == "cancelled"
    assert len(backend.requests) == 1
    assert type(events[-1]).__name__ == "RunCancelled"
    assert [e.turn for e in events if isinstance(e, TurnStarted)] == [1]


async def test_a_cancel_that_comes_after_every_rollout_ended_changes_nothing() -> None:
    stop, calls = False, 0

    def script(messages, tools):  # type: ignore[no-untyped-def]
        nonlocal stop, calls
        calls += 1
        if calls == 2:
            stop = True  # asked for while the last turn was on its way: nothing is left to stop
            return turn(call("complete", {"ranked_chunk_ids": ["globex#0"]}))
        return turn(call("search_corpus", {"query": "Globex"}))

    result, events, _, _ = await run(ScriptedBackend(script), cancelled=lambda: stop)
    assert stop
    assert result.status == "finished"
    assert type(events[-1]).__name__ == "RunFinished"


async def test_exact_usage_from_the_backend_is_used_for_the_budget() -> None:
    script = [ModelTurn(tool_calls=(call("search_corpus", {"query": "Globex"}),), usage=Usage(20_000, 50, 18_000))]
    _, events, backend, _ = await run(script)
    line = backend.requests[1][-1].content.splitlines()
    assert any(text.startswith("[Token usage: 20,") for text in line)
    recorded = next(e for e in events if type(e).__name__ == "TurnRecorded")
    assert (recorded.prompt_tokens, recorded.cached_tokens, recorded.exact) == (20_000, 18_000, True)


async def test_events_name_the_sub_query_of_each_tool_call() -> None:
    _, events, _, _ = await run(
        [turn(call("search_corpus", {"query": "Globex price"}), call("grep_corpus", {"pattern": "VP"}))]
    )
    assert [(e.tool, e.query) for e in events if isinstance(e, ToolCalled)] == [
        ("search_corpus", "Globex price"),
        ("grep_corpus", "VP"),
    ]


async def test_a_chunk_two_calls_of_one_turn_return_is_shown_once_and_named_with_its_rank_by_the_other() -> None:
    both = turn(call("search_corpus", {"query": "Globex price"}), call("search_corpus", {"query": "Globex hired"}))
    backend = ScriptedBackend([both])
    _, events, _, _ = await run(backend)
    returned = [e for e in events if isinstance(e, ToolReturned) and e.tool == "search_corpus"]
    shared = {c.chunk_id for c in returned[0].chunks} & {c.chunk_id for c in returned[1].chunks}
    assert shared  # both searches match both Globex chunks
    later = backend.requests[1]
    tool_messages = [m for m in later if m.role == "tool"]
    shown = [c.chunk_id for m in tool_messages for c in wire.parse(m.content)]
    assert sorted(shown) == sorted(set(shown))  # no chunk text twice
    repeats = [r for m in tool_messages for r in wire.parse_repeats(m.content)]
    assert {chunk_id for _, chunk_id in repeats} == shared
    second = [c.chunk_id for c in returned[1].chunks]
    assert all(second[rank - 1] == chunk_id for rank, chunk_id in wire.parse_repeats(tool_messages[1].content))
