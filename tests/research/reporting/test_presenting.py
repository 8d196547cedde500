"""A written report as the pages draw it: one chip per source of a claim."""

from __future__ import annotations

from research.protocol.report import Citation, Claim, Report, Section, Source
from research.reporting.presenting import ReportView


def _citation(doc_id: str, chunk: int, quote: str) -> Citation:
    return Citation(chunk_id=f"{doc_id}#{chunk}", doc_id=doc_id, quote=quote)


def test_a_claim_backed_by_two_passages_of_one_source_shows_one_chip() -> None:
    claim = Claim(
        text="Halvorix charges 49 dollars a seat and bills yearly.",
        citations=(
            _citation("pricing", 0, "49 dollars a seat"),
            _citation("faq", 2, "bills yearly"),
            _citation("pricing", 3, "billed yearly"),
        ),
    )
    report = Report(
        template="competitor",
        writer="extractive",
        subject="Halvorix",
        sections=(Section(facet="pricing", title="Pricing", claims=(claim,)),),
        sources=(
            Source(doc_id="pricing", title="Pricing page", source="p.md"),
            Source(doc_id="faq", title="FAQ", source="faq.md"),
        ),
    )
    (shown,) = ReportView.of(report).sections[0].claims
    assert [(chip.number, chip.title, chip.quote) for chip in shown.chips] == [
        (1, "Pricing page (2 passages)", "49 dollars a seat"),
        (2, "FAQ", "bills yearly"),
    ]
    assert "highlight=pricing%230" in shown.chips[0].href  # the chip opens the source's first cited passage
