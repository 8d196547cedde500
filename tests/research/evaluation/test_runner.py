"""The evaluation runner and `manage.py evaluate` on a tiny hand-made dataset, over a real temporary index."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from research.evaluation.formats import CorpusDoc, Task, write_corpus, write_tasks
from research.evaluation.metrics import METRIC_NAMES
from research.evaluation.reward import TERM_NAMES
from research.evaluation.runner import EvalSettings, Evaluation, evaluate_dataset, recall_ratio
from research.harness.ports import InferenceError
from research.inference.scripted import ScriptedBackend
from research.protocol import wire
from research.retrieval.embedders.hashing import HashingEmbedder
from research.retrieval.tokens import EstimatingCounter
from tests.support.openai_server import MODEL, Call, Reply, serve_openai

DOCS = [
    CorpusDoc("halvorix", "Halvorix", "Halvorix is a cloud firm. Its serverless program is sponsored by Mirela Dansk."),
    CorpusDoc("dansk", "Mirela Dansk", "Mirela Dansk worked at Quintara Labs before she joined Halvorix in 2021."),
    CorpusDoc("quintara", "Quintara Labs", "Quintara Labs is a robotics firm based in Oslo, Norway."),
    CorpusDoc("initech", "Initech", "Initech sells vector search software to regional banks."),
    CorpusDoc("globex", "Globex", "Globex raised the price of its Team plan in June."),
    CorpusDoc("hooli", "Hooli", "Hooli launched Project Nimbus for retailers."),
    CorpusDoc("umbra", "Umbra", "Umbra builds serverless databases for game studios."),
]
TASKS = [
    Task("t1", "Who sponsors the serverless program of Halvorix?", "Mirela Dansk", (), ("halvorix",)),
    Task(
        "t2",
        "Where did the sponsor of the Halvorix serverless program work before?",
        "Quintara Labs",
        (),
        ("halvorix", "dansk"),
    ),
    Task("t3", "What does Initech sell to banks?", "vector search", ("vector search software",), ("initech",)),
]


@pytest.fixture
def dataset(tmp_path: Path) -> tuple[Path, Path]:
    tasks, corpus = tmp_path / "tasks.jsonl", tmp_path / "corpus.jsonl"
    write_tasks(tasks, TASKS)
    write_corpus(corpus, DOCS)
    return tasks, corpus


def evaluation(settings: EvalSettings, lines: list[str], backend_for=None) -> Evaluation:  # type: ignore[no-untyped-def]
    backends = backend_for or settings.backends()
    return Evaluation(settings, backends, HashingEmbedder(dimension=384), EstimatingCounter(), lines.append)


def test_it_evaluates_the_heuristic_agent_against_a_single_search(dataset: tuple[Path, Path]) -> None:
    settings, lines = EvalSettings(backend="heuristic", rollouts=2, top_k=3, embedder="hashing"), []
    report = evaluate_dataset("jsonl", *dataset, limit=None, run=evaluation(settings, lines))
    assert report["dataset"] == {"tasks": 3, "documents": 7, "chunks": 7}
    assert report["settings"]["rollouts"] == 2
    assert "api_key" not in report["settings"]
    for system in ("agent", "baseline"):
        assert set(report[system]) == {*METRIC_NAMES, "reward_terms"}
        assert set(report[system]["reward_terms"]) == set(TERM_NAMES)
        assert 0.01 <= report[system]["reward"] <= 2.0
    rows = {row["id"]: row for row in report["tasks"]}
    assert rows["t3"]["baseline"]["recall"] == 1.0
    assert rows["t3"]["baseline"]["final_answer_found"] is True
    assert rows["t1"]["agent"]["final_answer_found"] is True
    assert all(row["status"] == "finished" for row in rows.values())
    assert all(len(row["agent"]["documents"]) <= 3 for row in rows.values())
    assert report["agent"]["turns_per_run"] > 1.0
    assert report["baseline"]["turns_per_run"] == 1.0
    assert report["agent"]["trajectory_recall"] >= report["agent"]["recall"]
    for row in rows.values():  # each rollout's reward with its terms; the agent's reward is their mean
        rollouts = row["agent"]["rollouts"]
        assert [rollout["rollout"] for rollout in rollouts] == [0, 1]
        assert row["agent"]["reward"] == pytest.approx(sum(r["reward"] for r in rollouts) / 2, abs=1e-4)
        assert row["baseline"]["reward_terms"]["turn_penalty"] == 0.0
    assert [line.split(":")[0] for line in lines if line.startswith("[")] == ["[1/3] t1", "[2/3] t2", "[3/3] t3"]


def test_the_scripted_single_search_agent_returns_what_the_baseline_returns(dataset: tuple[Path, Path]) -> None:
    settings, lines = EvalSettings(backend="scripted", rollouts=1, top_k=3, embedder="hashing"), []
    report = evaluate_dataset("jsonl", *dataset, limit=2, run=evaluation(settings, lines))
    assert [row["id"] for row in report["tasks"]] == ["t1", "t2"]
    for row in report["tasks"]:
        assert row["agent"]["documents"] == row["baseline"]["documents"]
        assert row["agent"]["recall"] == row["baseline"]["recall"]
        assert row["agent"]["turns_per_run"] == 2.0  # search, then complete
        assert row["agent"]["tool_calls_per_turn"] == 1.0
        assert row["agent"]["prune_accuracy"] is None
        (rollout,) = row["agent"]["rollouts"]  # the same documents found the same way: the same reward
        assert {key: rollout[key] for key in ("f_beta", "trajectory_recall", "final_answer", "reward")} == {
            key: row["baseline"]["reward_terms"][key]
            for key in ("f_beta", "trajectory_recall", "final_answer", "reward")
        }


def test_a_failed_run_scores_nothing_and_the_baseline_still_runs(dataset: tuple[Path, Path]) -> None:
    settings, lines = EvalSettings(backend="scripted", rollouts=1, embedder="hashing"), []

    def broken(rollout: int) -> ScriptedBackend:
        return ScriptedBackend([InferenceError("the model is down")])

    report = evaluate_dataset("jsonl", *dataset, limit=1, run=evaluation(settings, lines, broken))
    row = report["tasks"][0]
    assert row["status"] == "failed"
    assert "the model is down" in row["error"]
    assert (row["agent"]["documents"], row["agent"]["recall"], row["agent"]["final_answer_found"]) == ([], 0.0, False)
    assert row["baseline"]["recall"] == 1.0
    assert row["agent"]["reward"] == 0.0  # a failed rollout: no output, no reward
    assert "failed" in lines[-1]


def test_it_refuses_unknown_or_unconfigured_backends() -> None:
    with pytest.raises(ValueError, match="needs a server URL"):
        EvalSettings(backend="openai").backends()
    with pytest.raises(ValueError, match=r"unknown inference backend 'oracle' \(known: heuristic, scripted, openai\)"):
        EvalSettings(backend="oracle").backends()


def test_the_evaluate_command_writes_every_figure(dataset: tuple[Path, Path], tmp_path: Path) -> None:
    tasks, corpus = dataset
    out, target = io.StringIO(), tmp_path / "reports" / "eval.json"
    call_command(
        "evaluate",
        format="jsonl",
        tasks=str(tasks),
        corpus=str(corpus),
        backend="heuristic",
        rollouts=2,
        budget=8000,
        top_k=5,
        json=str(target),
        embedder="hashing",
        stdout=out,
    )
    report = json.loads(target.read_text())
    for system in ("agent", "baseline"):
        assert set(report[system]) >= {
            "final_answer_found",
            "recall",
            "precision",
            "f1",
            "trajectory_recall",
            "prune_accuracy",
            "turns_per_run",
            "tool_calls_per_turn",
            "tokens_per_run",
        }
    assert report["settings"] | {"budget": 8000, "top_k": 5, "rollouts": 2, "format": "jsonl"} == report["settings"]
    assert len(report["tasks"]) == 3
    assert set(report["wall_s"]) == {"index", "agent", "baseline", "total"}
    text = out.getvalue()
    assert "[3/3] t3" in text
    assert text.count("recall") >= 4  # a progress line per task, and the table's row
    assert "metric" in text
    assert "baseline" in text


def test_the_evaluate_command_explains_bad_input(dataset: tuple[Path, Path], tmp_path: Path) -> None:
    tasks, _ = dataset
    target = str(tmp_path / "eval.json")
    with pytest.raises(CommandError, match="needs a corpus file"):
        call_command("evaluate", format="jsonl", tasks=str(tasks), json=target, embedder="hashing")
    with pytest.raises(CommandError, match="no such file"):
        call_command("evaluate", format="musique", tasks=str(tmp_path / "nope.json"), json=target)
    with pytest.raises(CommandError, match="rollouts"):
        call_command("evaluate", format="jsonl", tasks=str(tasks), json=target, rollouts=9)


def _search_then_complete(request: dict[str, Any]) -> Reply:
    """A model over HTTP: search the question, then complete with the chunks it got, in order."""
    messages = request["messages"]
    results = [m["content"] for m in messages if m["role"] == "tool"]
    if not results:
        question = next(m["content"] for m in messages if m["role"] == "user")
        return Reply(tool_calls=[Call("search_corpus", json.dumps({"query": question}))], usage=(40, 9, 0))
    chunk_ids = [chunk.chunk_id for content in results for chunk in wire.parse(content)]
    return Reply(tool_calls=[Call("complete", json.dumps({"ranked_chunk_ids": chunk_ids}))], usage=(90, 12, 32))


def test_the_evaluate_command_drives_an_openai_compatible_server(dataset: tuple[Path, Path], tmp_path: Path) -> None:
    tasks, corpus = dataset
    target = tmp_path / "eval.json"
    with serve_openai(_search_then_complete) as server:
        call_command(
            "evaluate",
            format="jsonl",
            tasks=str(tasks),
            corpus=str(corpus),
            backend="openai",
            rollouts=2,
            budget=8000,
            top_k=5,
            json=str(target),
            embedder="hashing",
            base_url=server.base_url,
            model=MODEL,
            stdout=io.StringIO(),
        )
    report = json.loads(target.read_text())
    assert len(server.requests) == len(TASKS) * 2 * 2  # two rollouts of two calls for every task
    assert {request["model"] for request in server.requests} == {MODEL}
    assert all(request["tools"] for request in server.requests)
    # One search, completed as returned: the same documents as the single-pass baseline, task by task.
    for row in report["tasks"]:
        assert row["status"] == "finished"
        assert row["agent"]["documents"] == row["baseline"]["documents"]
    assert report["agent"]["recall"] == report["baseline"]["recall"] > 0
    # The server's usage is what the run counts: (40 + 9) + (90 + 12) per rollout, two rollouts.
    assert report["agent"]["processed_tokens_per_run"] == 2 * (40 + 9 + 90 + 12)
    assert report["settings"]["backend"] == "openai"
    assert "api_key" not in report["settings"]


DISTRACTORS = [
    CorpusDoc("x-serverless", "Serverless", "Serverless programs are sponsored by cloud firms; sponsors fund them."),
    CorpusDoc("x-banks", "Banks", "Regional banks buy software; vector search is sold to banks by many vendors."),
    CorpusDoc("x-oslo", "Oslo", "Oslo is the capital of Norway; robotics labs work there."),
    DOCS[3],  # Initech: already in the task corpus (the same document in both corpora)
]


def test_the_evaluate_command_measures_the_agent_with_a_distractor_corpus(
    dataset: tuple[Path, Path], tmp_path: Path
) -> None:
    tasks, corpus = dataset
    distractor, target, out = tmp_path / "distractor.jsonl", tmp_path / "eval.json", io.StringIO()
    write_corpus(distractor, DISTRACTORS)
    call_command(
        "evaluate",
        format="jsonl",
        tasks=str(tasks),
        corpus=str(corpus),
        distractor_corpus=str(distractor),
        rollouts=2,
        budget=8000,
        top_k=5,
        json=str(target),
        embedder="hashing",
        stdout=out,
    )
    report = json.loads(target.read_text())
    assert report["dataset"]["distractor"] == {"documents": 3, "chunks": 3, "already_in_the_task_corpus": 1}
    assert report["settings"]["distractor_corpus"] == str(distractor)
    for system in ("agent", "baseline"):
        assert set(report["with_distractor"][system]) == set(METRIC_NAMES)
        with_it, without = report["with_distractor"][system]["recall"], report[system]["recall"]
        assert report[system]["distractor_recall_ratio"] == pytest.approx(with_it / without)
    rows = report["tasks"]
    assert all(set(row["with_distractor"]) == {"status", "error", "agent", "baseline"} for row in rows)
    assert all(row["with_distractor"]["status"] == "finished" for row in rows)
    # The distractor corpus is searched: its documents reach the runs' results.
    found = {
        doc for row in rows for system in ("agent", "baseline") for doc in row["with_distractor"][system]["documents"]
    }
    assert found & {"x-serverless", "x-banks"}
    assert not {doc for row in rows for doc in row["agent"]["documents"]} & {"x-serverless", "x-banks", "x-oslo"}
    assert set(report["wall_s"]) >= {"agent_with_distractor", "baseline_with_distractor"}
    table = out.getvalue()
    assert "agent+distractor" in table
    assert "distractor_recall_ratio" in table


def test_the_evaluate_command_explains_a_bad_distractor_corpus(dataset: tuple[Path, Path], tmp_path: Path) -> None:
    tasks, corpus = dataset
    target, bad = str(tmp_path / "eval.json"), tmp_path / "bad.json"
    bad.write_text('[{"name": "not a document"}]', encoding="utf-8")
    common = {"format": "jsonl", "tasks": str(tasks), "corpus": str(corpus), "json": target, "embedder": "hashing"}
    with pytest.raises(CommandError, match="no such file"):
        call_command("evaluate", distractor_corpus=str(tmp_path / "nope.json"), **common)
    with pytest.raises(CommandError, match=r"dataset: .*not a corpus"):
        call_command("evaluate", distractor_corpus=str(bad), **common)
    assert not Path(target).exists()


def test_the_recall_ratio_is_undefined_without_recall() -> None:
    assert recall_ratio({"recall": 0.5}, {"recall": 0.8}) == pytest.approx(0.625)
    assert recall_ratio({"recall": 0.5}, {"recall": 0.0}) is None
    assert recall_ratio({"recall": None}, {"recall": 0.8}) is None
