"""Writer tests reach only loopback servers: real network requests are switched off for each test."""

from __future__ import annotations

import pytest

from research.inference import network_guard
from research.writing.citations import Evidence


@pytest.fixture(autouse=True)
def _forbid_real_model_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(network_guard, "ALLOW_NETWORK", False)


def evidence(chunk_id: str, text: str, *, title: str = "", date: str | None = None, source: str = "") -> Evidence:
    doc_id = chunk_id.split("#", maxsplit=1)[0]
    return Evidence(
        chunk_id=chunk_id,
        doc_id=doc_id,
        title=title or doc_id,
        source=source or f"{doc_id}.txt",
        text=text,
        date=date,
    )


def one_document(*texts: str, doc: str = "a", date: str | None = None, title: str = "Profile") -> list[Evidence]:
    """One document's passages, ranked in the order given (chunk ids `<doc>#0`, `<doc>#1`, ...)."""
    return [Evidence(f"{doc}#{i}", doc, title, f"{doc}.html", text, date=date, rank=i) for i, text in enumerate(texts)]
