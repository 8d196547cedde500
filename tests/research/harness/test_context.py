"""The context's running token total: always what a full recount gives, whatever happens to it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from research.harness.config import HarnessConfig
from research.harness.context import MESSAGE_OVERHEAD, Context, Observation
from research.harness.messages import Message, ToolCall
from research.harness.ports import CorpusHit, CorpusResult, ListSink
from research.harness.prompts import SYSTEM_PROMPT
from research.harness.run import run_research
from research.harness.tools import TOOL_SPECS
from research.inference.scripted import ScriptedBackend, call, turn
from research.protocol import wire
from research.retrieval.tokens import EstimatingCounter

count = EstimatingCounter().count
words = st.lists(st.sampled_from(["alpha", "beta", "Globex", "pricing", "2026", ".", "&", "<b>"]), max_size=40)


def _observation(n: int, bodies: list[list[str]]) -> Observation:
    chunks = [wire.WireChunk(f"d{n}-{i}#0", f"d{n}-{i}", "T", 0.5, " ".join(b)) for i, b in enumerate(bodies)]
    return Observation(call_id=f"c{n}", tool="search_corpus", header=f"Results for query {n}", chunks=chunks)


operations = st.lists(
    st.one_of(
        st.tuples(st.just("observe"), st.lists(words, max_size=5)),
        st.tuples(st.just("message"), words),
        st.tuples(st.just("footer"), words),
        st.tuples(st.just("prune"), st.lists(st.integers(min_value=0, max_value=30), max_size=6)),
    ),
    max_size=25,
)


@settings(max_examples=200, deadline=None)
@given(operations)
def test_the_running_total_always_equals_a_recount(ops: list[tuple[str, list[object]]]) -> None:
    context = Context(system=SYSTEM_PROMPT, question="Who bought Globex?", tools=TOOL_SPECS, count=count)
    observations: list[Observation] = []
    for number, (kind, value) in enumerate(ops):
        if kind == "observe":
            observations.append(_observation(number, value))  # type: ignore[arg-type]
            context.add_observation(observations[-1])
        elif kind == "message":
            call = ToolCall(id=f"t{number}", name="search_corpus", arguments='{"query": "x"}')
            context.add_message(Message("assistant", " ".join(value), tool_calls=(call,)))  # type: ignore[arg-type]
        elif kind == "footer" and observations:
            context.set_footer(observations[-1], "[Token usage: 1/2] " + " ".join(value))  # type: ignore[arg-type]
        elif kind == "prune":
            seen = list(context.chunks)
            before = context.estimate()
            outcome = context.prune([seen[i % len(seen)] for i in value] if seen else [])  # type: ignore[operator]
            assert max(0, before - context.estimate()) == outcome.freed_tokens
        assert context.estimate() == context.recount()
    # summing parts equals counting each whole message as sent (the counter adds up across whitespace)
    tools = sum(count(str(spec.as_openai())) for spec in TOOL_SPECS)
    sent = sum(
        MESSAGE_OVERHEAD + count(m.content) + sum(count(c.name) + count(c.arguments) for c in m.tool_calls)
        for m in context.messages()
    )
    assert context.estimate() == tools + sent


def test_pruned_text_leaves_the_estimate_and_the_messages() -> None:
    context = Context(system=SYSTEM_PROMPT, question="q", tools=TOOL_SPECS, count=count)
    observation = _observation(1, [["alpha"] * 200, ["beta"] * 5])
    context.add_observation(observation)
    before = context.estimate()
    outcome = context.prune(["d1-0#0"])
    assert outcome.freed_tokens > 150
    assert context.estimate() == before - outcome.freed_tokens
    assert "alpha" not in context.messages()[-1].content
    assert "alpha" in context.trajectory[-1].content  # the full trajectory keeps it


def test_counts_the_corpus_made_are_used_only_when_made_by_the_same_counter() -> None:
    chunk = wire.WireChunk("d#0", "d", "T", 0.5, "alpha beta gamma " * 20)
    right = count(wire.render(chunk))

    def observed(known: dict[str, int]) -> Context:
        context = Context(system="s", question="q", tools=TOOL_SPECS, count=count, counter_name="estimate")
        context.add_observation(
            Observation(call_id="c", tool="search_corpus", header="h", chunks=[chunk], known_tokens=known)
        )
        return context

    assert observed({"d#0": right}).estimate() == observed({}).estimate()  # trusted and right: the same total
    assert observed({"d#0": right + 1000}).estimate() == observed({}).estimate() + 1000  # trusted: not re-counted
    trusting = observed({"d#0": right})
    outcome = trusting.prune(["d#0"])
    assert outcome.freed_tokens == right - count(wire.render_stub("d#0"))
    assert trusting.estimate() == trusting.recount()


async def test_the_harness_trusts_hit_counts_only_from_a_counter_of_its_name() -> None:
    class CountedCorpus:
        def __init__(self, counter: str) -> None:
            self.counter = counter

        def search(self, query: str, *, exclude: frozenset[str], budget: int) -> CorpusResult:
            hit = CorpusHit("d#0", "d", "T", 0.5, "alpha", tokens=50_000, counter=self.counter)
            return CorpusResult(hits=(hit,) if "d#0" not in exclude else ())

        grep = search

        def read_document(self, doc_id: str, *, query: str, exclude: frozenset[str], budget: int) -> CorpusResult:
            return CorpusResult(hits=())

    used = {}
    for name in ("estimate", "another"):
        backend = ScriptedBackend([turn(call("search_corpus", {"query": "x"}))])
        config = HarnessConfig(rollouts=1, counter_name="estimate")
        await run_research(
            question="q",
            corpus=CountedCorpus(name),
            backend_for=lambda i, b=backend: b,
            config=config,
            sink=ListSink(),
            count=count,
        )
        tool = next(m for m in backend.requests[1] if m.role == "tool")
        used[name] = int(tool.content.rsplit("[Token usage: ", 1)[1].split("/")[0].replace(",", ""))
    assert used["estimate"] > 50_000 > used["another"]  # the claimed count was taken only from its own counter
