"""Tasks generated from a corpus: the chains, the masking, every check that drops a candidate, and the command's
files read back by `evaluate`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from research.evaluation.exploration import ModelExplorer, task_from_reply
from research.evaluation.formats import CorpusDoc, read_corpus, read_tasks, write_corpus
from research.evaluation.generation import (
    GeneratedTask,
    Quote,
    generate,
    names,
    quote_in,
    sentences,
    truths,
    verify,
)
from research.evaluation.metrics import answer_found
from research.evaluation.runner import EvalSettings, temporary_indexes
from research.models import Chunk, Corpus, Document
from research.retrieval.embedders.hashing import HashingEmbedder
from research.retrieval.tokens import EstimatingCounter
from research.writing.openai_writer import OpenAIWriter
from research.writing.writers import WriterSettings
from tests.support.openai_server import MODEL, Reply, serve_openai

DOCS = [
    CorpusDoc(
        "halvorix",
        "Halvorix",
        "Halvorix is a logistics software company based in Rotterdam. Its chief executive Maren Olsted founded the "
        "company after she left Brightwater Freight in the spring.",
    ),
    CorpusDoc(
        "olsted",
        "Maren Olsted",
        "Maren Olsted studied engineering at Delft Polytechnic before her career in shipping. She served on the board "
        "of Glenmorrow Holdings for six years.",
    ),
    CorpusDoc(
        "glenmorrow",
        "Glenmorrow Holdings",
        "Glenmorrow Holdings is an investment firm based in Oslo. The board of Glenmorrow Holdings approved the "
        "purchase of Pellucid Ports in 2019 for a large sum.",
    ),
    CorpusDoc(
        "pellucid",
        "Pellucid Ports",
        "Pellucid Ports operates container terminals in Antwerp and Gdansk. Pellucid Ports employed 1,850 people at "
        "the end of the last financial year.",
    ),
    CorpusDoc(
        "brightwater",
        "Brightwater Freight",
        "Brightwater Freight is a shipping line that was founded in 1962 in the port city of Bergen.",
    ),
    CorpusDoc(
        "delft", "Delft Polytechnic", "Delft Polytechnic opened its maritime engineering school in the year 1958."
    ),
    CorpusDoc("weather", "Weather", "The weather here is mild in summer and wet in winter across the whole region."),
    CorpusDoc("menu", "Menu", "The canteen serves soup and bread every day of the week except on public holidays."),
]
TEXTS = {doc.doc_id: doc.text for doc in DOCS}


class Searches:
    """Searches that return what they are given (nothing by default), recording the queries."""

    def __init__(self, bm25: list[str] | None = None, dense: list[str] | None = None) -> None:
        self.results = {"bm25": bm25 or [], "dense": dense or []}
        self.queries: list[str] = []

    def bm25(self, query: str, n: int) -> list[str]:
        self.queries.append(query)
        return self.results["bm25"][:n]

    def dense(self, query: str, n: int) -> list[str]:
        return self.results["dense"][:n]


def test_sentences_names_and_truths() -> None:
    assert sentences("Too short. " + DOCS[1].text) == [
        "Maren Olsted studied engineering at Delft Polytechnic before her career in shipping.",
        "She served on the board of Glenmorrow Holdings for six years.",
    ]
    assert names("However, Maren Olsted sat on the board of Glenmorrow Holdings in Oslo.") == [
        "Maren Olsted",
        "Glenmorrow Holdings",
        "Oslo",
    ]
    assert names("The board approved it.") == []
    assert truths("Pellucid Ports employed 1,850 people in 2023.", ["Pellucid Ports"]) == ["2023", "1,850"]
    assert truths("The Republic of India joined in 1947.", ["India"]) == ["1947"]  # holds the bridge: no truth


def test_a_quote_is_found_as_written_or_by_its_five_word_windows_in_order() -> None:
    text = DOCS[1].text
    assert quote_in("maren olsted STUDIED engineering", text)
    changed = "Maren Olsted studied engineering at Delft Polytechnic before her long career in shipping"
    assert quote_in(changed, text)  # one word added: 2 of its 3 five-word pieces still found, in order
    assert not quote_in("Maren Olsted studied medicine at Leiden University before her career in banking", text)
    assert not quote_in("Olsted studied law", text)  # under five words: exact only


def test_generated_chains_hide_their_bridges_and_hold_their_truth() -> None:
    searches = Searches()
    result = generate(DOCS, searches, count=6, hops=(2, 3), seed=3)
    assert result.tasks, result.summary()
    for generated in result.tasks:
        task = generated.task
        assert len(task.supporting_doc_ids) == len(generated.clues) == len(generated.bridges) + 1
        assert len(set(task.supporting_doc_ids)) == len(task.supporting_doc_ids)
        for quote in generated.clues:  # each clue a sentence of its document
            assert quote.text in TEXTS[quote.doc_id]
        for bridge, (here, following) in zip(
            generated.bridges, zip(task.supporting_doc_ids, task.supporting_doc_ids[1:], strict=False), strict=True
        ):
            assert answer_found([bridge], [TEXTS[here]])
            assert answer_found([bridge], [TEXTS[following]])
            assert not answer_found([bridge], [task.question])  # never named in the question
        assert answer_found([task.answer], [TEXTS[task.supporting_doc_ids[-1]]])
        assert not answer_found([task.answer], [task.question])
        assert task.id.endswith(f"{len(generated.clues)}hop")
    assert {len(task.clues) for task in result.tasks} <= {2, 3}
    summary = result.summary()
    assert summary["tasks"] == len(result.tasks)
    assert summary["candidates"] == summary["tasks"] + sum(summary["dropped"].values())
    for generated in result.tasks:  # the truth masked in the last clue; nothing of a bridge left unmasked there
        assert "___" in (generated.task.hops or ())[-1].question


def _candidate() -> GeneratedTask:
    result = generate(DOCS, Searches(), count=1, hops=(2, 2), seed=3)
    (generated,) = result.tasks
    return generated


def test_each_check_drops_what_it_must() -> None:
    candidate = _candidate()
    task = candidate.task
    supporting = list(task.supporting_doc_ids)
    kept, reason = verify(candidate, TEXTS, Searches(bm25=["weather"]))
    assert (reason, kept and kept.distractor_doc_ids) == (None, ("weather",))

    assert verify(candidate, TEXTS, Searches(bm25=[*supporting, "menu"]))[1] == "shortcut"
    assert verify(candidate, TEXTS, Searches(dense=supporting))[1] == "shortcut"
    holder = {**TEXTS, "menu": f"The canteen menu names {task.answer} on Fridays."}
    assert verify(candidate, holder, Searches(bm25=["menu"]))[1] == "distractor"
    invented = Quote(candidate.clues[0].doc_id, "Nothing like this sentence was ever written in that document")
    broken = GeneratedTask(task, (invented, *candidate.clues[1:]), candidate.truth_quotes, candidate.bridges)
    assert verify(broken, TEXTS, Searches())[1] == "quote"
    emptied = {**TEXTS, supporting[-1]: "This document no longer says anything of the kind at all."}
    assert verify(candidate, emptied, Searches())[1] in {"quote", "truth"}


_OUT = ("--tasks-out", "unused-tasks.jsonl", "--corpus-out", "unused-corpus.jsonl")
MUSIQUE_CORPUS = Path(__file__).parents[3] / "research/evaluation/qa_data/musique/musique_train100_corpus.json"


def test_the_command_writes_files_evaluate_runs_on(tmp_path: Path) -> None:
    """On MuSiQue's 1,890 paragraphs (a corpus the generator was not written on): a few of the candidates pass the
    shortcut check there, where every one does in a corpus of a few documents."""
    corpus = MUSIQUE_CORPUS
    tasks, corpus_out, summary = tmp_path / "tasks.jsonl", tmp_path / "corpus.jsonl", tmp_path / "summary.json"
    call_command(
        "generate_tasks",
        "--corpus-jsonl",
        str(corpus),
        "--count",
        "2",
        "--hops",
        "2-3",
        "--seed",
        "1",
        "--embedder",
        "hashing",
        "--tasks-out",
        str(tasks),
        "--corpus-out",
        str(corpus_out),
        "--json",
        str(summary),
    )
    figures = json.loads(summary.read_text())
    read = read_tasks(tasks)
    assert len(read) == figures["tasks"] >= 1
    records = [json.loads(line) for line in tasks.read_text().splitlines()]
    assert all(record["clues"] and record["truth_quotes"] and record["hop_count"] >= 2 for record in records)
    assert set(figures["dropped"]) == {"explore", "reply", "quote", "truth", "distractor", "shortcut"}
    report_path = tmp_path / "report.json"
    call_command(
        "evaluate",
        "--format",
        "jsonl",
        "--tasks",
        str(tasks),
        "--corpus",
        str(corpus_out),
        "--backend",
        "heuristic",
        "--rollouts",
        "1",
        "--embedder",
        "hashing",
        "--json",
        str(report_path),
    )
    report = json.loads(report_path.read_text())
    assert report["dataset"]["tasks"] == len(read)
    assert report["agent"]["reward"] is not None


def test_the_command_says_what_is_wrong(tmp_path: Path) -> None:
    out = ["--tasks-out", str(tmp_path / "t.jsonl"), "--corpus-out", str(tmp_path / "c.jsonl")]
    with pytest.raises(CommandError, match="--hops must be"):
        call_command("generate_tasks", "--corpus-jsonl", str(tmp_path / "x.jsonl"), "--hops", "1-5", *out)
    with pytest.raises(CommandError, match="name the corpus"):
        call_command("generate_tasks", *out)
    with pytest.raises(CommandError, match="--explorer openai needs WRITER_BASE_URL"):
        call_command("generate_tasks", "--corpus-jsonl", str(MUSIQUE_CORPUS), "--explorer", "openai", *out)
    with pytest.raises(CommandError, match=r"x\.jsonl"):
        call_command("generate_tasks", "--corpus-jsonl", str(tmp_path / "x.jsonl"), *out)


def test_a_workspace_corpus_is_read_from_its_stored_chunks(make_user, make_workspace, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    workspace = make_workspace(make_user("ada"))
    corpus = Corpus.objects.create(workspace=workspace, name="Market", slug="market")
    for doc in DOCS[:4]:
        document = Document.objects.create(
            corpus=corpus, doc_id=doc.doc_id, title=doc.title, source_name=f"{doc.doc_id}.txt", kind="txt"
        )
        first, _, rest = doc.text.partition(". ")
        for index, text in enumerate((first + ".", rest)):
            Chunk.objects.create(document=document, index=index, chunk_id=f"{doc.doc_id}#{index}", text=text)
    corpus_out = tmp_path / "corpus.jsonl"
    call_command(
        "generate_tasks",
        "--workspace",
        workspace.slug,
        "--corpus",
        "market",
        "--count",
        "1",
        "--embedder",
        "hashing",
        "--tasks-out",
        str(tmp_path / "tasks.jsonl"),
        "--corpus-out",
        str(corpus_out),
    )
    written = {doc.doc_id: doc for doc in read_corpus(corpus_out)}
    assert set(written) == {"glenmorrow", "halvorix", "olsted", "pellucid"}
    assert written["olsted"].text == DOCS[1].text.replace(". ", ".\n", 1)  # its chunks, in order
    with pytest.raises(CommandError, match="no corpus named 'Nothing'"):
        call_command(
            "generate_tasks",
            "--workspace",
            workspace.slug,
            "--corpus",
            "Nothing",
            "--tasks-out",
            "t",
            "--corpus-out",
            "c",
        )


CHIEF = "Its chief executive Maren Olsted founded the company"
STUDIED = "Maren Olsted studied engineering at Delft Polytechnic before her career in shipping."
GOOD = {
    "clues": [{"doc_id": "halvorix", "quote": CHIEF}, {"doc_id": "olsted", "quote": STUDIED}],
    "question": "Where did the chief executive of a Rotterdam logistics software company study engineering?",
    "truth": "Delft Polytechnic",
    "truth_quote": {"doc_id": "olsted", "quote": "studied engineering at Delft Polytechnic"},
}
INVENTED = {
    **GOOD,
    "clues": [
        GOOD["clues"][0],
        {"doc_id": "olsted", "quote": "Maren Olsted trained as a pilot in the navy of Norway."},
    ],
    "question": "Where did the Rotterdam software firm's chief executive train?",
}


def test_a_model_writes_candidates_from_what_the_agent_explored_and_code_verifies_them(tmp_path: Path) -> None:
    """The search agent explores from each seed with its own tools; the scripted model then writes a task: not JSON
    (dropped as reply), with a quote its document does not hold (dropped as quote), then a good one (kept)."""
    replies = [
        Reply(content="I would rather not."),
        Reply(content=json.dumps(INVENTED)),
        Reply(content=json.dumps(GOOD)),
    ]
    counter = EstimatingCounter()
    with (
        serve_openai(replies) as server,
        temporary_indexes(
            [DOCS],
            embedder=HashingEmbedder(dimension=384),
            counter=counter,
            chunk_tokens=512,
            progress=lambda line: None,
        ) as (index,),
    ):
        writer = OpenAIWriter(WriterSettings(base_url=server.base_url, model=MODEL))
        backends = EvalSettings(backend="heuristic").backends()
        explorer = ModelExplorer(writer, backends, counter, index, {doc.doc_id: doc for doc in DOCS})
        proposed = [explorer.propose("halvorix", (2, 2)) for _ in replies]
        asked = [request["messages"][1]["content"] for request in server.requests]
    assert proposed[0] == "reply"
    invented, good = proposed[1], proposed[2]
    assert isinstance(invented, GeneratedTask)
    assert isinstance(good, GeneratedTask)
    assert verify(invented, TEXTS, Searches())[1] == "quote"
    kept, reason = verify(good, TEXTS, Searches())
    assert reason is None
    assert kept is not None
    assert kept.task.supporting_doc_ids == ("halvorix", "olsted")
    assert kept.task.answer == "Delft Polytechnic"
    assert all(text.startswith("Seed: halvorix") and '<document id="halvorix"' in text for text in asked)


def test_a_reply_that_is_no_task_is_refused() -> None:
    known = {"halvorix", "olsted", "glenmorrow"}

    def read(reply: object, shown: set[str] = known, hops: tuple[int, int] = (2, 2), seed: str = "halvorix") -> bool:
        text = reply if isinstance(reply, str) else json.dumps(reply)
        return task_from_reply(text, shown, hops, seed=seed) is not None

    assert read(GOOD)
    assert not read("{not json")
    assert not read(GOOD, shown={"halvorix"})  # a document it was not shown
    assert not read(GOOD, hops=(3, 4))  # too few hops
    assert not read(GOOD, seed="olsted")  # the chain must start at the seed
    assert not read({**GOOD, "question": "Is it Delft Polytechnic where the chief executive studied?"})  # leaked
    assert not read({**GOOD, "truth_quote": {"doc_id": "olsted", "quote": "She served on the board"}})
    assert not read({**GOOD, "clues": [GOOD["clues"][1], GOOD["clues"][1]]})


def test_the_command_explores_with_the_configured_model(tmp_path: Path, settings) -> None:  # type: ignore[no-untyped-def]
    corpus, summary = tmp_path / "docs.jsonl", tmp_path / "summary.json"
    write_corpus(corpus, DOCS)
    out = ["--tasks-out", str(tmp_path / "t.jsonl"), "--corpus-out", str(tmp_path / "c.jsonl"), "--json", str(summary)]
    with serve_openai(lambda body: Reply(content=json.dumps(GOOD))) as server:
        settings.WRITER_BASE_URL, settings.WRITER_MODEL = server.base_url, MODEL
        call_command(
            "generate_tasks",
            "--corpus-jsonl",
            str(corpus),
            "--explorer",
            "openai",
            "--count",
            "1",
            "--hops",
            "2",
            "--embedder",
            "hashing",
            *out,
        )
        asked = len(server.requests)
    figures = json.loads(summary.read_text())
    assert asked == 3  # 3 tries a task with a model
    dropped = figures["dropped"]
    assert figures["candidates"] == sum(dropped.values()) + figures["tasks"] >= 1
    # a chain not from its seed is no task; in 8 documents one search finds a whole chain, or a clue's search the
    # truth's holder too (the same question again is no new candidate)
    assert dropped["reply"] + dropped["shortcut"] + dropped["distractor"] == figures["candidates"]
