from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command


def test_it_benchmarks_speed_and_writes_json(tmp_path: Path) -> None:
    out, path = StringIO(), tmp_path / "speed.json"
    call_command(
        "bench_retrieval",
        "--chunks",
        "150",
        "--chunks",
        "250",
        "--queries",
        "4",
        "--embed-sample",
        "30",
        "--embedder",
        "hashing",
        "--json",
        str(path),
        stdout=out,
    )
    result = json.loads(path.read_text(encoding="utf-8"))
    assert [run["chunks"] for run in result["runs"]] == [150, 250]
    assert result["chunks"] == 250
    assert result["ours_p95_ms"] >= result["ours_p50_ms"] > 0
    assert "speedup at p50" in out.getvalue()
    assert str(path) in out.getvalue()


def test_it_benchmarks_quality_and_writes_json(tmp_path: Path, eval_data: Path) -> None:
    out, path = StringIO(), tmp_path / "deep" / "hotpot.json"
    call_command(
        "bench_retrieval",
        "--quality",
        "hotpotqa",
        "--data",
        str(eval_data),
        "--embedder",
        "hashing",
        "--json",
        str(path),
        stdout=out,
    )
    result = json.loads(path.read_text(encoding="utf-8"))
    assert (result["dataset"], result["tasks"]) == ("hotpotqa", 100)
    assert set(result["recall_at_10"]) == set(result["recall_at_50"]) == {"bm25", "dense", "hybrid"}
    assert "recall@50" in out.getvalue()


def test_a_missing_data_folder_is_one_error(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="dataset musique"):
        call_command(
            "bench_retrieval",
            "--quality",
            "musique",
            "--data",
            str(tmp_path),
            "--json",
            str(tmp_path / "x.json"),
            "--embedder",
            "hashing",
            stdout=StringIO(),
        )


@pytest.mark.parametrize(
    "arguments",
    [
        ["--chunks", "0"],
        ["--chunks", "10", "--queries", "0"],
        ["--chunks", "10", "--quality", "musique"],
        [],
    ],
)
def test_bad_arguments_are_refused(tmp_path: Path, arguments: list[str]) -> None:
    with pytest.raises(CommandError):
        call_command("bench_retrieval", *arguments, "--json", str(tmp_path / "x.json"), stdout=StringIO())
