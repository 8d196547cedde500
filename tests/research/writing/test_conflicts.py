"""Sources that disagree on one figure are shown together: what counts as the same figure, and what does not."""

from __future__ import annotations

import pytest

from research.protocol.report import Citation, Claim, Conflict, Section, report_from_dict, to_dict
from research.reporting.exports import markdown
from research.reporting.presenting import ReportView
from research.retrieval.embedders.hashing import HashingEmbedder
from research.writing.company import COMPETITOR_FACETS as FACETS
from research.writing.company import FacetEvidence, company_report
from research.writing.conflicts import disagreement, figures, with_conflicts
from research.writing.extractive import ExtractiveWriter
from research.writing.names import Company
from tests.research.writing.conftest import evidence

COMPANY = Company.plain("Brackenfold Analytics Ltd")


def claim(text: str, source: str) -> Claim:
    return Claim(text=text, citations=(Citation(chunk_id=f"{source}#0", doc_id=source, quote=text, source=source),))


@pytest.mark.parametrize(
    ("first", "second", "about"),
    [
        # "300+" on the site and "310" in an analyst's note: one figure, two values
        ("Brackenfold serves 300+ customers in Europe.", "We count 310 paying customers at Brackenfold.", "customers"),
        ("Over 2,400 online shops run Brackenfold.", "Brackenfold had 2,150 active shops in June.", "shops"),
        ("Team costs EUR 49 per seat per month.", "Team costs EUR 39 per seat per month.", "per seat"),
        ("L'offre Solo coûte 59 € par praticien.", "L'offre Solo est à 49 EUR par praticien.", "par praticien"),
        ("plus de 4 000 cabinets utilisent Brackenfold", "Brackenfold compte 4 200 cabinets clients", "cabinets"),
    ],
)
def test_two_sources_that_state_one_figure_differently_disagree(first: str, second: str, about: str) -> None:
    assert disagreement(COMPANY, claim(first, "a.html"), claim(second, "b.pdf")) == about


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # two plans are two prices, not one price stated twice
        ("Team costs EUR 49 per seat per month.", "Enterprise costs EUR 89 per seat per month."),
        # a count of another kind of thing
        ("Brackenfold serves 300 customers.", "Brackenfold employs 310 people."),
        # the same value written twice agrees
        ("Brackenfold serves 1,200 customers.", "The company has 1200 customers."),
        # a claim that states both amounts ("was") does not disagree with the older one
        ("Team costs EUR 49 per seat (was EUR 39).", "Team costs EUR 39 per seat."),
        # far apart: another figure (12 new shops added to 1,200), not a restatement
        ("Brackenfold has 1,200 shops.", "Brackenfold added 12 shops in May."),
        # a range's ends, a limit, a version and a year are not figures
        ("It sells to firms with 25 to 2,500 staff.", "Brackenfold has 410 staff."),
        ("Annual billing, minimum 25 employees.", "All 14 Tarnwick employees join Brackenfold."),
        ("Brackenfold 3.0 ships in May with 40 connectors.", "Brackenfold 2.4 ships with 35 connectors."),
    ],
)
def test_claims_that_do_not_state_one_figure_do_not_disagree(first: str, second: str) -> None:
    if "40 connectors" in first:  # the connectors do disagree; the versions must not be what they disagree on
        assert disagreement(COMPANY, claim(first, "a.html"), claim(second, "b.pdf")) == "connectors"
        assert figures("Brackenfold 3.0 ships") == []
        return
    assert disagreement(COMPANY, claim(first, "a.html"), claim(second, "b.pdf")) is None


def test_two_rows_of_one_file_are_not_two_sources() -> None:
    assert (
        disagreement(COMPANY, claim("Plan A: 40 users", "export.csv"), claim("Plan A: 50 users", "export.csv")) is None
    )


def test_a_disagreeing_claim_the_writer_did_not_pick_is_brought_beside_the_shown_one() -> None:
    shown = claim("Brackenfold serves 300+ customers in Europe.", "site.html")
    unpicked = claim("We count 310 paying customers at Brackenfold.", "note.pdf")
    other = claim("Brackenfold raised EUR 12 million.", "news.html")
    sections = [
        Section(facet="customers", title="Customers", claims=(shown,)),
        Section(facet="funding", title="Funding", claims=(other,)),
    ]
    result = with_conflicts(COMPANY, sections, [shown, other, unpicked])
    assert result[0].claims == (shown, unpicked)
    assert result[0].conflicts == (Conflict(about="customers", claims=(shown, unpicked)),)
    assert result[1] == sections[1]


def test_a_report_shows_the_sites_figure_and_the_analysts_together() -> None:
    customers = next(facet for facet in FACETS if facet.key == "customers")
    found = (
        evidence("site#0", "Brackenfold Analytics. More than 1,200 farms use Brackenfold every day.", source="s.html"),
        evidence(
            "note#0",
            "Brackenfold Analytics: a vendor snapshot. By our count the company had 1,140 paying farm customers "
            "at the end of June 2026.",
            title="Brackenfold Analytics: a vendor snapshot",
            source="note.pdf",
            date="2026-09-24",
        ),
    )
    report = company_report(
        "competitor",
        "Brackenfold Analytics Ltd",
        [FacetEvidence(customers, found)],
        ExtractiveWriter(HashingEmbedder(256)),
    )
    (section,) = report.sections
    (conflict,) = section.conflicts
    assert conflict.about in ("farms", "farm")  # as the first claim of the conflict writes it
    assert {c.text for c in conflict.claims} == {
        "More than 1,200 farms use Brackenfold every day.",
        "By our count the company had 1,140 paying farm customers at the end of June 2026.",
    }
    assert report_from_dict(to_dict(report)) == report

    view = ReportView.of(report)
    assert view.sections[0].conflicts[0].about == conflict.about
    assert {c.text for c in view.sections[0].claims}.isdisjoint({c.text for c in conflict.claims})
    assert view.shown == len(report.summary) + 2
    text = markdown(report, heading="Brackenfold")
    assert text.count(f"sources disagree on “{conflict.about}”: see the other figure") == 2
