"""Which documents are our own: deal reviews, call and meeting notes, battlecards, CRM exports, anything marked
internal or confidential. A share link or an export of a report leaves their claims and quotes out unless the
member who shares includes internal sources on purpose (research.reporting.internal).

Told at upload (``internal_guess``) from the file's name and title, the document's front matter
("internal: true", "classification: confidential") and a marking near the top of its text ("INTERNAL - do not
forward", "Usage interne"); any editor can change it on the document's page. The words are hand-written, in
English and French: no library lists what teams call their own notes. A guess that misses leaves a document
public, so the corpus page shows each document's mark where it can be checked.
"""

from __future__ import annotations

import re

from research.retrieval.parsing import ParsedDocument

# In a file name or title ("deal-notes-tarcowie-2026-09.docx", "Battlecard: Quellbrae", "crm-accounts.csv").
_NAMED = re.compile(
    r"\b(?:deal[ -]?(?:notes?|reviews?|desk)|(?:call|meeting|opportunity|account|discovery|visit)[ -]?notes?"
    r"|battle[ -]?cards?|crm|pipeline"
    r"|internal|confidential|win[ -]?loss|account[ -]?plans?|talk[ -]?tracks?|sales[ -]?notes?|forecast"
    r"|notes?[ -](?:d['\u2019 -]?)?affaires?|revue[ -](?:d['\u2019 -]?)?affaires?|fiches?[ -]affaires?|compte[ -]rendu"
    r"|interne|confidentiel(?:le)?|fiches?[ -]concurren(?:t|ts|ce|tielles?)|competitor[ -](?:notes?|cards?|briefs?))"
    r"\b",
    re.IGNORECASE,
)
# A marking near the top of the text ("CONFIDENTIAL", "Internal use only", "Ne pas diffuser").
_MARKED = re.compile(
    r"\b(?:internal(?: use)? only|internal and confidential|company confidential|strictly confidential"
    r"|do not (?:share|forward|distribute)|not for (?:external )?distribution|usage interne"
    r"|diffusion (?:restreinte|interne)|ne pas diffuser|strictement confidentiel)\b",
    re.IGNORECASE,
)
_MARKING_CHARS = 600  # where a marking stands: the first lines
_MARKING_KEYS = ("internal", "confidential", "classification", "visibility", "confidentiality", "diffusion")
_MARKING_VALUES = frozenset(
    {"true", "yes", "internal", "confidential", "private", "restricted", "interne", "confidentiel"}
)


def internal_guess(parsed: ParsedDocument) -> bool:
    """Whether an uploaded document is, by every sign it gives, one of our own notes."""
    named = f"{parsed.source_name.replace('_', ' ')} {parsed.title}"
    if _NAMED.search(named) or _MARKED.search(parsed.text[:_MARKING_CHARS]):
        return True
    return any(str(parsed.metadata.get(key, "")).strip().casefold() in _MARKING_VALUES for key in _MARKING_KEYS)
