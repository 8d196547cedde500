"""What changed between two runs' reports, by structured claim rather than by prose.

The same question run twice gives prose that differs in wording and order, so a line diff is noise. Two
claims are the same claim when their folded texts are equal, or nearly so (``rapidfuzz``'s token-sort ratio
of at least ``SAME_CLAIM``, which absorbs a model writer's rewording of the same sentence), in the same section
first, then in any other (a claim that moved to another facet is *moved*, not new). A claim of the older report
that the newer one no longer states is *no longer supported* only when its evidence changed or vanished (its
cited chunk is gone, or no longer holds its quote, as ``Stored`` tells); while its evidence still holds it is
*not restated* (the newer report chose other claims), which is no change. Sources are compared by document id
(a source the newer report no longer cites is *removed* only when its document is gone), ICP verdicts by
criterion name, a question's documents by their place in the ranking.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from rapidfuzz import fuzz

from research.protocol.report import Citation, Claim, CriterionResult, Report, Source
from research.writing.text import fold, names, numbers

SAME_CLAIM = 92.0  # token-sort ratio (0-100) from which two folded claim texts count as one claim
SUMMARY = "summary"  # the executive summary's section key


@dataclass(frozen=True)
class ClaimChange:
    section: str  # the facet (or "summary", or "answer" for a question's answer)
    title: str  # the section's title
    claim: Claim


@dataclass(frozen=True)
class VerdictChange:
    name: str
    before: str | None  # None: the criterion was not judged in the older run
    after: str | None
    criterion: CriterionResult | None  # the newer verdict with its evidence (None when the criterion went)


@dataclass(frozen=True)
class RankingChange:
    doc_id: str
    title: str
    rank: int  # its place (1-based) in the run it appears in


class Stored(Protocol):
    """What the corpora hold now: whether a cited chunk still holds its quote, whether a document still exists."""

    def holds(self, citation: Citation) -> bool: ...

    def exists(self, doc_id: str) -> bool: ...


@dataclass(frozen=True)
class RunDiff:
    added: tuple[ClaimChange, ...] = ()
    no_longer_supported: tuple[ClaimChange, ...] = ()
    unchanged: int = 0  # claims in both (in the same section or another: ``moved``)
    moved: int = 0  # claims in both, in another section
    not_restated: tuple[ClaimChange, ...] = ()  # claims the newer report left out while their evidence holds
    sources_added: tuple[Source, ...] = ()
    sources_removed: tuple[Source, ...] = ()
    verdicts: tuple[VerdictChange, ...] = ()
    fit_score: tuple[float | None, float | None] = (None, None)
    entered: tuple[RankingChange, ...] = ()  # documents in the newer ranking, not in the older
    left: tuple[RankingChange, ...] = ()
    notes: tuple[str, ...] = field(default=())

    @property
    def changed(self) -> bool:
        """Whether anything a reader would care about changed (what "notify only on change" decides on)."""
        return bool(
            self.added
            or self.no_longer_supported
            or self.sources_added
            or self.sources_removed
            or self.verdicts
            or self.entered
            or self.left
        )


def _claims(report: Report) -> tuple[Claim, ...]:
    return tuple(c for s in report.sections for c in s.claims) + report.summary


def _sections(report: Report, *, by_section: bool) -> list[tuple[str, str, tuple[Claim, ...]]]:
    if not by_section:
        return [("answer", "Answer", _claims(report))]
    return [(SUMMARY, "Executive summary", report.summary)] + [(s.facet, s.title, s.claims) for s in report.sections]


def same_claim(a: str, b: str) -> bool:
    """Equal once folded, or worded nearly alike with the same numbers and names (59 dollars is not 49)."""
    left, right = fold(a), fold(b)
    if left == right:
        return True
    if numbers(a) != numbers(b) or names(a) != names(b):
        return False
    return fuzz.token_sort_ratio(left, right) >= SAME_CLAIM


def _unmatched(claims: Sequence[Claim], others: Sequence[Claim]) -> list[Claim]:
    """The claims of ``claims`` that no claim of ``others`` states (each of ``others`` matches at most once)."""
    free: list[str | None] = [other.text for other in others]
    left: list[Claim] = []
    for claim in claims:
        hit = next((i for i, other in enumerate(free) if other is not None and same_claim(claim.text, other)), None)
        if hit is None:
            left.append(claim)
        else:
            free[hit] = None
    return left


def claims_diff(
    older: Report, newer: Report, *, by_section: bool = True
) -> tuple[list[ClaimChange], list[ClaimChange], int]:
    """(added, no longer stated, unchanged count), section by section (see ``moved`` for claims that changed
    section), or as one block (``by_section`` false)."""
    before = {key: (title, claims) for key, title, claims in _sections(older, by_section=by_section)}
    added: list[ClaimChange] = []
    gone: list[ClaimChange] = []
    unchanged = 0
    seen: set[str] = set()
    for key, title, claims in _sections(newer, by_section=by_section):
        seen.add(key)
        old_claims = before.get(key, (title, ()))[1]
        new_only = _unmatched(claims, old_claims)
        added += [ClaimChange(key, title, claim) for claim in new_only]
        gone += [ClaimChange(key, title, claim) for claim in _unmatched(old_claims, claims)]
        unchanged += len(claims) - len(new_only)
    for key, (title, claims) in before.items():
        if key not in seen:
            gone += [ClaimChange(key, title, claim) for claim in claims]
    return added, gone, unchanged


def moved(
    older: Report, newer: Report, added: Sequence[ClaimChange], gone: Sequence[ClaimChange]
) -> tuple[list[ClaimChange], list[ClaimChange], int]:
    """(added, gone, moved count): a claim the other report states in another section is neither new nor gone."""
    before, after = _claims(older), _claims(newer)
    kept_added = [c for c in added if not any(same_claim(c.claim.text, other.text) for other in before)]
    kept_gone = [c for c in gone if not any(same_claim(c.claim.text, other.text) for other in after)]
    return kept_added, kept_gone, len(added) - len(kept_added)


def verdicts_diff(older: Report, newer: Report) -> list[VerdictChange]:
    before = {criterion.name: criterion for criterion in older.criteria}
    after = {criterion.name: criterion for criterion in newer.criteria}
    changes = [
        VerdictChange(name, before[name].verdict if name in before else None, criterion.verdict, criterion)
        for name, criterion in after.items()
        if name not in before or before[name].verdict != criterion.verdict
    ]
    changes += [VerdictChange(name, old.verdict, None, None) for name, old in before.items() if name not in after]
    return changes


def ranking_diff(
    older: Sequence[tuple[str, str]], newer: Sequence[tuple[str, str]]
) -> tuple[list[RankingChange], list[RankingChange]]:
    """(entered, left) between two rankings of ``(doc_id, title)``."""
    old_ids, new_ids = {doc for doc, _ in older}, {doc for doc, _ in newer}
    entered = [RankingChange(doc, title, rank) for rank, (doc, title) in enumerate(newer, 1) if doc not in old_ids]
    left = [RankingChange(doc, title, rank) for rank, (doc, title) in enumerate(older, 1) if doc not in new_ids]
    return entered, left


def run_diff(
    older: Report | None,
    newer: Report | None,
    *,
    older_ranking: Sequence[tuple[str, str]] = (),
    newer_ranking: Sequence[tuple[str, str]] = (),
    stored: Stored | None = None,
    by_section: bool = True,
) -> RunDiff:
    """Everything that changed from the older run to the newer; a run without a report compares by ranking.
    With ``stored`` (what the corpora hold now), a claim left out is no longer supported only when its evidence
    changed or vanished, and a source no longer cited is removed only when its document is gone. A report is
    compared section by section; an answer (``by_section`` false: the run's kind says) as one block."""
    entered, left = ranking_diff(older_ranking, newer_ranking)
    if older is None or newer is None:
        missing = "the older run" if older is None else "the newer run"
        note = f"{missing} has no written report: only its ranked documents are compared."
        return RunDiff(entered=tuple(entered), left=tuple(left), notes=(note,) if older or newer else ())
    added, gone, unchanged = claims_diff(older, newer, by_section=by_section)
    added, gone, moves = moved(older, newer, added, gone)
    holds = [c for c in gone if stored is not None and c.claim.citations and all(map(stored.holds, c.claim.citations))]
    old_sources = {source.doc_id: source for source in older.sources}
    new_sources = {source.doc_id: source for source in newer.sources}
    return RunDiff(
        added=tuple(added),
        no_longer_supported=tuple(c for c in gone if c not in holds),
        unchanged=unchanged + moves,
        moved=moves,
        not_restated=tuple(holds),
        sources_added=tuple(s for doc, s in new_sources.items() if doc not in old_sources),
        sources_removed=tuple(
            s for doc, s in old_sources.items() if doc not in new_sources and (stored is None or not stored.exists(doc))
        ),
        verdicts=tuple(verdicts_diff(older, newer)),
        fit_score=(older.fit_score, newer.fit_score),
        entered=tuple(entered),
        left=tuple(left),
    )
