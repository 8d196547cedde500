from __future__ import annotations

import json
from typing import get_args

from research.harness.budget import BudgetConfig
from research.harness.config import HarnessConfig
from research.harness.ports import ListSink
from research.harness.run import run_research
from research.inference.scripted import ScriptedBackend, call, turn
from research.protocol.events import Event, from_dict, to_dict
from research.retrieval.memory import MemoryCorpus


async def test_every_event_of_a_run_round_trips_through_json() -> None:
    script = [
        turn(call("search_corpus", {"query": "Globex price"}), call("grep_corpus", {"pattern": "VP"})),
        turn(call("prune_chunks", {"chunk_ids": ["globex#0"]})),
        turn(call("complete", {"ranked_chunk_ids": ["globex#1"]})),
    ]
    sink = ListSink()
    corpus = MemoryCorpus({"globex": ["Globex price rose. " + "filler " * 300, "Globex hired a VP."]})
    config = HarnessConfig(rollouts=2, budget=BudgetConfig(limit=1_000))
    await run_research(
        question="q", corpus=corpus, backend_for=lambda i: ScriptedBackend(script), config=config, sink=sink
    )
    kinds = {event.type for event in sink.events}
    harness_kinds = {cls.__dataclass_fields__["type"].default for cls in get_args(Event)}
    assert kinds >= harness_kinds - {"run_failed", "run_cancelled"}
    for event in sink.events:
        assert from_dict(json.loads(json.dumps(to_dict(event)))) == event
