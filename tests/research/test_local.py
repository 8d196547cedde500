"""Local mode: the harness over a folder in this process (research/local.py), through the SDK's
``SearchAgent(documents=...)``: answers with citations quoted from the folder's files, unreadable files skipped
with their reason, what needs a server refused clearly, and a search from code already in an event loop."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from context1_web_sdk import AsyncSearchAgent, Context1Error, SearchAgent
from context1_web_sdk.local import ServerOnlyError

from research.local import LocalSearch, LocalSettings

QUESTION = "Who leads Halvorix and how much does Halvorix charge?"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("EMBEDDER_BACKEND", "hashing")
    monkeypatch.delenv("VLLM_BASE_URL", raising=False)
    (tmp_path / "press.md").write_text(
        "# Halvorix appoints a chief executive\n\nHalvorix named Dana Fox chief executive in March 2026.\n"
    )
    (tmp_path / "pricing.html").write_text(
        "<html><body><h1>Halvorix pricing</h1><p>Halvorix charges GBP 6 per employee per month.</p></body></html>"
    )
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "crm.csv").write_text("company,owner\nHalvorix,Sam\nGlenmorrow,Ana\n")
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4 not really a pdf")
    (tmp_path / ".hidden.txt").write_text("Halvorix secret hidden note")
    return tmp_path


def test_a_folder_is_searched_in_process_with_cited_answers(folder: Path) -> None:
    with SearchAgent(model="chromadb/context-1", documents=folder) as agent:
        assert agent.local is not None
        result = agent.search(QUESTION, max_steps=5, rollouts=2)
        with pytest.raises(ServerOnlyError, match="needs a server"):
            agent.start(QUESTION)
    assert result.status == "finished"
    assert result.num_queries >= 1
    assert result.usage.turns >= 1
    texts = {path.relative_to(folder).as_posix(): path.read_text() for path in folder.rglob("*.*") if path.is_file()}
    documents = {source.document for source in result.sources}
    assert {"press.md", "pricing.html"} <= documents
    assert ".hidden.txt" not in documents
    assert [source.rank for source in result.sources] == list(range(1, len(result.sources) + 1))
    quoted = [citation for claim in result.claims for citation in claim.citations]
    assert quoted
    for citation in quoted:  # every quote is in the file it cites (the writer verifies them)
        file = citation.doc_id.split("#")[0]
        assert " ".join(citation.quote.split()[:4]) in " ".join(texts[file].split()), citation


def test_unreadable_files_are_skipped_with_their_reason(folder: Path) -> None:
    local = LocalSearch(folder, LocalSettings(embedder="hashing"))
    try:
        assert [skip.path for skip in local.skipped] == ["broken.pdf"]
        assert local.skipped[0].reason
        assert {doc.doc_id.split("#")[0] for doc in local.documents} == {"press.md", "pricing.html", "notes/crm.csv"}

        async def from_a_running_loop() -> dict[str, object]:  # a notebook's cell runs inside an event loop
            return local.search(QUESTION, max_steps=3, rollouts=1)

        assert asyncio.run(from_a_running_loop())["status"] == "finished"
    finally:
        local.close()


def test_an_empty_or_missing_folder_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EMBEDDER_BACKEND", "hashing")
    with pytest.raises(Context1Error, match="nothing readable"):
        SearchAgent(documents=tmp_path)
    with pytest.raises(Context1Error, match="no such folder"):
        SearchAgent(documents=tmp_path / "nope")


def test_the_async_agent_searches_a_folder_too(folder: Path) -> None:
    async def search() -> object:
        async with AsyncSearchAgent(documents=folder) as agent:
            return await agent.search(QUESTION, max_steps=3, rollouts=1)

    assert asyncio.run(search()).status == "finished"  # type: ignore[attr-defined]
