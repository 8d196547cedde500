from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from research.evaluation.datasets import check_supported, decoded, load_corpus, load_dataset, short_hash
from research.evaluation.formats import CorpusDoc, DatasetError, Task, write_corpus, write_tasks


def _checked_ids(tasks: list[Task], corpus: list[CorpusDoc]) -> set[str]:
    ids = [doc.doc_id for doc in corpus]
    assert len(set(ids)) == len(ids)
    cited = {doc_id for task in tasks for doc_id in task.supporting_doc_ids}
    assert cited <= set(ids)
    return cited


def test_musique_pools_and_deduplicates_the_tasks_paragraphs(eval_data: Path) -> None:
    tasks, corpus = load_dataset("musique", eval_data / "musique" / "musique_train100.json")
    assert len(tasks) == 100
    assert len(corpus) == 1890  # 2,000 paragraphs, 1,890 distinct (title, text)
    assert len(_checked_ids(tasks, corpus)) <= sum(len(task.supporting_doc_ids) for task in tasks) == 237
    shipped = json.loads((eval_data / "musique" / "musique_train100_corpus.json").read_text(encoding="utf-8"))
    assert {(d.title, d.text) for d in corpus} == {(d["title"], d["text"]) for d in shipped}
    assert len({doc.title for doc in corpus}) < len(corpus)  # titles repeat: they cannot be the ids


def test_musique_ids_hash_title_and_text_and_hops_follow_the_decomposition(eval_data: Path) -> None:
    tasks, corpus = load_dataset("musique", eval_data / "musique" / "musique_train100.json")
    doc = corpus[0]
    assert doc.doc_id == hashlib.sha256(f"{doc.title}\n{doc.text}".encode()).hexdigest()[:16]
    first = tasks[0]
    assert first.id == "2hop__150763_14904"
    assert first.answer_aliases == ("Stanley Hall",)
    assert first.hops is not None
    assert [hop.answer for hop in first.hops] == ["American Psychological Association", "G. Stanley Hall"]
    assert [hop.supporting_doc_id for hop in first.hops] == list(first.supporting_doc_ids)
    assert sum(len(task.hops or ()) for task in tasks) == 237
    by_id = {d.doc_id: d for d in corpus}
    assert "Stanley Hall" in by_id[first.hops[1].supporting_doc_id].text


def test_hotpotqa_uses_the_corpus_beside_it_with_title_ids(eval_data: Path) -> None:
    tasks, corpus = load_dataset("hotpotqa", eval_data / "hotpotqa" / "hotpotqa_train100.json")
    assert (len(tasks), len(corpus)) == (100, 994)
    assert all(len(task.supporting_doc_ids) == 2 for task in tasks)
    assert len(_checked_ids(tasks, corpus)) <= 200
    first = tasks[0]
    assert (first.id, first.answer, first.hops) == ("5a77ec115542992a6e59dff7", "a spirit", None)
    assert set(first.supporting_doc_ids) == {short_hash("Alû"), short_hash("Lilu (mythology)")}
    demon = next(doc for doc in corpus if doc.title == "Demon Dice")
    assert demon.text.startswith("Demon Dice, originally published as Chaos Progenitus, is")
    assert "  " not in demon.text  # sentences carry their own leading space


def test_hotpotqa_without_a_corpus_file_pools_the_context(eval_data: Path, tmp_path: Path) -> None:
    lone = tmp_path / "hotpot.json"
    lone.write_bytes((eval_data / "hotpotqa" / "hotpotqa_train100.json").read_bytes())
    tasks, corpus = load_dataset("hotpotqa", lone)
    _, beside = load_dataset("hotpotqa", eval_data / "hotpotqa" / "hotpotqa_train100.json")
    assert len(tasks) == 100
    assert sorted((d.doc_id, d.text) for d in corpus) == sorted((d.doc_id, d.text) for d in beside)


def test_encoded_fields_are_decoded(tmp_path: Path) -> None:
    paragraphs = [
        {"idx": 0, "title": "A", "paragraph_text": "Alpha is a letter.", "is_supporting": True},
        {"idx": 1, "title": "A", "paragraph_text": "Another A.", "is_supporting": False},
    ]
    decomposition = [{"id": 1, "question": "What is Alpha?", "answer": "a letter", "paragraph_support_idx": 0}]
    record = {
        "id": "x",
        "question": "What is Alpha?",
        "answer": "a letter",
        "answer_aliases": repr(["letter"]),  # a Python literal
        "paragraphs": json.dumps(paragraphs),  # a JSON string
        "question_decomposition": repr(decomposition),
    }
    path = tmp_path / "musique.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")  # JSON Lines rather than an array
    tasks, corpus = load_dataset("musique", path)
    assert [d.title for d in corpus] == ["A", "A"]
    assert tasks[0].answer_aliases == ("letter",)
    assert tasks[0].supporting_doc_ids == (short_hash("A\nAlpha is a letter."),)
    assert tasks[0].hops is not None
    assert tasks[0].hops[0].supporting_doc_id == tasks[0].supporting_doc_ids[0]


def test_decoded_leaves_plain_strings_alone() -> None:
    assert decoded("[not a literal") == "[not a literal"
    assert decoded("plain") == "plain"
    assert decoded("{'a': 1}") == {"a": 1}


def test_converted_datasets_round_trip_through_jsonl(eval_data: Path, tmp_path: Path) -> None:
    tasks, corpus = load_dataset("musique", eval_data / "musique" / "musique_train100.json")
    write_tasks(tmp_path / "tasks.jsonl", tasks)
    write_corpus(tmp_path / "corpus.jsonl", corpus)
    assert load_dataset("jsonl", tmp_path / "tasks.jsonl", tmp_path / "corpus.jsonl") == (tasks, corpus)


def test_a_task_citing_a_missing_document_is_refused() -> None:
    with pytest.raises(DatasetError, match="missing from the corpus"):
        check_supported([Task("t", "q", "a", supporting_doc_ids=("nope",))], [CorpusDoc("d", "T", "x")])
    with pytest.raises(DatasetError, match="not unique"):
        check_supported([], [CorpusDoc("d", "T", "x"), CorpusDoc("d", "U", "y")])


def test_jsonl_needs_a_corpus_file(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="needs a corpus"):
        load_dataset("jsonl", tmp_path / "tasks.jsonl")


def test_load_corpus_reads_every_corpus_shape_with_its_formats_ids(eval_data: Path, tmp_path: Path) -> None:
    hotpot = load_corpus(eval_data / "hotpotqa" / "hotpotqa_train100_corpus.json")
    assert hotpot == load_dataset("hotpotqa", eval_data / "hotpotqa" / "hotpotqa_train100.json")[1]
    musique_tasks = load_dataset("musique", eval_data / "musique" / "musique_train100.json")[1]
    musique = load_corpus(eval_data / "musique" / "musique_train100_corpus.json")
    assert {d.doc_id: (d.title, d.text) for d in musique} == {d.doc_id: (d.title, d.text) for d in musique_tasks}
    assert load_corpus(eval_data / "musique" / "musique_train100.json") == musique_tasks
    assert load_corpus(eval_data / "hotpotqa" / "hotpotqa_train100.json") == hotpot
    jsonl = tmp_path / "corpus.jsonl"
    write_corpus(jsonl, [CorpusDoc("a", "A", "alpha"), CorpusDoc("b", "B", "beta")])
    assert load_corpus(jsonl) == [CorpusDoc("a", "A", "alpha"), CorpusDoc("b", "B", "beta")]


def test_load_corpus_explains_what_it_cannot_read(tmp_path: Path) -> None:
    cases = {
        "tasks.jsonl": '{"id": "t1", "question": "q", "answer": "a"}\n',
        "empty.json": "[]",
        "broken.json": "[{",
        "numbers.json": '{"a": 1}',
        "bad_field.jsonl": '{"doc_id": "a", "title": "A", "text": 3}\n',
    }
    expected = {
        "tasks.jsonl": "not a corpus",
        "empty.json": "no documents",
        "broken.json": "not JSON",
        "numbers.json": "not a corpus",
        "bad_field.jsonl": "'text' must be a string",
    }
    for name, text in cases.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        with pytest.raises(DatasetError, match=expected[name]):
            load_corpus(path)
