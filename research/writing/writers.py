"""Writers: what turns a run's retrieved chunks into claims, their settings and their registry.

A writer gets a ``Brief`` (what to answer, the evidence, how many claims at most) and returns
``Draft`` claims with citations; it never decides what is shown: the citation check does
(research/writing/citations.py). Implementations are one module each.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from research.protocol.registry import Registry
from research.protocol.report import Claim
from research.retrieval.embedders import Embedder
from research.writing.citations import Evidence
from research.writing.names import Company


@dataclass(frozen=True)
class Brief:
    """What to write: ``focus`` is the question, or the facet's question about a company."""

    focus: str
    evidence: tuple[Evidence, ...]  # in the run's ranking order
    max_claims: int = 5
    subject: str = ""  # the company a report is about (claims about others are not its claims)
    words: str = ""  # a report facet's vocabulary beyond its focus: what marks a sentence as the facet's
    company: Company | None = None  # the subject's names and look-alikes (None: the subject's typed names only)
    facet: str = ""  # a report facet's key ("news", ...)
    language: str = "en"  # the evidence's language ("en", "fr"): how its words are stemmed and which are stop words

    def known(self) -> Company:
        """The company a report is about, known by its names (research.writing.names)."""
        return self.company if self.company is not None else Company.plain(self.subject)


@dataclass(frozen=True)
class Draft:
    claims: tuple[Claim, ...]
    writer: str  # the writer that wrote them (a fallback names the one that stood in)
    notes: tuple[str, ...] = ()
    # claims with a figure the writer found about the subject but did not pick: a shown claim's disagreeing
    # source is shown beside it (research.writing.conflicts), never picked away silently
    unpicked: tuple[Claim, ...] = ()


class Writer(Protocol):
    @property
    def name(self) -> str: ...

    def write(self, brief: Brief) -> Draft: ...


@dataclass(frozen=True)
class WriterSettings:
    """What a writer may need; each module's ``factory`` reads its own fields and refuses missing ones."""

    embedder: Embedder | None = None  # extractive: relevance by meaning besides words (None: words only)
    base_url: str | None = None  # openai: the server's root (vLLM serving a writer model)
    model: str = ""
    api_key: str = ""
    timeout: float = 60.0
    temperature: float = 0.0


WriterFactory = Callable[[WriterSettings], Writer]

# Adding a writer: a module with the writer and ``factory(settings) -> Writer``, and a line here.
WRITERS: Registry[WriterFactory] = Registry(
    "writer",
    {
        "extractive": "research.writing.extractive:factory",
        "openai": "research.writing.openai_writer:factory",
    },
)


def writer_for(name: str, settings: WriterSettings) -> Writer:
    """The writer registered as ``name``; ValueError for an unknown name or a missing setting."""
    return WRITERS.load(name)(settings)


def evidence_order(evidence: Sequence[Evidence]) -> dict[str, int]:
    """Each chunk's place in the evidence (the run's ranking order)."""
    return {item.chunk_id: index for index, item in enumerate(evidence)}
