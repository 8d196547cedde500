"""Every citation rule, failing closed: a claim is shown only if each of its citations holds."""

from __future__ import annotations

from research.protocol.report import Citation, Claim
from research.writing.citations import by_chunk, quote_in, verified
from tests.research.writing.conftest import evidence

CHUNK = evidence(
    "press#0",
    "Acme Robotics raised $40 million in a Series B led by Northwind Ventures in March 2024. "
    "The company now employs about 320 people in Berlin and Lisbon.",
    title="Acme press release",
    date="2024-03-12",
)
OTHER = evidence("blog#2", "Acme Robots (no relation) sells toy robots in Ohio.", date="2019-01-01")
EVIDENCE = by_chunk([CHUNK, OTHER])


def cite(quote: str, chunk: str = "press#0", doc: str = "press") -> Citation:
    return Citation(chunk_id=chunk, doc_id=doc, quote=quote)


def test_a_quote_matches_after_folding_case_punctuation_and_spacing() -> None:
    assert quote_in("acme robotics raised $40  million, in a series-B", CHUNK.text)
    assert not quote_in("Acme Robotics raised $50 million", CHUNK.text)


def test_a_long_quote_may_differ_by_a_character_a_short_one_may_not() -> None:
    assert quote_in("The company now employs about 320 people in Berlin und Lisbon", CHUNK.text)
    assert not quote_in("employs about 330", CHUNK.text)
    assert not quote_in("Acme", CHUNK.text)  # too short to back anything


def test_a_claim_whose_citations_hold_is_shown_with_its_source_and_date() -> None:
    claim = Claim(text="Acme Robotics raised $40 million in March 2024.", citations=(cite(CHUNK.text[:86]),))
    shown, removed = verified([claim], EVIDENCE)
    assert removed == []
    assert shown[0].citations[0].source == "press.txt"
    assert shown[0].date == "2024-03-12"


def test_each_rule_removes_the_claim_with_its_reason() -> None:
    claims = [
        Claim(text="Acme is growing.", citations=()),
        Claim(text="Acme raised money.", citations=(cite("Acme raised money", "P99", ""),)),
        Claim(text="Acme raised money.", citations=(cite("Acme Robotics raised $40 million", "press#0", "blog"),)),
        Claim(text="Acme raised $90 million.", citations=(cite("Acme raised $90 million"),)),
        Claim(
            text="Acme Robotics raised $40 million from Accel.", citations=(cite("Acme Robotics raised $40 million"),)
        ),
        Claim(text="Acme Robotics employs 500 people.", citations=(cite("now employs about 320 people"),)),
        Claim(text="   ", citations=(cite("Acme Robotics raised $40 million"),)),
    ]
    shown, removed = verified(claims, EVIDENCE)
    assert shown == []
    reasons = [r.reason for r in removed]
    assert reasons[0] == "it cites nothing"
    assert reasons[1] == "cites 'P99', which this run did not retrieve"
    assert reasons[2] == "cites 'press#0' as part of 'blog', which it is not"
    assert reasons[3] == "its quote is not in Acme press release (press#0)"
    assert reasons[4] == "its quotes do not contain 'accel'"
    assert reasons[5] == "its quotes do not contain '500', 'acme', 'robotics'"
    assert reasons[6] == "it is empty"


def test_one_bad_citation_removes_the_whole_claim() -> None:
    good, bad = cite("Acme Robotics raised $40 million"), cite("Acme Robotics is profitable")
    shown, removed = verified([Claim(text="Acme Robotics raised $40 million.", citations=(good, bad))], EVIDENCE)
    assert shown == []
    assert "not in" in removed[0].reason


def test_names_and_numbers_may_come_from_any_of_the_claims_quotes() -> None:
    claim = Claim(
        text="Acme Robotics raised $40 million and employs 320 people.",
        citations=(cite("Acme Robotics raised $40 million"), cite("employs about 320 people")),
    )
    shown, _ = verified([claim], EVIDENCE)
    assert [c.text for c in shown] == [claim.text]


def test_old_evidence_is_marked_stale() -> None:
    claim = Claim(text="Acme Robots sells toy robots in Ohio.", citations=(cite(OTHER.text, "blog#2", "blog"),))
    fresh = Claim(text="Acme Robotics raised $40 million.", citations=(cite("Acme Robotics raised $40 million"),))
    shown, _ = verified([claim, fresh], EVIDENCE, stale_before="2023-01-01")
    assert [(c.date, c.stale) for c in shown] == [("2019-01-01", True), ("2024-03-12", False)]
