"""Run-to-run diffs by structured claim: planted changes are found, rewording and reordering are not changes."""

from __future__ import annotations

from research.protocol.report import Citation, Claim, CriterionResult, Report, Section, Source
from research.writing.diff import run_diff, same_claim


def _claim(text: str, chunk: str = "d1#0") -> Claim:
    return Claim(text=text, citations=(Citation(chunk_id=chunk, doc_id=chunk.split("#", maxsplit=1)[0], quote=text),))


def _report(pricing: list[str], news: list[str], sources: list[str], **extra: object) -> Report:
    return Report(
        template="competitor",
        writer="extractive",
        subject="Halvorix",
        summary=tuple(_claim(text) for text in sorted(pricing, key=str.casefold)[:1]),
        sections=(
            Section(facet="pricing", title="Pricing", claims=tuple(_claim(text) for text in pricing)),
            Section(facet="news", title="News", claims=tuple(_claim(text, "d2#1") for text in news)),
        ),
        sources=tuple(Source(doc_id=doc, title=doc.upper(), source=f"{doc}.md") for doc in sources),
        **extra,  # type: ignore[arg-type]
    )


def test_it_finds_planted_claims_sources_and_nothing_else() -> None:
    older = _report(
        ["Halvorix charges 49 dollars a seat.", "The Enterprise minimum is 2,000 dollars."],
        ["Halvorix opened a Berlin office."],
        ["d1", "d2"],
    )
    newer = _report(
        # reordered and reworded only in case and punctuation: not a change
        ["the enterprise minimum is 2,000 dollars", "Halvorix charges 49 dollars a seat."],
        ["Halvorix opened a Berlin office.", "Halvorix hired a new CFO in June 2026."],
        ["d2", "d3"],
    )
    diff = run_diff(older, newer)
    assert [(c.section, c.claim.text) for c in diff.added] == [("news", "Halvorix hired a new CFO in June 2026.")]
    assert [c.claim.text for c in diff.no_longer_supported] == []
    assert diff.unchanged == 4  # the summary's claim, two pricing claims, one news claim
    assert [s.doc_id for s in diff.sources_added] == ["d3"]
    assert [s.doc_id for s in diff.sources_removed] == ["d1"]
    assert diff.changed


def test_a_claim_the_newer_run_no_longer_states_is_no_longer_supported() -> None:
    older = _report(["Halvorix charges 49 dollars a seat."], ["Halvorix opened a Berlin office."], ["d1"])
    newer = _report(["Halvorix charges 49 dollars a seat."], [], ["d1"])
    diff = run_diff(older, newer)
    assert [(c.section, c.title, c.claim.text) for c in diff.no_longer_supported] == [
        ("news", "News", "Halvorix opened a Berlin office.")
    ]
    assert diff.no_longer_supported[0].claim.citations[0].chunk_id == "d2#1"  # its evidence, as it was found
    assert not diff.added


def test_identical_reports_have_no_change() -> None:
    report = _report(["Halvorix charges 49 dollars a seat."], ["Halvorix opened a Berlin office."], ["d1"])
    diff = run_diff(report, report, older_ranking=[("d1", "D1")], newer_ranking=[("d1", "D1")])
    assert not diff.changed
    assert diff.unchanged == 3


def test_a_claim_that_moved_to_another_section_is_neither_new_nor_gone() -> None:
    older = _report(["Halvorix opened a Berlin office."], [], ["d1"])
    newer = _report([], ["Halvorix opened a Berlin office."], ["d1"])
    diff = run_diff(older, newer)
    assert not diff.added
    assert not diff.no_longer_supported
    assert diff.moved == 1
    assert not diff.changed


def test_an_answer_is_compared_as_one_block() -> None:
    """A free question's answer (the question kind says ``compared_by_section`` false): a sentence in another
    part of the answer is the same sentence, not a move; one no longer stated is gone from the answer."""
    older = _report(["Halvorix opened a Berlin office."], ["Halvorix hired a CFO."], ["d1"])
    newer = _report([], ["Halvorix opened a Berlin office."], ["d1"])
    diff = run_diff(older, newer, by_section=False)
    assert diff.moved == 0
    assert [(c.section, c.title, c.claim.text) for c in diff.no_longer_supported] == [
        ("answer", "Answer", "Halvorix hired a CFO.")
    ]
    assert not diff.added
    assert diff.unchanged == 1
    by_section = run_diff(older, newer)
    assert by_section.moved == 1
    assert {c.section for c in by_section.no_longer_supported} == {"news"}


class Corpora:
    """What the corpora hold now: the chunks by id, the documents by id."""

    def __init__(self, chunks: dict[str, str]) -> None:
        self.chunks = chunks

    def holds(self, citation: Citation) -> bool:
        return citation.quote in self.chunks.get(citation.chunk_id, "")

    def exists(self, doc_id: str) -> bool:
        return any(chunk.startswith(f"{doc_id}#") for chunk in self.chunks)


def test_a_claim_left_out_while_its_evidence_holds_is_not_restated_not_unsupported() -> None:
    older = _report(["Halvorix charges 49 dollars a seat.", "Halvorix bills yearly."], [], ["d1", "d3"])
    newer = _report(["Halvorix bills yearly."], [], ["d1"])
    unchanged = Corpora({"d1#0": "Halvorix charges 49 dollars a seat. Halvorix bills yearly.", "d3#0": "x"})
    diff = run_diff(older, newer, stored=unchanged)
    assert [c.claim.text for c in diff.not_restated] == ["Halvorix charges 49 dollars a seat."]
    assert not diff.no_longer_supported
    assert not diff.sources_removed  # d3 still exists
    assert not diff.changed
    changed = Corpora({"d1#0": "Halvorix charges 59 dollars a seat. Halvorix bills yearly."})
    diff = run_diff(older, newer, stored=changed)
    assert {c.claim.text for c in diff.no_longer_supported} == {"Halvorix charges 49 dollars a seat."}
    assert [s.doc_id for s in diff.sources_removed] == ["d3"]  # its document is gone


def test_near_identical_wording_is_the_same_claim_but_a_changed_number_is_not() -> None:
    assert same_claim("Halvorix raised 20 million dollars in June.", "Halvorix raised 20 million dollars in June")
    assert same_claim(
        "Halvorix, the vector database, raised 20 million.", "Halvorix the vector database raised 20 million"
    )
    assert not same_claim("Halvorix charges 49 dollars a seat.", "Halvorix charges 59 dollars a seat.")


def test_changed_icp_verdicts_and_rankings_are_listed_with_their_evidence() -> None:
    cite = Citation(chunk_id="crm#3", doc_id="crm", quote="employees: 420")
    older = Report(
        template="icp",
        writer="rules",
        subject="Pellmoor",
        criteria=(
            CriterionResult(name="size", verdict="unknown", reason="no evidence"),
            CriterionResult(name="region", verdict="match", reason="EU", citations=(cite,)),
        ),
        fit_score=1.0,
    )
    newer = Report(
        template="icp",
        writer="rules",
        subject="Pellmoor",
        criteria=(
            CriterionResult(name="size", verdict="match", reason="420 employees", citations=(cite,)),
            CriterionResult(name="region", verdict="match", reason="EU", citations=(cite,)),
        ),
        fit_score=0.5,
    )
    diff = run_diff(older, newer, older_ranking=[("a", "A"), ("b", "B")], newer_ranking=[("b", "B"), ("c", "C")])
    assert [(v.name, v.before, v.after) for v in diff.verdicts] == [("size", "unknown", "match")]
    assert diff.verdicts[0].criterion is not None
    assert diff.verdicts[0].criterion.citations == (cite,)
    assert diff.fit_score == (1.0, 0.5)
    assert [(d.doc_id, d.rank) for d in diff.entered] == [("c", 2)]
    assert [(d.doc_id, d.rank) for d in diff.left] == [("a", 1)]


def test_a_run_without_a_report_is_compared_by_its_ranking() -> None:
    diff = run_diff(None, _report(["x y z."], [], ["d1"]), older_ranking=[("a", "A")], newer_ranking=[("a", "A")])
    assert not diff.changed
    assert diff.notes == ("the older run has no written report: only its ranked documents are compared.",)
