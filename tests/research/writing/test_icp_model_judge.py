"""The openai writer as the ICP judge of the criteria the rules cannot read, against a loopback server with
scripted replies: a verdict is kept only with quotes found in the cited chunks; lies and failures are unknown."""

from __future__ import annotations

import datetime
import json
from typing import Any

from research.writing.criteria import Criterion
from research.writing.icp import icp_report
from research.writing.openai_writer import OpenAIWriter
from research.writing.writers import WriterSettings
from tests.research.writing.conftest import evidence
from tests.support.openai_server import Reply, serve_openai

AS_OF = datetime.date(2026, 7, 15)
EVIDENCE = (
    evidence("culture#0", "Acme Robotics runs a four-day week and an annual hackathon for all staff.", title="Careers"),
    evidence("team#0", "Acme Robotics employs about 320 people in Berlin.", title="Team page"),
)
CRITERIA = [Criterion("Culture", "Has a people-first culture"), Criterion("Size", "Between 50 and 500 employees")]


def verdict(verdict: str, citations: list[dict[str, str]], reason: str = "a four-day week") -> Reply:
    return Reply(content=json.dumps({"verdict": verdict, "reason": reason, "citations": citations}))


def check(replies: list[Reply]) -> tuple[Any, Any]:
    with serve_openai(replies) as server:
        model = OpenAIWriter(WriterSettings(base_url=server.base_url, model="writer", timeout=5.0))
        report = icp_report("Acme Robotics", CRITERIA, EVIDENCE, as_of=AS_OF, model=model.icp_judge)
    return report, server


def test_the_model_decides_what_the_rules_cannot_with_a_verified_quote() -> None:
    quote = {"id": "P1", "quote": "runs a four-day week and an annual hackathon"}
    report, server = check([verdict("match", [quote])])
    culture, size = report.criteria
    assert (culture.verdict, culture.citations[0].chunk_id) == ("match", "culture#0")
    assert size.verdict == "match"  # the rules decided this one; the model was asked once only
    assert len(server.requests) == 1
    assert "Has a people-first culture" in json.dumps(server.requests[0])
    assert server.requests[0]["response_format"]["json_schema"]["name"] == "verdict"
    assert report.writer == "rules + openai"


def test_a_verdict_whose_quote_is_not_in_its_passage_is_unknown_and_listed() -> None:
    report, _ = check([verdict("match", [{"id": "P1", "quote": "offers unlimited holidays"}])])
    culture = report.criteria[0]
    assert culture.verdict == "unknown"
    assert "citation check" in culture.reason
    assert report.removed[0].text == "Culture: match"


def test_a_verdict_without_citations_or_citing_an_unseen_id_is_unknown() -> None:
    for citations in ([], [{"id": "P9", "quote": "runs a four-day week"}]):
        report, _ = check([verdict("no_match", citations)])
        assert report.criteria[0].verdict == "unknown"


def test_a_malformed_reply_is_retried_once_then_unknown() -> None:
    report, server = check([Reply(content="not json"), Reply(content='{"verdict": "maybe"}')])
    assert len(server.requests) == 2
    culture = report.criteria[0]
    assert culture.verdict == "unknown"
    assert "failed twice" in culture.reason


def test_a_prospect_brief_gets_opening_lines_held_to_their_facts_quotes() -> None:
    from research.writing.company import PROSPECT_FACETS, FacetEvidence, company_report
    from research.writing.extractive import ExtractiveWriter

    facts = (
        evidence("press#0", "Acme Robotics raised $40 million in a Series B round in March 2026.", title="Press"),
        evidence("jobs#0", "Acme Robotics is hiring twelve robotics engineers in Berlin.", title="Careers"),
    )
    funding, hiring = PROSPECT_FACETS[0], PROSPECT_FACETS[3]
    lines = [
        {"text": "Congratulations on the $40 million Series B.", "facts": ["F1"]},
        {"text": "Saw the $90 million round led by Northwind.", "facts": ["F1"]},  # not in the fact: removed
        {"text": "Your Berlin team is growing fast.", "facts": ["F7"]},  # a fact it was not shown: removed
    ]
    with serve_openai([Reply(content=json.dumps({"lines": lines}))]) as server:
        model = OpenAIWriter(WriterSettings(base_url=server.base_url, model="writer", timeout=5.0))

        class Facts:  # the facets written offline; the lines by the model
            name = "openai"
            openers = model.openers

            def write(self, brief):  # type: ignore[no-untyped-def]
                return ExtractiveWriter().write(brief)

        report = company_report(
            "prospect",
            "Acme Robotics",
            [FacetEvidence(funding, facts[:1]), FacetEvidence(hiring, facts[1:])],
            Facts(),
            brief=True,
        )
    openers = next(section for section in report.sections if section.facet == "openers")
    assert [claim.text for claim in openers.claims] == ["Congratulations on the $40 million Series B."]
    assert openers.claims[0].citations[0].chunk_id == "press#0"
    assert len(report.removed) == 2
    assert "fact" in json.dumps(server.requests[0])


def test_without_a_language_model_a_brief_says_why_it_has_no_opening_lines() -> None:
    from research.writing.company import PROSPECT_FACETS, FacetEvidence, company_report
    from research.writing.extractive import ExtractiveWriter

    facts = (evidence("press#0", "Acme Robotics raised $40 million in a Series B round.", title="Press"),)
    report = company_report(
        "prospect", "Acme Robotics", [FacetEvidence(PROSPECT_FACETS[0], facts)], ExtractiveWriter(), brief=True
    )
    assert all(section.facet != "openers" for section in report.sections)
    assert any("need a language-model writer" in note for note in report.notes)
