from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from research.evaluation.formats import (
    CorpusDoc,
    DatasetError,
    Hop,
    Task,
    read_corpus,
    read_tasks,
    write_corpus,
    write_tasks,
)

text = st.text(max_size=40)
hops = st.tuples(text, text, text).map(lambda fields: Hop(*fields))
tasks = st.builds(
    Task,
    id=text,
    question=text,
    answer=text,
    answer_aliases=st.lists(text, max_size=3).map(tuple),
    supporting_doc_ids=st.lists(text, max_size=4).map(tuple),
    hops=st.none() | st.lists(hops, max_size=4).map(tuple),
)
docs = st.builds(CorpusDoc, doc_id=text, title=text, text=st.text(max_size=200))


@settings(max_examples=60, deadline=None)
@given(st.lists(tasks, max_size=5))
def test_tasks_survive_a_jsonl_round_trip(tmp_path_factory: pytest.TempPathFactory, written: list[Task]) -> None:
    path = tmp_path_factory.mktemp("tasks") / "tasks.jsonl"
    assert write_tasks(path, written) == len(written)
    assert read_tasks(path) == written


@settings(max_examples=60, deadline=None)
@given(st.lists(docs, max_size=5))
def test_corpus_survives_a_jsonl_round_trip(tmp_path_factory: pytest.TempPathFactory, written: list[CorpusDoc]) -> None:
    path = tmp_path_factory.mktemp("corpus") / "corpus.jsonl"
    assert write_corpus(path, written) == len(written)
    assert read_corpus(path) == written


def test_it_writes_one_json_object_a_line_and_omits_absent_hops(tmp_path: Path) -> None:
    path = tmp_path / "tasks.jsonl"
    write_tasks(path, [Task("t1", "Who?", "Ada", ("A. L.",), ("d1",)), Task("t2", "Q", "A", hops=())])
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == (
        '{"id": "t1", "question": "Who?", "answer": "Ada", "answer_aliases": ["A. L."], "supporting_doc_ids": ["d1"]}'
    )
    assert lines[1].endswith('"hops": []}')


def test_blank_lines_are_skipped(tmp_path: Path) -> None:
    path = tmp_path / "corpus.jsonl"
    path.write_text('\n{"doc_id": "d", "title": "T", "text": "x"}\n\n', encoding="utf-8")
    assert read_corpus(path) == [CorpusDoc("d", "T", "x")]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "tasks.jsonl:2: not JSON"),
        ("[1, 2]", "tasks.jsonl:2: expected a JSON object"),
        ('{"id": "t", "question": "q"}', "tasks.jsonl:2: 'answer' must be a string"),
        ('{"id": "t", "question": "q", "answer": "a", "answer_aliases": "a"}', "'answer_aliases' must be a list"),
        ('{"id": "t", "question": "q", "answer": "a", "hops": [{"question": "q"}]}', "'answer' must be a string"),
    ],
)
def test_a_malformed_record_is_reported_with_its_line(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "tasks.jsonl"
    path.write_text('{"id": "ok", "question": "q", "answer": "a"}\n' + line + "\n", encoding="utf-8")
    with pytest.raises(DatasetError, match=message.replace("[", r"\[")):
        read_tasks(path)
