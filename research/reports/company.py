"""Reports about a company, one facet per rollout, each written from what its rollout found, claims kept only
when they are about the company:

- the competitor report (products, pricing, funding, ...), with an executive summary of each facet's
  strongest claim;
- the prospect brief (funding, executive hires, launches, hiring, press, technology): what makes a good
  opening for outreach, its summary the newest dated claims first.

A facet's claims come from its own rollout's documents, so one facet's evidence never backs another's
claim. A sentence counts as about the company when it names it as a whole word, or when it opens with
"It"/"Its"/"The company" in a document whose title names the company; anything else (a competitor
mentioned in the same document) is left out. A facet with no supported claim says so (``not_found``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from research.protocol.report import Claim, Removed, Report, Section
from research.reports.answer import sources_of
from research.reports.citations import Evidence, by_chunk, verified
from research.reports.extractive import topic
from research.reports.text import about
from research.reports.writers import Brief, Writer
from research.retrieval.sparse import tokenize

FACET_CLAIMS = 4
SUMMARY_CLAIMS = 5


def literal(text: str) -> str:
    """``text`` safe inside a facet's question template (its braces are not placeholders)."""
    return text.replace("{", "{{").replace("}", "}}")


@dataclass(frozen=True)
class Facet:
    key: str
    title: str
    question: str  # with {company}

    def ask(self, company: str) -> str:
        return self.question.format(company=company)


COMPETITOR_FACETS = (
    Facet(
        "products",
        "Products and launches",
        "What products has {company} launched, released or announced (product, launch, release, feature)?",
    ),
    Facet("pricing", "Pricing", "What does {company} charge (price, plan, pricing, cost, fee, discount, minimum)?"),
    Facet(
        "funding",
        "Funding and finances",
        "What funding or financial results has {company} reported (raised, round, Series, investors, valuation,"
        " revenue, profit, closed)?",
    ),
    Facet(
        "leadership",
        "Leadership and hiring",
        "Who leads {company} and who is it hiring (CEO, founder, executive, appointed, joined, hiring, role)?",
    ),
    Facet("customers", "Customers", "Which customers use {company} (customer, client, deployed, chose, signed)?"),
    Facet(
        "partnerships",
        "Partnerships",
        "Which partners does {company} work with (partner, partnership, integration, marketplace, alliance)?",
    ),
    Facet(
        "technology",
        "Technology",
        "What technology is {company} built on (architecture, built, engine, stack, storage, index, runs on)?",
    ),
    Facet(
        "reviews",
        "Reviews and reputation",
        "What do analysts and customers say about {company} (analyst, review, rated, strengths, weaknesses)?",
    ),
    Facet("news", "News", "What recent news involves {company} (announced, news, today, acquired, press)?"),
)
PROSPECT_FACETS = (
    Facet(
        "funding",
        "Funding",
        "When did {company} raise money (raised, funding, round, Series, investors, valuation)?",
    ),
    Facet(
        "executives",
        "Executive hires",
        "Which executives did {company} appoint or hire (appointed, joins, named, CEO, CTO, VP, head of)?",
    ),
    Facet("launches", "Launches", "What did {company} launch or release (launched, released, announced, new)?"),
    Facet("hiring", "Hiring", "Is {company} hiring (hiring, open roles, recruiting, jobs, team growth)?"),
    Facet("press", "Press", "What press coverage did {company} get (press, interview, featured, award, news)?"),
    Facet(
        "technology",
        "Technology in use",
        "What technology does {company} use (uses, runs on, built on, stack, migrated, adopted)?",
    ),
)
TEMPLATE_FACETS = {"competitor": COMPETITOR_FACETS, "prospect": PROSPECT_FACETS}
MAX_ASPECTS = 3


def facets_for(template: str, aspects: Sequence[str] = ()) -> tuple[Facet, ...]:
    """The template's facets, then one per extra aspect the member asked for (at most ``MAX_ASPECTS``)."""
    extra = tuple(
        Facet(f"aspect-{index}", aspect.strip()[:80], f"{literal(aspect.strip())} of {{company}}?")
        for index, aspect in enumerate([a for a in aspects if a.strip()][:MAX_ASPECTS], start=1)
    )
    return TEMPLATE_FACETS[template] + extra


def about_company(company: str, claim: Claim, evidence: dict[str, Evidence]) -> bool:
    """A claim is about the company when its text names it, or opens with "It"/"The company" in a document whose
    title names it (``research.reports.text.about``)."""
    titles = [evidence[c.chunk_id].title for c in claim.citations if c.chunk_id in evidence]
    return about(company, claim.text, titles)


@dataclass(frozen=True)
class FacetEvidence:
    facet: Facet
    evidence: tuple[Evidence, ...]  # what the facet's rollout found, in its ranking order


def _facet_section(
    company: str, item: FacetEvidence, writer: Writer, stale_before: str | None
) -> tuple[Section, list[Removed], tuple[str, ...], str]:
    brief = Brief(focus=item.facet.ask(company), evidence=item.evidence, max_claims=FACET_CLAIMS, subject=company)
    draft = writer.write(brief)
    chunks = by_chunk(item.evidence)
    shown, removed = verified(draft.claims, chunks, stale_before=stale_before)
    kept = [claim for claim in shown if about_company(company, claim, chunks)]
    removed += [Removed(text=claim.text, reason=f"it is not about {company}") for claim in shown if claim not in kept]
    section = Section(facet=item.facet.key, title=item.facet.title, claims=tuple(kept), not_found=not kept)
    return section, removed, draft.notes, draft.writer


def _once(company: str, facets: Sequence[FacetEvidence], sections: list[Section]) -> list[Section]:
    """Each claim in one section only: where it holds more of the facet's own words, then where the writer
    ranked it higher (then the earlier facet)."""
    best: dict[str, tuple[int, int, int]] = {}
    for index, (item, section) in enumerate(zip(facets, sections, strict=True)):
        focus = set(tokenize([topic(Brief(focus=item.facet.ask(company), evidence=(), subject=company))])[0])
        for position, claim in enumerate(section.claims):
            shared = len(focus & set(tokenize([claim.text])[0]))
            best[claim.text] = min(best.get(claim.text, (-shared, position, index)), (-shared, position, index))
    result = []
    for index, section in enumerate(sections):
        claims = tuple(claim for claim in section.claims if best[claim.text][2] == index)
        result.append(dataclasses.replace(section, claims=claims, not_found=not claims))
    return result


def _first_lower(text: str) -> str:
    return text[:1].lower() + text[1:]


def _openers(
    company: str,
    writer: Writer,
    facts: list[Claim],
    facets: Sequence[FacetEvidence],
    stale_before: str | None,
) -> tuple[Section | None, list[Removed], str]:
    """A prospect brief's suggested opening lines: only from a language-model writer, each held by the citation
    check to the quotes of the facts it draws on."""
    suggest = getattr(writer, "openers", None)
    if suggest is None:
        return None, [], "Suggested opening lines need a language-model writer (WRITER_BACKEND=openai)."
    if not facts:
        return None, [], "No opening lines: nothing was found to open with."
    try:
        lines = suggest(company, facts)
    except Exception as error:  # the writer's reply failed twice: the brief stands without lines
        return None, [], f"The opening lines could not be written ({type(error).__name__}: {error})."
    chunks = by_chunk([e for item in facets for e in item.evidence])
    # A line's first word is capitalised by its place ("Congratulations on ..."), not as a name to be found in
    # the quotes; every other name and number still must be.
    originals = {_first_lower(line.text): line.text for line in lines}
    checked = [dataclasses.replace(line, text=_first_lower(line.text)) for line in lines]
    shown, removed = verified(checked, chunks, stale_before=stale_before)
    shown = [dataclasses.replace(claim, text=originals[claim.text]) for claim in shown]
    removed = [dataclasses.replace(item, text=originals.get(item.text, item.text)) for item in removed]
    section = Section(facet="openers", title="Suggested opening lines", claims=tuple(shown), not_found=not shown)
    return section, removed, "Opening lines suggested by the openai writer; each holds only its facts' quotes."


def company_report(
    template: str,
    company: str,
    facets: Sequence[FacetEvidence],
    writer: Writer,
    *,
    stale_before: str | None = None,
) -> Report:
    """Write, check and assemble the report: a section per facet and a summary (a competitor report: each
    facet's first claim; a prospect brief: the openings, dated claims newest first)."""
    sections: list[Section] = []
    removed: list[Removed] = []
    notes: list[str] = []
    used = writer.name
    for item in facets:
        section, lost, facet_notes, used = _facet_section(company, item, writer, stale_before)
        sections.append(section)
        removed += lost
        notes += [note for note in facet_notes if note not in notes]
    sections = _once(company, facets, sections)
    if template == "prospect":
        dated = [claim for section in sections for claim in section.claims if claim.date]
        newest = sorted(dict.fromkeys(dated), key=lambda claim: claim.date or "", reverse=True)
        summary = tuple(newest[:SUMMARY_CLAIMS])
        openers, lost, note = _openers(company, writer, [c for s in sections for c in s.claims], facets, stale_before)
        sections += [openers] if openers is not None else []
        removed += lost
        notes.append(note)
    else:
        summary = tuple(dict.fromkeys(s.claims[0] for s in sections if s.claims))[:SUMMARY_CLAIMS]
    cited = [claim for section in sections for claim in section.claims]
    evidence = [e for item in facets for e in item.evidence]
    missing = [s.title for s in sections if s.not_found and s.facet != "openers"]
    if missing:
        notes.append("No evidence found in the searched corpora for: " + ", ".join(missing) + ".")
    return Report(
        template=template,
        writer=used,
        subject=company,
        summary=summary,
        sections=tuple(sections),
        removed=tuple(removed),
        sources=sources_of(cited, evidence),
        notes=tuple(notes),
    )
