"""The report metrics: facts stated in the right facet, claims that are gold facts of the right company,
claims about another company, citations re-checked against the chunks, the ICP judge's decided accuracy."""

from __future__ import annotations

import pytest

from research.evaluation.reports import Question, ReportFigures, add_competitor, add_icp, add_question, gold_from
from research.protocol.report import Citation, Claim, CriterionResult, Report, Section

GOLD = {
    "as_of": "2026-07-15",
    "icp": [{"name": "Size", "description": "Between 50 and 500 employees"}],
    "competitors": [
        {
            "company": "Halvorix",
            "facts": [
                {"facet": "pricing", "fact": "Standard costs $900", "all": ["Standard", "$900"], "key": True},
                {"facet": "leadership", "fact": "Dana Okonkwo is VP Engineering", "all": ["Dana Okonkwo"], "key": True},
                {"facet": "news", "fact": "Serverless is GA", "all": ["Serverless", "GA"], "also": ["products"]},
                {"facet": "customers", "fact": "60 countries", "all": ["60 countries"]},
            ],
            "absent": ["customers", "reviews"],
        },
        {"company": "Stellique", "facts": [{"facet": "products", "fact": "3.0", "all": ["Stellique 3.0"]}]},
    ],
    "prospects": [{"company": "Kilnbrook", "icp": {"Size": "no_match", "EU": "match"}}],
}
CHUNKS = {("d1", "d1#0"): "Halvorix's Standard plan costs $900 a month. Stellique 3.0 shipped in February."}


def chunk_text(doc_id: str, chunk_id: str) -> str | None:
    return CHUNKS.get((doc_id, chunk_id))


def claim(text: str, quote: str | None = None) -> Claim:
    return Claim(text=text, citations=(Citation(chunk_id="d1#0", doc_id="d1", quote=quote or text),))


def test_competitor_figures() -> None:
    gold = gold_from(GOLD)
    report = Report(
        template="competitor",
        writer="extractive",
        subject="Halvorix",
        sections=(
            Section(facet="pricing", title="Pricing", claims=(claim("Halvorix's Standard plan costs $900 a month."),)),
            Section(
                facet="products",
                title="Products",
                claims=(claim("Stellique 3.0 shipped in February."), claim("Halvorix Serverless is GA.", "x")),
            ),
            Section(facet="leadership", title="Leadership", claims=(claim("Halvorix hired someone.", "not in it"),)),
            Section(facet="customers", title="Customers", not_found=True),
            Section(facet="reviews", title="Reviews", claims=(claim("Halvorix's Standard plan costs $900 a month."),)),
        ),
    )
    figures = ReportFigures()
    add_competitor(figures, gold, report, chunk_text, 2.0)
    result = figures.figures()
    assert result["fact_recall"] == 0.5  # of the key facts: the price, in pricing; not Dana Okonkwo
    assert result["fact_recall_any_section"] == 0.5
    # of all four facts: the price and Serverless (a news fact that fits products just as well); not 60 countries
    assert result["fact_recall_all_facts"] == 0.5
    assert result["counts"]["key_facts"] == 2
    assert result["counts"]["gold_facts"] == 4
    assert result["claim_precision"] == pytest.approx(3 / 5)  # the price twice and Serverless, of five claims
    assert result["wrong_company_claims"] == 1  # the Stellique sentence in Halvorix's report
    assert result["citations_verified"] == pytest.approx(3 / 5)  # two quotes are not in their chunk
    assert result["absent_facets_said"] == 0.5  # customers said not found; reviews did not
    assert result["seconds_per_report"] == 2.0


def test_icp_figures() -> None:
    gold = gold_from(GOLD)
    report = Report(
        template="icp",
        writer="rules",
        subject="Kilnbrook",
        criteria=(
            CriterionResult(name="Size", verdict="no_match", reason="2,400 employees"),
            CriterionResult(name="EU", verdict="no_match", reason="x"),
            CriterionResult(name="Tech", verdict="unknown", reason="y"),
        ),
    )
    figures = ReportFigures()
    add_icp(figures, gold, report, chunk_text, 1.0)
    result = figures.figures()
    assert result["icp_decided_accuracy"] == 0.5
    assert result["icp_coverage"] == 0.667
    assert result["fact_recall"] is None


def test_a_malformed_gold_file_is_refused() -> None:
    with pytest.raises(KeyError):
        gold_from({"as_of": "2026-07-15", "icp": []})


def test_answer_parts_and_paraphrase_agreement() -> None:
    question = Question(
        "Who is the CTO, and since when?",
        ("Name the CTO and the start date.", "CTO? Start?"),
        ("Vanterpool", "1 September"),
    )

    def answer(text: str) -> Report:
        return Report(template="question", writer="extractive", subject="", summary=(claim(text),))

    figures = ReportFigures()
    add_question(
        figures,
        question,
        [
            answer("Idris Vanterpool joins as CTO on 1 September."),
            answer("Idris Vanterpool joins as CTO on 1 September."),
            answer("Idris Vanterpool is the CTO."),
        ],
    )
    result = figures.figures()
    assert result["answer_parts_found"] == 0.833  # 5 of 6 parts
    assert result["answers_with_every_part"] == 0.667
    assert result["paraphrase_agreement"] == 0.5  # the second paraphrase's answer misses the date
    assert result["partial_answers"] == ["CTO? Start? (missing: 1 September)"]
