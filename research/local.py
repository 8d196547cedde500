"""Local mode: the Context-1 harness over a folder of documents, in this process, with no server and no Django.

What the SDK's ``SearchAgent(documents="./folder")`` runs (sdk/context1_web_sdk/local.py), for a notebook: every
file the product can read (the upload parsers: text, Markdown, HTML, PDF, Word, e-mail, CSV, JSON) is parsed, cut
into chunks as ingestion cuts them and indexed once in a temporary hybrid index (embedded Chroma and BM25, removed
on ``close``); each search runs the same harness (rollouts fused by RRF, pruning, the token budget) with the
configured search backend (the offline heuristic agent, or vLLM when ``VLLM_BASE_URL`` is set) and writes the
answer with verified citations (the extractive writer). The result has the API's run-detail shape.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import tempfile
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from research.evaluation.formats import CorpusDoc
from research.evaluation.indexing import discard, index_documents, open_corpus
from research.evaluation.runner import eval_embedder
from research.evaluation.written import evidence_of
from research.harness.budget import BudgetConfig
from research.harness.config import HarnessConfig
from research.harness.ports import ListSink
from research.harness.run import run_research
from research.inference.registry import InferenceSettings, backend_factory
from research.protocol.events import ChunksPruned, ToolCalled, TurnStarted
from research.protocol.events import TurnRecorded as Recorded
from research.retrieval.chroma_client import open_client
from research.retrieval.parsing.dispatch import parse_bytes
from research.retrieval.parsing.types import ParseError
from research.retrieval.port import CorpusPort
from research.retrieval.tokens import packaged_counter
from research.writing.answer import answer_report
from research.writing.writers import WriterSettings, writer_for

MAX_FILE_BYTES = 50 * 2**20
T = TypeVar("T")


@dataclass(frozen=True)
class LocalSettings:
    """The search backend (``heuristic``, or ``openai``: vLLM at ``base_url``) and the embedder (``minilm``,
    offline, or ``hashing``); ``from_env`` reads the server's variables."""

    backend: str = "heuristic"
    base_url: str | None = None
    model: str = "chromadb/context-1"
    api_key: str | None = None
    embedder: str = "minilm"
    timeout: float = 120.0

    @classmethod
    def from_env(cls, model: str = "chromadb/context-1") -> LocalSettings:
        base_url = os.environ.get("VLLM_BASE_URL") or None
        return cls(
            backend="openai" if base_url else "heuristic",
            base_url=base_url,
            model=os.environ.get("VLLM_MODEL") or model,
            api_key=os.environ.get("VLLM_API_KEY") or None,
            embedder="hashing" if os.environ.get("EMBEDDER_BACKEND") == "hashing" else "minilm",
        )


@dataclass(frozen=True)
class Skipped:
    path: str
    reason: str


def read_folder(folder: Path) -> tuple[list[CorpusDoc], list[Skipped]]:
    """Every document of every readable file under ``folder`` (hidden files and folders left out), and the files
    that were not read with the reason."""
    if not folder.is_dir():
        raise FileNotFoundError(f"no such folder: {folder}")
    docs: list[CorpusDoc] = []
    skipped: list[Skipped] = []
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder).as_posix()
        if not path.is_file() or any(part.startswith(".") for part in path.relative_to(folder).parts):
            continue
        if path.stat().st_size > MAX_FILE_BYTES:
            skipped.append(Skipped(relative, f"larger than {MAX_FILE_BYTES // 2**20} MB"))
            continue
        try:
            outcome = parse_bytes(path.name, path.read_bytes())
        except (ParseError, OSError) as error:
            skipped.append(Skipped(relative, str(error)))
            continue
        for number, parsed in enumerate(outcome.documents):
            doc_id = relative if len(outcome.documents) == 1 else f"{relative}#{number + 1}"
            docs.append(CorpusDoc(doc_id=doc_id, title=parsed.title or path.stem, text=parsed.text))
    return docs, skipped


def _complete(work: Coroutine[Any, Any, T]) -> T:
    """``work`` run to its end, from plain code or from code already in an event loop (a notebook's cell)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(work)
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, work).result()


class LocalSearch:
    """A folder indexed once; ``search`` as often as wanted; ``close`` removes the index."""

    def __init__(
        self, folder: str | Path, settings: LocalSettings | None = None, progress: Callable[[str], None] | None = None
    ) -> None:
        self.settings = settings or LocalSettings.from_env()
        self.folder = Path(folder).expanduser().resolve()
        self.documents, self.skipped = read_folder(self.folder)
        if not self.documents:
            raise ValueError(f"nothing readable in {self.folder} ({len(self.skipped)} files skipped)")
        self._temporary = tempfile.TemporaryDirectory(prefix="c1-local-", ignore_cleanup_errors=True)
        root = Path(self._temporary.name)
        try:
            self.counter = packaged_counter()
            self.embedder = eval_embedder(self.settings.embedder, root / "models")
            self._client = open_client(url=None, path=root / "chroma")
            self.index = open_corpus(self._client, root, embedder=self.embedder, counter=self.counter, label="local")
            self.chunks = index_documents(self.index, self.documents, counter=self.counter, progress=progress)
        except BaseException:
            self._temporary.cleanup()  # nothing left behind by a folder that could not be indexed
            raise
        self._searches = 0

    def search(
        self, query: str, *, max_steps: int = 16, context_window: int = 32768, rollouts: int = 4
    ) -> dict[str, Any]:
        """One run of the harness on ``query``: the API's run detail (answer with citations, sources, searches,
        chunks pruned, usage)."""
        if not query.strip():
            raise ValueError("ask a question")
        inference = InferenceSettings(
            base_url=self.settings.base_url,
            model=self.settings.model,
            api_key=self.settings.api_key,
            timeout=self.settings.timeout,
        )
        config = HarnessConfig(
            budget=BudgetConfig(limit=context_window), rollouts=rollouts, max_turns=max_steps, top_k=10
        )
        sink, created = ListSink(), datetime.now(UTC)
        result = _complete(
            run_research(
                question=query,
                corpus=CorpusPort(self.index),
                backend_for=backend_factory(self.settings.backend, inference),
                config=dataclasses.replace(config, counter_name=self.counter.name),
                sink=sink,
                count=self.counter.count,
            )
        )
        ranked = [(doc.doc_id, list(doc.chunk_ids)) for doc in result.documents[:10]]
        writer = writer_for("extractive", WriterSettings(embedder=self.embedder))
        report = answer_report(query, evidence_of(self.index, ranked), writer)
        calls = [event for event in sink.events if isinstance(event, ToolCalled)]
        self._searches += 1
        return {
            "id": self._searches,
            "status": result.status,
            "status_reason": result.error or "",
            "template": "question",
            "question": query,
            "subject": "",
            "corpora": [str(self.folder)],
            "url": self.folder.as_uri(),
            "created_at": created.isoformat(),
            "started_at": created.isoformat(),
            "finished_at": datetime.now(UTC).isoformat(),
            "webhook_url": "",
            "answer": {
                "text": " ".join(claim.text for claim in report.summary),
                "claims": [
                    {
                        "text": claim.text,
                        "citations": [
                            {"doc_id": c.doc_id, "chunk_id": c.chunk_id, "quote": c.quote, "source": c.source}
                            for c in claim.citations
                        ],
                    }
                    for claim in report.summary
                ],
            },
            "sources": [
                {"doc_id": doc.doc_id, "title": doc.title, "score": float(doc.score)} for doc in result.documents[:10]
            ],
            "num_queries": sum(1 for call in calls if call.tool == "search_corpus"),
            "pruned_docs": sum(len(e.chunk_ids) for e in sink.events if isinstance(e, ChunksPruned)),
            "usage": {
                "tokens": sum(e.prompt_tokens + e.completion_tokens for e in sink.events if isinstance(e, Recorded)),
                "turns": sum(1 for event in sink.events if isinstance(event, TurnStarted)),
                "tool_calls": len(calls),
            },
        }

    def close(self) -> None:
        discard(self.index)
        self._temporary.cleanup()
