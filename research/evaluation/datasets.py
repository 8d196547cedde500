"""Converters from public multi-hop QA files (MuSiQue, HotpotQA) to tasks and a corpus, and ``load_dataset``."""

from __future__ import annotations

import ast
import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal, assert_never

from research.evaluation.formats import CorpusDoc, DatasetError, Hop, Task, read_corpus, read_tasks

DatasetFormat = Literal["jsonl", "musique", "hotpotqa"]


def short_hash(text: str) -> str:
    """The doc id scheme of the converters: the first 16 hex digits of the text's SHA-256."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def decoded(value: Any) -> Any:
    """``value``, or what it encodes when it is a JSON or Python-literal string of a list or object."""
    if not isinstance(value, str) or value.strip()[:1] not in ("[", "{"):
        return value
    try:
        return json.loads(value)
    except json.JSONDecodeError:
        pass
    try:
        return ast.literal_eval(value)
    except (ValueError, SyntaxError):
        return value


def _flag(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("true", "1", "yes")
    return bool(value)


def _records(path: Path) -> list[dict[str, Any]]:
    """A JSON array of objects, or JSON Lines; each record's encoded fields decoded."""
    text = path.read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = [json.loads(line) for line in text.splitlines() if line.strip()]
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list) or not all(isinstance(item, dict) for item in data):
        raise DatasetError(f"{path}: expected a JSON array of objects or JSON Lines")
    return [{key: decoded(value) for key, value in item.items()} for item in data]


def _aliases(value: Any) -> tuple[str, ...]:
    value = decoded(value)
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(str(alias) for alias in value)


def _musique_task(record: dict[str, Any]) -> tuple[Task, list[CorpusDoc]]:
    paragraphs = [{k: decoded(v) for k, v in p.items()} for p in decoded(record["paragraphs"])]
    docs = [
        CorpusDoc(short_hash(f"{p['title']}\n{p['paragraph_text']}"), p["title"], p["paragraph_text"])
        for p in paragraphs
    ]
    by_idx = {int(p.get("idx", position)): doc for position, (p, doc) in enumerate(zip(paragraphs, docs, strict=True))}
    hops = []
    for step in decoded(record.get("question_decomposition") or []):
        support = int(step["paragraph_support_idx"])
        if support not in by_idx:
            raise DatasetError(f"MuSiQue task {record['id']}: step {step.get('id')} cites missing paragraph {support}")
        hops.append(Hop(str(step["question"]), str(step["answer"]), by_idx[support].doc_id))
    supporting = [doc.doc_id for p, doc in zip(paragraphs, docs, strict=True) if _flag(p.get("is_supporting"))]
    task = Task(
        id=str(record["id"]),
        question=str(record["question"]),
        answer=str(record["answer"]),
        answer_aliases=_aliases(record.get("answer_aliases")),
        supporting_doc_ids=tuple(dict.fromkeys(supporting)),
        hops=tuple(hops),
    )
    return task, docs


def _pooled(groups: Iterable[Iterable[CorpusDoc]]) -> list[CorpusDoc]:
    pool: dict[str, CorpusDoc] = {}
    for group in groups:
        for doc in group:
            pool.setdefault(doc.doc_id, doc)
    return list(pool.values())


def musique(tasks_path: Path, extra_corpus_path: Path | None = None) -> tuple[list[Task], list[CorpusDoc]]:
    """MuSiQue-Ans records: the corpus is every task's paragraphs pooled and deduplicated (by title and text).

    ``extra_corpus_path`` (a JSON array of ``{"title", "text"}``) adds distractor paragraphs.
    """
    converted = [_musique_task(record) for record in _records(tasks_path)]
    groups = [docs for _, docs in converted]
    if extra_corpus_path is not None:
        extra = _records(extra_corpus_path)
        groups.append([CorpusDoc(short_hash(f"{d['title']}\n{d['text']}"), d["title"], d["text"]) for d in extra])
    return [task for task, _ in converted], _pooled(groups)


def _hotpot_doc(title: str, sentences: Any) -> CorpusDoc:
    sentences = decoded(sentences)
    text = sentences if isinstance(sentences, str) else "".join(str(s) for s in sentences)
    return CorpusDoc(short_hash(title), title, text.strip())


def _hotpot_corpus(path: Path) -> list[CorpusDoc]:
    data = json.loads(path.read_text(encoding="utf-8"))
    if isinstance(data, dict):
        return [_hotpot_doc(title, sentences) for title, sentences in data.items()]
    return [_hotpot_doc(item["title"], item.get("text", item.get("sentences", ""))) for item in data]


def _hotpot_task(record: dict[str, Any]) -> Task:
    titles = [str(decoded(fact)[0]) for fact in decoded(record["supporting_facts"])]
    return Task(
        id=str(record.get("_id", record.get("id"))),
        question=str(record["question"]),
        answer=str(record["answer"]),
        supporting_doc_ids=tuple(dict.fromkeys(short_hash(title) for title in titles)),
    )


def hotpotqa(tasks_path: Path, corpus_path: Path | None = None) -> tuple[list[Task], list[CorpusDoc]]:
    """HotpotQA records and the corpus beside them (``<stem>_corpus.json``: title -> sentences), doc id = hash of
    the title. Without a corpus file the tasks' ``context`` paragraphs are pooled instead."""
    records = _records(tasks_path)
    corpus_path = corpus_path or tasks_path.with_name(f"{tasks_path.stem}_corpus.json")
    if corpus_path.exists():
        corpus = _hotpot_corpus(corpus_path)
    else:
        corpus = _pooled([_hotpot_doc(str(t), s) for t, s in decoded(r.get("context") or [])] for r in records)
    return [_hotpot_task(record) for record in records], corpus


def _corpus_records(path: Path, records: list[dict[str, Any]]) -> list[CorpusDoc]:
    """Documents of a JSON array (or JSON Lines) of records: corpus JSONL (``doc_id``, ``title``, ``text``), the
    MuSiQue corpus (``title``, ``text``: doc id = hash of title and text), MuSiQue or HotpotQA task records."""
    if not records:
        return []
    first = records[0]
    if "paragraphs" in first:
        return musique(path)[1]
    if "context" in first and "supporting_facts" in first:
        return hotpotqa(path)[1]
    if {"doc_id", "title", "text"} <= first.keys():
        return _corpus_docs(records, path)
    if {"title", "text"} <= first.keys():
        pairs = [(_field(r, "title", path), _field(r, "text", path)) for r in records]
        return _pooled([[CorpusDoc(short_hash(f"{title}\n{text}"), title, text) for title, text in pairs]])
    raise DatasetError(
        f"{path}: not a corpus: expected corpus JSONL records (doc_id, title, text), the MuSiQue corpus "
        "(title, text), MuSiQue or HotpotQA task records, or the HotpotQA corpus (an object of title: sentences)"
    )


def _corpus_docs(records: list[dict[str, Any]], path: Path) -> list[CorpusDoc]:
    return [CorpusDoc(_field(r, "doc_id", path), _field(r, "title", path), _field(r, "text", path)) for r in records]


def _field(record: dict[str, Any], key: str, path: Path) -> str:
    value = record.get(key)
    if not isinstance(value, str):
        raise DatasetError(f"{path}: {key!r} must be a string in every record, got {type(value).__name__}")
    return value


def load_corpus(path: Path) -> list[CorpusDoc]:
    """The documents of any corpus the evaluation reads (its shape tells which; see ``_corpus_records``), with
    the doc ids its own format gives them; ``DatasetError`` for anything else or an empty corpus."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError:
        data = None
    if isinstance(data, dict) and data and all(isinstance(v, list) for v in data.values()):
        docs = _hotpot_corpus(path)
    else:
        try:
            docs = _corpus_records(path, _records(path))
        except json.JSONDecodeError as error:
            raise DatasetError(f"{path}: not JSON or JSON Lines ({error.msg})") from None
    if not docs:
        raise DatasetError(f"{path}: the corpus holds no documents")
    return docs


def check_supported(tasks: list[Task], corpus: list[CorpusDoc]) -> None:
    """Raise ``DatasetError`` when doc ids repeat or a task cites a document the corpus lacks."""
    ids = [doc.doc_id for doc in corpus]
    if len(set(ids)) != len(ids):
        raise DatasetError("corpus doc ids are not unique")
    known = set(ids)
    for task in tasks:
        cited = set(task.supporting_doc_ids) | {hop.supporting_doc_id for hop in task.hops or ()}
        if missing := cited - known:
            raise DatasetError(f"task {task.id} cites documents missing from the corpus: {sorted(missing)}")


def load_dataset(
    format: DatasetFormat, tasks_path: Path, corpus_path: Path | None = None
) -> tuple[list[Task], list[CorpusDoc]]:
    """Tasks and corpus of a dataset, checked: unique doc ids, every cited document present."""
    if format == "jsonl":
        if corpus_path is None:
            raise DatasetError("the jsonl format needs a corpus file")
        tasks, corpus = read_tasks(tasks_path), read_corpus(corpus_path)
    elif format == "musique":
        tasks, corpus = musique(tasks_path, corpus_path)
    elif format == "hotpotqa":
        tasks, corpus = hotpotqa(tasks_path, corpus_path)
    else:
        assert_never(format)
    check_supported(tasks, corpus)
    return tasks, corpus
