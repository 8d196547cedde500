"""Candidate tasks written by a model (``generate_tasks --explorer openai``): the pipeline's explore step.

From a seed document, the search agent explores the corpus through its own tools (the harness: search, grep, read,
prune), asked for what the seed's people, companies, places and dates lead to; a model behind an OpenAI-compatible
endpoint (the writer's, ``WRITER_BASE_URL``) then reads the seed and what was found and writes one task as JSON: a
clue quoted from each document of the chain in order, a question that needs them all without naming what links them,
the truth and the sentence it is quoted from. research/evaluation/generation.py verifies the candidate in code as it
verifies the offline ones; a reply that is no such JSON is dropped as ``reply``. Framework-free.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from research.evaluation.formats import CorpusDoc, Hop, Task
from research.evaluation.generation import GeneratedTask, Quote, sentences
from research.evaluation.metrics import answer_found
from research.harness.config import HarnessConfig
from research.harness.ports import ListSink
from research.harness.run import run_research
from research.inference.registry import BackendFactory
from research.retrieval.port import CorpusPort, Searchable
from research.retrieval.tokens import TokenCounter
from research.writing.openai_writer import OpenAIWriter, WriterReplyError

PASSAGE_CHARS = 1500  # of each document shown to the writing model
FOUND = 6  # documents the exploration may hand on, besides the seed

SYSTEM = """You write one multi-hop search question from documents that a search agent found, for testing search.
Choose a chain of {low} to {high} of the documents, each linked to the next by a person, company, place or date that
both name, starting with the seed. Reply with JSON only:
{{"clues": [{{"doc_id": "...", "quote": "..."}}], "question": "...", "truth": "...",
"truth_quote": {{"doc_id": "...", "quote": "..."}}}}
Rules: one clue per document of the chain, in the order a searcher must find them; each quote is copied word for
word from its document; the question needs every clue and never names what links one document to the next; the
truth is a short name, number or date copied from the last document, and truth_quote is its sentence there."""

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "clues": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"doc_id": {"type": "string"}, "quote": {"type": "string"}},
                "required": ["doc_id", "quote"],
            },
        },
        "question": {"type": "string"},
        "truth": {"type": "string"},
        "truth_quote": {
            "type": "object",
            "properties": {"doc_id": {"type": "string"}, "quote": {"type": "string"}},
            "required": ["doc_id", "quote"],
        },
    },
    "required": ["clues", "question", "truth", "truth_quote"],
}


@dataclass(frozen=True)
class ModelExplorer:
    """Proposes candidates for ``generate(..., propose=explorer.propose)``: explore from a seed, then write."""

    writer: OpenAIWriter
    backend_for: BackendFactory
    counter: TokenCounter
    index: Searchable
    docs: Mapping[str, CorpusDoc]
    max_turns: int = 8

    def propose(self, seed: str, hops: tuple[int, int]) -> GeneratedTask | str:
        """A candidate from the ``seed`` document, or the reason there is none (``reply``: the model's JSON)."""
        found = self._explore(self.docs[seed])
        chain = [self.docs[seed], *(self.docs[doc_id] for doc_id in found if doc_id != seed)][: FOUND + 1]
        if len(chain) < hops[0]:
            return "explore"
        shown = "\n\n".join(
            f'<document id="{doc.doc_id}" title="{doc.title}">\n{doc.text[:PASSAGE_CHARS]}\n</document>'
            for doc in chain
        )
        system = SYSTEM.format(low=hops[0], high=hops[1])
        try:
            reply = self.writer.ask(system, f"Seed: {seed}\n\n{shown}", "task", SCHEMA)
        except WriterReplyError:
            return "reply"
        return task_from_reply(reply, {doc.doc_id for doc in chain}, hops, seed=seed) or "reply"

    def _explore(self, seed: CorpusDoc) -> list[str]:
        opening = " ".join(sentences(seed.text)[:2]) or seed.text[:300]
        question = (
            f"Find the documents that the people, companies, places and dates named in {seed.title or seed.doc_id!r} "
            f"lead to. It says: {opening}"
        )
        config = HarnessConfig(rollouts=1, max_turns=self.max_turns, top_k=FOUND, counter_name=self.counter.name)
        result = asyncio.run(
            run_research(
                question=question,
                corpus=CorpusPort(self.index),
                backend_for=self.backend_for,
                config=config,
                sink=ListSink(),
                count=self.counter.count,
            )
        )
        return [doc.doc_id for doc in result.documents]


def task_from_reply(reply: str, known: set[str], hops: tuple[int, int], *, seed: str) -> GeneratedTask | None:
    """The candidate a model's JSON describes, or None when it is not one: not JSON, a clue or the truth outside the
    documents shown, fewer or more clues than hops allows, a document twice, a chain not starting at the seed, a
    truth quote without the truth, the truth in the question."""
    try:
        data = json.loads(reply[reply.find("{") : reply.rfind("}") + 1])
        clues = tuple(Quote(str(item["doc_id"]), str(item["quote"])) for item in data["clues"])
        question, truth = str(data["question"]).strip(), str(data["truth"]).strip()
        truth_quote = Quote(str(data["truth_quote"]["doc_id"]), str(data["truth_quote"]["quote"]))
    except (ValueError, KeyError, TypeError):
        return None
    chain = [clue.doc_id for clue in clues]
    if not hops[0] <= len(clues) <= hops[1] or len(set(chain)) != len(chain) or not question or not truth:
        return None
    if not set(chain) <= known or chain[0] != seed or truth_quote.doc_id != chain[-1]:
        return None
    if answer_found([truth], [question]) or not answer_found([truth], [truth_quote.text]):
        return None
    answers = ["" for _ in clues[:-1]] + [truth]
    task = Task(
        id="",
        question=question,
        answer=truth,
        supporting_doc_ids=tuple(chain),
        hops=tuple(Hop(clue.text, answer, clue.doc_id) for clue, answer in zip(clues, answers, strict=True)),
    )
    return GeneratedTask(task, clues, (truth_quote,), ())
