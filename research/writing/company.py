"""Reports about a company, one facet per rollout, claims kept only when they are about the company:

- the competitor report (products, pricing, funding, ...), with an executive summary of each facet's
  strongest claim;
- the prospect brief (funding, executive hires, launches, hiring, press, technology): what makes a good
  opening for outreach, its summary the newest dated claims first.

Each facet's writer reads what its own rollout found first, then what the other facets' rollouts found (a
sentence met while searching for pricing may be the best news item); every citation still names a chunk this
run retrieved, and the citation check holds it to that chunk. Each claim is shown in one facet only: the one
whose words it holds most (the extractive writer places every sentence before any facet chooses,
``write_facets``; another writer's proposals are placed afterwards, ``placed``). A sentence counts as about
the company when it names it as a whole word, or when it opens with "It"/"Its"/"The company" in a document
whose title names the company; anything else (a competitor mentioned in the same document) is left out. A
facet with no supported claim says so (``not_found``).
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from research.protocol.report import Claim, Removed, Report, Section
from research.retrieval.language import language_of
from research.retrieval.sparse import tokenize
from research.writing.answer import sources_of
from research.writing.citations import Evidence, by_chunk, verified
from research.writing.conflicts import with_conflicts
from research.writing.extractive import facet_fits, facet_words
from research.writing.names import Company, known_as, names_notes
from research.writing.structure import row_about, rows_of
from research.writing.writers import Brief, Draft, Writer

FACET_CLAIMS = 8
PROPOSED_CLAIMS = 2 * FACET_CLAIMS  # what a facet's writer may propose before each claim is placed in one facet
POOL_CHUNKS = 60  # the most chunks a facet's writer reads: its own rollout's, then the other facets'
PROMPT_CHUNKS = 24  # a writer without ``write_facets`` (a model, a prompt a facet) reads fewer, its own first
SUMMARY_CLAIMS = 5


def literal(text: str) -> str:
    """``text`` safe inside a facet's question template (its braces are not placeholders)."""
    return text.replace("{", "{{").replace("}", "}}")


@dataclass(frozen=True)
class Facet:
    key: str
    title: str
    question: str  # with {company}: what the facet's rollout searches for
    words: str = ""  # the facet's vocabulary beyond its question's: what places a claim in it (``placed``)
    french: str = ""  # the words a French corpus states the facet with: its rollout searches them too

    def ask(self, company: str, language: str = "en") -> str:
        """The facet's question about ``company``; for a French corpus with its French words in parentheses."""
        asked = self.question.format(company=company)
        return f"{asked} ({self.french})" if language == "fr" and self.french else asked


COMPETITOR_FACETS = (
    Facet(
        "products",
        "Products and launches",
        "What products has {company} launched, released or announced (product, launch, release, feature)?",
        "generally available availability edition version beta preview new offering service software app module"
        " lance lancement produit nouveau nouvelle version fonctionnalité offre logiciel module bêta disponible",
        "produit, lance, lancement, nouvelle version, fonctionnalité, offre",
    ),
    Facet(
        "pricing",
        "Pricing",
        "What does {company} charge (price, plan, pricing, cost, fee, discount, minimum)?",
        "priced per user month year list usage-based billing bills charges subscription paid tier at no additional"
        " EUR GBP AUD CAD USD hectare seat transaction tarif tarifs prix formule abonnement mois remise facturé HT",
        "tarifs, prix, formule, abonnement, par mois, remise",
    ),
    Facet(
        "funding",
        "Funding and finances",
        "What funding or financial results has {company} reported (raised, round, Series, investors, valuation,"
        " revenue, profit, closed)?",
        "acquisition acquire paid million billion cash stock earnings fiscal financial IPO backed venture ARR"
        " profitable loss-making loss EBITDA margin net result income levée fonds millions investisseurs série"
        " chiffre affaires rentable résultat perte bénéfice",
        "levée de fonds, lève, millions d'euros, investisseurs, série, chiffre d'affaires",
    ),
    Facet(
        "leadership",
        "Leadership and hiring",
        "Who leads {company} and who is it hiring (CEO, founder, executive, appointed, joined, hiring, role)?",
        "chief officer co-founder president head vice VP engineers engineering roles hires left join team people"
        " employees staff headcount directeur directrice président présidente cofondateur cofondatrice nommé"
        " dirigeant recrute recrutement salariés collaborateurs personnes équipe",
        "président, fondateur, directeur, nommé, recrute, recrutement, salariés",
    ),
    Facet(
        "customers",
        "Customers",
        "Which customers use {company} (customer, client, deployed, chose, signed)?",
        "customers organisations organizations users teams serves used by accounts companies countries merchants"
        " employers practices shops retailers firms trusted clients cabinets utilisent utilisateurs établissements",
        "clients, utilisent, équipés, choisi, signé",
    ),
    Facet(
        "partnerships",
        "Partnerships",
        "Which partners does {company} work with (partner, partnership, integration, marketplace, alliance)?",
        "partners integrates integrations listing listed reseller ISV alliances distributor distributes channel"
        " referral partenaire partenaires partenariat intégration intégré distributeur",
        "partenaire, partenariat, intégration, distributeur, réseau",
    ),
    Facet(
        "technology",
        "Technology",
        "What technology is {company} built on (architecture, built, engine, stack, storage, index, runs on)?",
        "indexes compute memory disk query queries open-source cloud hosting deployed servers governance layer"
        " AWS Azure GCP Kubernetes Python Java Django PostgreSQL Kafka region hosted stack framework database"
        " hébergé hébergement infrastructure technologie architecture serveurs stored backups encrypted encryption"
        " Amazon Google Microsoft data centre center données chiffrées sauvegardes ISO IEC SOC certified certification"
        " certificate attestation certifiée certifié",
        "technologie, hébergé, hébergement, infrastructure, architecture, stack",
    ),
    Facet(
        "reviews",
        "Reviews and reputation",
        "What do analysts and customers say about {company} (analyst, review, rated, strengths, weaknesses)?",
        "analysts expects expect preferred praised criticised widely reputation strength weakness says said rated"
        " rates rating ranks leader challenger performer stars reviewers avis note analyste étoiles",
        "avis, note, analyste, points forts, points faibles",
    ),
    Facet(
        "news",
        "News",
        "What recent news involves {company} (announced, news, acquired, press)?",
        "announces conference event registration completed community call webinar hosts week acquired acquires"
        " merger layoffs laid off cut jobs redundancies annonce rachat rachète acquisition licenciements fusion",
        "annonce, actualité, rachat, acquisition, presse",
    ),
)
PROSPECT_FACETS = (
    Facet(
        "funding",
        "Funding",
        "When did {company} raise money (raised, funding, round, Series, investors, valuation)?",
        "million billion led investment",
    ),
    Facet(
        "executives",
        "Executive hires",
        "Which executives did {company} appoint or hire (appointed, joins, named, CEO, CTO, VP, head of)?",
        "chief officer president vice director joined",
    ),
    Facet(
        "launches",
        "Launches",
        "What did {company} launch or release (launched, released, announced, new)?",
        "generally available product opens opened",
    ),
    Facet(
        "hiring",
        "Hiring",
        "Is {company} hiring (hiring, open roles, recruiting, jobs, team growth)?",
        "role roles engineers positions headcount grow",
    ),
    Facet(
        "press",
        "Press",
        "What press coverage did {company} get (press, interview, featured, award, news)?",
        "article coverage reported",
    ),
    Facet(
        "technology",
        "Technology in use",
        "What technology does {company} use (uses, runs on, built on, stack, migrated, adopted)?",
        "platform cloud Kubernetes database",
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


def about_company(company: Company, claim: Claim, evidence: dict[str, Evidence]) -> bool:
    """A claim is about the company when it is about it in one of the chunks it cites (``Company.about``: it names
    it, speaks in the company's own document, or opens with "It"/"The company" in a document whose title names
    it)."""
    return any(_about_in(company, claim.text, evidence[c.chunk_id]) for c in claim.citations if c.chunk_id in evidence)


def _about_in(company: Company, text: str, chunk: Evidence) -> bool:
    """A claim read from a row of the chunk is about the company as its row is (``row_about``); a sentence as
    ``Company.about`` says."""
    row = next((row for row in rows_of(chunk.text) if row.text == text), None)
    return row_about(company, row, chunk) if row is not None else company.about(text, chunk)


@dataclass(frozen=True)
class FacetEvidence:
    facet: Facet
    evidence: tuple[Evidence, ...]  # what the facet's rollout found, in its ranking order


def pooled(own: FacetEvidence, facets: Sequence[FacetEvidence]) -> tuple[Evidence, ...]:
    """What a facet's writer reads: its own rollout's evidence, then the other facets' in turn (each chunk once,
    at most ``POOL_CHUNKS``)."""
    seen: dict[str, Evidence] = {}
    for item in itertools.chain(own.evidence, *(i.evidence for i in facets if i is not own)):
        seen.setdefault(item.chunk_id, item)
        if len(seen) == POOL_CHUNKS:
            break
    return tuple(seen.values())


def _checked(
    company: Company, facet: Facet, evidence: Sequence[Evidence], draft: Draft, stale_before: str | None
) -> tuple[Section, list[Removed], list[Claim]]:
    """The facet's section of the draft's claims that hold and are about the company, the claims removed, and
    the draft's unpicked claims that would hold (what a shown claim's conflict may bring in)."""
    chunks = by_chunk(evidence)
    shown, removed = verified(draft.claims, chunks, stale_before=stale_before)
    kept = [claim for claim in shown if about_company(company, claim, chunks)]
    removed += [
        Removed(text=claim.text, reason=f"it is not about {company.subject}") for claim in shown if claim not in kept
    ]
    spare, _ = verified(draft.unpicked, chunks, stale_before=stale_before)
    spare = [claim for claim in spare if about_company(company, claim, chunks)]
    return Section(facet=facet.key, title=facet.title, claims=tuple(kept), not_found=not kept), removed, spare


def _drafts(company: Company, facets: Sequence[FacetEvidence], writer: Writer) -> tuple[list[Brief], list[Draft], bool]:
    """Each facet's draft, and whether the writer already placed each claim in one facet (a writer with
    ``write_facets`` writes all facets at once; any other proposes ``PROPOSED_CLAIMS`` a facet, placed later).
    A French corpus's facets are asked with their French words too."""
    together = getattr(writer, "write_facets", None)
    language = language_of(e.text for item in facets for e in item.evidence)
    briefs = [
        Brief(
            focus=item.facet.ask(company.subject, language),
            evidence=pooled(item, facets)[: POOL_CHUNKS if together else PROMPT_CHUNKS],
            max_claims=FACET_CLAIMS if together else PROPOSED_CLAIMS,
            subject=company.subject,
            words=item.facet.words,
            company=company,
            facet=item.facet.key,
            language=language,
        )
        for item in facets
    ]
    if together is not None:
        return briefs, list(together(briefs)), True
    return briefs, [writer.write(brief) for brief in briefs], False


def vocabulary(company: str, facet: Facet) -> set[str]:
    """The facet's own words (``facet_words``: its question's cue words and its ``words``), stemmed as the sparse
    index stems them."""
    return set(
        tokenize([facet_words(Brief(focus=facet.ask(company), evidence=(), subject=company, words=facet.words))])[0]
    )


def placed(company: str, facets: Sequence[Facet], proposed: Sequence[Section]) -> list[Section]:
    """Each proposed claim in one section: the facet whose vocabulary it holds most (``facet_fits``; ties: the
    facet whose writer ranked it higher, then the earlier facet), each section its ``FACET_CLAIMS`` best placed
    claims (most of its words first, then as its writers ranked them)."""
    words = [vocabulary(company, facet) for facet in facets]
    claims: dict[str, Claim] = {}
    rank: dict[tuple[str, int], int] = {}
    for index, section in enumerate(proposed):
        for position, claim in enumerate(section.claims):
            claims.setdefault(claim.text, claim)
            rank.setdefault((claim.text, index), position)
    home: dict[int, list[tuple[float, int, str]]] = {index: [] for index in range(len(facets))}
    for text in claims:
        held = facet_fits(text, words)
        fits = [(-held[index], rank.get((text, index), PROPOSED_CLAIMS), index) for index in range(len(facets))]
        fit, position, index = min(fits)
        home[index].append((fit, position, text))
    result = []
    for index, section in enumerate(proposed):
        best = tuple(claims[text] for _, _, text in sorted(home[index])[:FACET_CLAIMS])
        result.append(dataclasses.replace(section, claims=best, not_found=not best))
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


def _written(
    known: Company,
    facets: Sequence[FacetEvidence],
    briefs: Sequence[Brief],
    drafts: Sequence[Draft],
    stale_before: str | None,
) -> tuple[list[Section], list[Removed], list[str], str, list[Claim]]:
    """Each facet's checked section, the claims removed, the writers' notes, the writers that wrote them ("openai",
    or "openai + extractive" when the extractive writer stood in for a facet), and
    every claim that holds (shown or unpicked: what a conflict may bring in)."""
    sections: list[Section] = []
    removed: list[Removed] = []
    notes: list[str] = []
    used: list[str] = []
    pool: list[Claim] = []
    for item, brief, draft in zip(facets, briefs, drafts, strict=True):
        section, lost, spare = _checked(known, item.facet, brief.evidence, draft, stale_before)
        sections.append(section)
        pool += [*section.claims, *spare]
        removed += [r for r in lost if r not in removed]
        notes += [note for note in draft.notes if note not in notes]
        used += [draft.writer] if draft.writer not in used else []
    return sections, removed, notes, " + ".join(used), pool


_CLOSED = re.compile(r"[.!][\"'\u201d\u2019\u00bb)]?\s*$")
_FIELD_LIST = re.compile(r"\b[\w-]+: [^;]*;")  # a record's "review_id: CS-10577; vendor: ...;"
_QUOTE_MARKS = "\"'\u201c\u2018\u00ab"


def summary_claim(claims: Sequence[Claim]) -> Claim:
    """A section's line for the executive summary: its first claim that reads as a summary does (a closed
    sentence, not stale, not a record's fields or a quotation), else its first claim."""
    for claim in claims:
        text = claim.text.strip()
        if _CLOSED.search(text) and not claim.stale and not _FIELD_LIST.search(text) and text[:1] not in _QUOTE_MARKS:
            return claim
    return claims[0]


def company_report(
    template: str,
    company: str,
    facets: Sequence[FacetEvidence],
    writer: Writer,
    *,
    stale_before: str | None = None,
    brief: bool = False,
) -> Report:
    """Write, check and assemble the report: a section per facet and a summary (each facet's first claim; a
    ``brief``, as a prospect brief is: the newest dated claims, and a section of conversation openers)."""
    known = known_as(company, [e for item in facets for e in item.evidence])
    briefs, drafts, placed_already = _drafts(known, facets, writer)
    sections, removed, notes, used, pool = _written(known, facets, briefs, drafts, stale_before)
    notes[:0] = names_notes(known, (e.text for item in facets for e in item.evidence))
    used = used or writer.name
    if not placed_already:
        sections = placed(company, [item.facet for item in facets], sections)
    sections = with_conflicts(known, sections, pool)
    if brief:
        dated = [claim for section in sections for claim in section.claims if claim.date]
        newest = sorted(dict.fromkeys(dated), key=lambda claim: claim.date or "", reverse=True)
        summary = tuple(newest[:SUMMARY_CLAIMS])
        openers, lost, note = _openers(company, writer, [c for s in sections for c in s.claims], facets, stale_before)
        sections += [openers] if openers is not None else []
        removed += lost
        notes.append(note)
    else:
        summary = tuple(dict.fromkeys(summary_claim(s.claims) for s in sections if s.claims))[:SUMMARY_CLAIMS]
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
