"""The harness against the real hybrid index (Chroma + bm25s, hashing embedder) through the Corpus port."""

from __future__ import annotations

from research.harness.config import HarnessConfig
from research.harness.ports import ListSink
from research.harness.run import run_research
from research.inference.scripted import ScriptedBackend, call, turn
from research.protocol.events import ToolReturned
from research.retrieval.port import CorpusPort
from research.retrieval.types import Chunk, chunk_id_for
from tests.research.retrieval.conftest import make_corpus


async def test_dedup_exclusions_reach_the_real_index(chroma, tmp_path) -> None:  # type: ignore[no-untyped-def]
    index = make_corpus(chroma, tmp_path)
    texts = {
        "globex": ["Globex raised prices in June.", "Globex prices and plans for teams."],
        "initech": ["Initech prices for banks."],
    }
    index.add([Chunk(chunk_id_for(d, i), d, i, t, d.title()) for d, ts in texts.items() for i, t in enumerate(ts)])
    index.refresh_sparse()
    script = [
        turn(call("search_corpus", {"query": "prices"})),
        turn(call("search_corpus", {"query": "prices plans"})),
        turn(call("read_document", {"doc_id": "globex"})),
        turn(call("read_document", {"doc_id": "nope"})),
    ]
    sink = ListSink()
    backend = ScriptedBackend(script)
    await run_research(
        question="prices",
        corpus=CorpusPort(index),
        backend_for=lambda i: backend,
        config=HarnessConfig(rollouts=1),
        sink=sink,
    )
    returned = [e for e in sink.events if isinstance(e, ToolReturned)]
    seen: list[str] = []
    for event in returned[:3]:
        ids = [c.chunk_id for c in event.chunks]
        assert not set(ids) & set(seen)
        seen += ids
    assert sorted(seen) == ["globex#0", "globex#1", "initech#0"]
    assert "no document 'nope'" in (returned[3].error or "")
