"""Trajectories for training: the record built from a rollout's events, and `export_trajectories` from an
evaluation and from runs (only those the exporting user may read)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from research.evaluation.formats import write_corpus, write_tasks
from research.evaluation.reward import TERM_NAMES
from research.evaluation.trajectories import SCHEMA, trajectories
from research.models import Chunk, Corpus, Document, Run, RunEvent
from research.protocol.events import (
    ChunkRef,
    ChunksPruned,
    RankedDocument,
    RolloutFinished,
    RunStarted,
    ToolCalled,
    ToolReturned,
    TurnRecorded,
    to_dict,
)
from tests.research.evaluation.test_runner import DOCS, TASKS

EVENTS = [
    RunStarted(question="Who?", rollouts=1, budget=1000),
    ToolCalled(rollout=0, turn=1, call_id="c1", tool="search_corpus", query="who", arguments='{"query": "who"}'),
    ToolReturned(
        rollout=0,
        turn=1,
        call_id="c1",
        tool="search_corpus",
        chunks=(ChunkRef(chunk_id="a#0", doc_id="a", title="A", score=0.5),),
        tokens=12,
    ),
    TurnRecorded(
        rollout=0, turn=1, prompt_tokens=100, completion_tokens=9, cached_tokens=None, context_tokens=120, exact=True
    ),
    ToolCalled(rollout=0, turn=2, call_id="c2", tool="prune_chunks", query="a#0", arguments='{"chunk_ids": ["a#0"]}'),
    ChunksPruned(rollout=0, turn=2, chunk_ids=("a#0",), freed_tokens=12),
    RolloutFinished(
        rollout=0,
        turns=2,
        reason="completed",
        documents=(RankedDocument(doc_id="a", title="A", score=1.0, chunk_ids=("a#0",)),),
    ),
]


def test_a_rollout_becomes_one_record_with_steps_messages_and_its_ranking() -> None:
    (record,) = trajectories(
        EVENTS,
        question="Who?",
        source={"kind": "run", "run_id": 1},
        chunk_text={"a#0": "Ada runs it."}.get,
        rewards={0: {"reward": 1.5}},
        gold={"answer": "Ada", "supporting_doc_ids": ["a"]},
    )
    assert record["schema"] == SCHEMA
    assert [step["turn"] for step in record["steps"]] == [1, 2]
    first, second = record["steps"]
    assert first["tool_calls"] == [{"call_id": "c1", "tool": "search_corpus", "arguments": '{"query": "who"}'}]
    assert first["observations"][0]["chunks"][0] | {"text": "Ada runs it."} == first["observations"][0]["chunks"][0]
    assert first["usage"] == {"prompt_tokens": 100, "completion_tokens": 9, "context_tokens": 120, "exact": True}
    assert second["pruned"] == ["a#0"]
    roles = [message["role"] for message in record["messages"]]
    assert roles == ["user", "assistant", "tool", "assistant"]
    assert 'id="a#0"' in record["messages"][2]["content"]
    assert "Ada runs it." in record["messages"][2]["content"]
    assert record["final_ranking"] == [{"doc_id": "a", "title": "A", "score": 1.0, "chunk_ids": ["a#0"]}]
    assert record["stop"] == {"reason": "completed", "turns": 2, "error": None}
    assert (record["reward"], record["gold"]["answer"]) == ({"reward": 1.5}, "Ada")
    json.dumps(record)  # every field serialises


def test_an_evaluation_made_with_trajectories_exports_every_rollout(tmp_path: Path) -> None:
    tasks, corpus, report, out = (tmp_path / name for name in ("t.jsonl", "c.jsonl", "r.json", "out.jsonl"))
    write_tasks(tasks, TASKS[:2])
    write_corpus(corpus, DOCS)
    common = ["--format", "jsonl", "--tasks", str(tasks), "--corpus", str(corpus), "--embedder", "hashing"]
    call_command("evaluate", *common, "--rollouts", "2", "--json", str(report))
    with pytest.raises(CommandError, match="run evaluate with --trajectories"):
        call_command("export_trajectories", "--evaluation", str(report), "--jsonl", str(out))
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"settings": {}, "tasks": [{"agent": {"events": []}}]}))
    with pytest.raises(CommandError, match="dataset cannot be read again"):
        call_command("export_trajectories", "--evaluation", str(broken), "--jsonl", str(out))
    settings = json.loads(report.read_text())["settings"]
    broken.write_text(json.dumps({"settings": settings, "tasks": [{"agent": {"events": []}}]}))
    with pytest.raises(CommandError, match="task 1 is not an evaluate row"):
        call_command("export_trajectories", "--evaluation", str(broken), "--jsonl", str(out))
    call_command("evaluate", *common, "--rollouts", "2", "--trajectories", "--json", str(report))
    call_command("export_trajectories", "--evaluation", str(report), "--jsonl", str(out))
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["source"]["task_id"], r["rollout"]) for r in records] == [("t1", 0), ("t1", 1), ("t2", 0), ("t2", 1)]
    texts = {doc.doc_id: doc.text for doc in DOCS}
    for record in records:
        assert set(record["reward"]) == set(TERM_NAMES)
        assert record["gold"]["supporting_doc_ids"] in (["halvorix"], ["halvorix", "dansk"])
        chunks = [c for step in record["steps"] for o in step["observations"] for c in o["chunks"]]
        assert chunks, record["steps"]
        for chunk in chunks:  # the texts cut again as the evaluation cut them
            assert chunk["text"] is not None
            assert texts[chunk["doc_id"]] in chunk["text"]


def test_runs_export_only_for_a_user_who_may_read_them(make_user, make_workspace, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    ada, outsider = make_user("ada"), make_user("mallory")
    workspace = make_workspace(ada)
    corpus = Corpus.objects.create(workspace=workspace, name="Market", slug="market")
    document = Document.objects.create(corpus=corpus, doc_id="a", title="A", source_name="a.txt", kind="txt")
    Chunk.objects.create(document=document, index=0, chunk_id="a#0", text="Ada runs it.")
    run = Run.objects.create(workspace=workspace, question="Who?", rollouts=1, attempts=1, last_seq=len(EVENTS))
    run.corpora.add(corpus)
    RunEvent.objects.bulk_create(
        RunEvent(run=run, seq=seq, attempt=1, type=event.type, payload=to_dict(event))
        for seq, event in enumerate(EVENTS, start=1)
    )
    out = tmp_path / "runs.jsonl"
    call_command("export_trajectories", "--run", str(run.pk), "--user", "ada", "--jsonl", str(out))
    (record,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert record["source"] == {"kind": "run", "run_id": run.pk, "workspace": workspace.slug}
    assert record["steps"][0]["observations"][0]["chunks"][0]["text"] == "Ada runs it."
    assert (record["reward"], record["gold"]) == (None, None)
    with pytest.raises(CommandError, match=f"no run {run.pk} that 'mallory' may read"):
        call_command("export_trajectories", "--run", str(run.pk), "--user", outsider.username, "--jsonl", str(out))
    with pytest.raises(CommandError, match="--run needs --user"):
        call_command("export_trajectories", "--run", str(run.pk), "--jsonl", str(out))
