"""Analysts' edits applied to a report: a claim is known by its evidence, the latest edit wins, verdicts recount."""

from __future__ import annotations

from research.protocol.report import Citation, Claim, Conflict, CriterionResult, Report, Section
from research.writing.edits import Edit, apply_edits, claim_key


def claim(text: str, quote: str | None = None, doc: str = "press") -> Claim:
    return Claim(text=text, citations=(Citation(chunk_id=f"{doc}#0", doc_id=doc, quote=quote or text),))


OFFICE = claim("Halvorix opened a Berlin office.", "Halvorix opened a Berlin office in May 2026")
PRICE = claim("Pro costs EUR 59 a month.", "Pro: EUR 59 per user per month", doc="pricing")
HIRE = claim("Halvorix hired a CTO.", "Halvorix hired Dana Okonkwo as CTO", doc="mail")


def report(**extra: object) -> Report:
    return Report(
        template="competitor",
        writer="extractive",
        subject="Halvorix",
        summary=(OFFICE,),
        sections=(
            Section(facet="news", title="News", claims=(OFFICE, PRICE)),
            Section(facet="pricing", title="Pricing", not_found=True),
            Section(facet="people", title="People", claims=(HIRE,)),
        ),
        **extra,  # type: ignore[arg-type]
    )


def edit(kind: str, **fields: str) -> Edit:
    return Edit(kind=kind, by="ada", at="2026-12-06T10:00:00+00:00", **fields)  # type: ignore[arg-type]


def test_a_struck_claim_leaves_the_summary_and_its_section_and_is_listed_with_its_reason() -> None:
    edited = apply_edits(report(), [edit("strike", claim_key=claim_key(OFFICE), text="The office is Vienna")])
    assert OFFICE not in edited.summary
    assert [c.text for c in edited.sections[0].claims] == [PRICE.text]
    assert [(s.text, s.reason, s.by) for s in edited.struck] == [(OFFICE.text, "The office is Vienna", "ada")]


def test_a_strike_holds_while_the_quotes_hold_whatever_the_wording_and_lapses_when_the_quote_changes() -> None:
    strike = edit("strike", claim_key=claim_key(OFFICE), text="wrong")
    reworded = claim("Halvorix now has an office in Berlin.", "Halvorix opened a Berlin office in May 2026")
    requoted = claim("Halvorix opened a Berlin office.", "Halvorix opened a Berlin office in June 2026")
    again = Report(template="competitor", writer="openai", subject="Halvorix", summary=(reworded, requoted))
    assert [c.text for c in apply_edits(again, [strike]).summary] == [requoted.text]


def test_a_pinned_claim_moves_to_its_section_and_says_who_pinned_it() -> None:
    edited = apply_edits(report(), [edit("pin", claim_key=claim_key(PRICE), facet="pricing")])
    news, pricing, _ = edited.sections
    assert PRICE.text not in [c.text for c in news.claims]
    assert [(c.text, c.pinned_by) for c in pricing.claims] == [(PRICE.text, "ada")]
    assert not pricing.not_found


def test_a_pin_to_a_section_the_report_lacks_is_left_unapplied_and_the_latest_edit_wins() -> None:
    assert (
        apply_edits(report(), [edit("pin", claim_key=claim_key(PRICE), facet="funding")]).sections[0].claims[1] == PRICE
    )
    pins = [
        edit("pin", claim_key=claim_key(HIRE), facet="news"),
        edit("pin", claim_key=claim_key(HIRE), facet="people"),
    ]
    people = apply_edits(report(), pins).sections[2]
    assert [c.pinned_by for c in people.claims] == ["ada"]


def test_a_conflict_loses_its_box_when_one_of_its_claims_is_struck() -> None:
    other = claim("Pro costs EUR 49 a month.", "Pro: EUR 49 per user per month", doc="old-pricing")
    section = Section(
        facet="pricing",
        title="Pricing",
        claims=(PRICE, other),
        conflicts=(Conflict(about="EUR", claims=(PRICE, other)),),
    )
    base = Report(template="competitor", writer="extractive", subject="Halvorix", sections=(section,))
    edited = apply_edits(base, [edit("strike", claim_key=claim_key(other), text="outdated price")])
    assert edited.sections[0].conflicts == ()
    assert edited.sections[0].claims == (PRICE,)


def test_an_override_replaces_the_verdict_keeps_the_judges_and_counts_the_fit_again() -> None:
    criteria = (
        CriterionResult(name="EU headquarters", verdict="unknown", reason="no quote decides"),
        CriterionResult(name="B2B", verdict="match", reason="businesses pay"),
    )
    base = Report(template="icp", writer="rules", subject="Halvorix", criteria=criteria, fit_score=1.0, coverage=0.5)
    edited = apply_edits(base, [edit("override", criterion="EU headquarters", verdict="no_match", text="HQ is Oslo")])
    first = edited.criteria[0]
    assert first.verdict == "no_match"
    assert first.override is not None
    assert (first.override.verdict, first.override.note, first.override.by) == ("unknown", "HQ is Oslo", "ada")
    assert (edited.fit_score, edited.coverage) == (0.5, 1.0)


def test_notes_attach_to_their_section_or_the_whole_report_and_no_edit_changes_nothing() -> None:
    notes = [edit("note", facet="pricing", text="Ask sales"), edit("note", text="Checked by hand")]
    edited = apply_edits(report(), notes)
    assert [(n.facet, n.text) for n in edited.analyst_notes] == [("pricing", "Ask sales"), ("", "Checked by hand")]
    assert apply_edits(report(), []) == report()


def test_claims_that_share_their_quotes_go_together_and_are_each_listed() -> None:
    reworded = Claim(text="Halvorix has a Berlin office.", citations=OFFICE.citations)
    base = report()
    base = Report(
        template="competitor",
        writer="extractive",
        subject="Halvorix",
        summary=(OFFICE,),
        sections=(Section(facet="news", title="News", claims=(OFFICE, reworded, PRICE)),),
    )
    edited = apply_edits(base, [edit("strike", claim_key=claim_key(OFFICE), text="Vienna")])
    assert [c.text for c in edited.sections[0].claims] == [PRICE.text]
    assert [(s.text, s.section, s.doc_ids) for s in edited.struck] == [
        (OFFICE.text, "News", ("press",)),
        (reworded.text, "News", ("press",)),
    ]
