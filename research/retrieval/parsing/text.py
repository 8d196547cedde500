"""Plain text and Markdown files: the text is kept as it is; a Markdown title is its first heading. YAML front matter
(a "---" block opening the file) is metadata, not text: its date, title, author and publisher are kept as the
document's metadata and the block is left out of the text. A file without a date there is dated by its header:
the first full date on one of its first short lines ("Issue #212 | Tuesday, 14 April 2026", "Lyon, le 3 mars
2026")."""

from __future__ import annotations

import datetime
import itertools
import re
import unicodedata

import babel.dates
import yaml
from markdown_it import MarkdownIt

from research.retrieval.parsing.common import OutputBudget, Source
from research.retrieval.parsing.types import ParsedDocument, ParseOptions, ParseOutcome

_HEADING_SEARCH_CHARS = 65_536


def parse_text(source: Source, options: ParseOptions, budget: OutputBudget) -> ParseOutcome:
    return _single(source, budget, title=source.stem, kind="text")


MONTHS = {
    name: number
    for number, names in enumerate(
        (
            "january jan janvier janv",
            "february feb fevrier février fevr févr",
            "march mar mars",
            "april apr avril avr",
            "may mai",
            "june jun juin",
            "july jul juillet juil",
            "august aug aout août",
            "september sep sept septembre",
            "october oct octobre",
            "november nov novembre",
            "december dec decembre décembre déc",
        ),
        start=1,
    )
    for name in names.split()
} | {
    form: number
    for locale in ("es", "it", "pt", "de", "nl")
    for number, name in babel.dates.get_month_names("wide", locale=locale).items()
    for form in (name.casefold(), unicodedata.normalize("NFKD", name.casefold()).encode("ascii", "ignore").decode())
}
"""Month names and their short forms, English and French, accented and folded, lower-cased -> 1-12; the full names
in Spanish, Italian, Portuguese, German and Dutch ("28 de octubre de 2026", "14. März 2026", "3 novembre 2026") from
Babel's locale data (only the full names: "ago", "set" and "gen" are words too)."""
_DAY_MONTH_YEAR = re.compile(
    r"(?i)\b(\d{1,2})(?:er|st|nd|rd|th)?\.?\s+(?:de\s+)?([^\W\d_]{3,10})\.?\s+(?:de\s+|del\s+)?((?:19|20)\d\d)\b"
)
_MONTH_DAY_YEAR = re.compile(r"(?i)\b([^\W\d_]{3,10})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+((?:19|20)\d\d)\b")
_ISO_DAY = re.compile(r"\b((?:19|20)\d\d)-(\d\d)-(\d\d)(?!\d)")  # a timestamp's day too ("2021-05-18T09:00:00Z")
HEADER_LINES, HEADER_LINE_CHARS = 6, 120
# What a page labels the company's seat with ("Siège social : ...", "Registered office: ...", "Sede: ..."): the
# footer lines webpage.py keeps, and the reports' and ICP judge's head-office cue (one list, English, French, Italian,
# Portuguese, Spanish, German, Dutch).
HEAD_OFFICE_LABELS = (
    r"si[èe]ge(?: social)?|registered office|head office|headquarters|hq|sede(?: social)?|sitz|firmensitz|hauptsitz"
    r"|hoofdkantoor|hovedkontor|huvudkontor|casa matriz|casa central|sede central"
)  # a header's lines: the first few non-empty ones, each short


def header_date(text: str) -> str | None:
    """The first full date (a day, a month's name and a year in English or French, or an ISO date) on one of the
    text's first ``HEADER_LINES`` non-empty lines of at most ``HEADER_LINE_CHARS`` characters, ISO; None when
    there is none (a date in the body dates what it tells, not the document)."""
    lines = [line for line in text.splitlines() if line.strip()][:HEADER_LINES]
    for line in (line for line in lines if len(line) <= HEADER_LINE_CHARS):
        for found in _dates_in(line):
            return found
    return None


def _dates_in(line: str) -> list[str]:
    found: list[tuple[int, str | None]] = []
    for match in _DAY_MONTH_YEAR.finditer(line):
        found.append((match.start(), _iso(match.group(3), MONTHS.get(match.group(2).casefold()), match.group(1))))
    for match in _MONTH_DAY_YEAR.finditer(line):
        found.append((match.start(), _iso(match.group(3), MONTHS.get(match.group(1).casefold()), match.group(2))))
    for match in _ISO_DAY.finditer(line):
        found.append((match.start(), _iso(match.group(1), int(match.group(2)), match.group(3))))
    return [iso for _, iso in sorted(found) if iso]


def _iso(year: str, month: int | None, day: str) -> str | None:
    try:
        return datetime.date(int(year), month, int(day)).isoformat() if month else None
    except ValueError:
        return None


_FRONT_MATTER = re.compile(r"\A\ufeff?---[ \t]*\r?\n(.*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|\Z)", re.DOTALL)
_LINE_FIELD = re.compile(r"(?m)^([A-Za-z_][\w-]*):[ \t]+(\S.*?)[ \t]*$")
FRONT_MATTER_FIELDS = {"date": "date", "updated": "date", "title": "title", "author": "author"}
FRONT_MATTER_FIELDS |= {"publisher": "publisher", "company": "publisher", "source": "source"}


def front_matter(text: str) -> tuple[dict[str, str], str]:
    """A Markdown file's YAML front matter as metadata (the fields above, dates ISO), and the text after it; no
    metadata and the whole text when there is none or it is not a YAML mapping."""
    match = _FRONT_MATTER.match(text)
    if match is None:
        return {}, text
    try:
        fields = yaml.safe_load(match.group(1))
    except yaml.YAMLError:  # "title: Battlecard: Tjalkwerf" is not YAML, but is what people write
        fields = dict(_LINE_FIELD.findall(match.group(1)))
    if not isinstance(fields, dict) or not fields:
        return {}, text
    metadata: dict[str, str] = {}
    for key, value in fields.items():
        name = FRONT_MATTER_FIELDS.get(str(key).casefold())
        if name and value is not None and not isinstance(value, dict | list):
            iso = value.isoformat() if isinstance(value, datetime.date) else str(value).strip()
            metadata.setdefault(name, iso)
    return metadata, text[match.end() :]


def parse_markdown(source: Source, options: ParseOptions, budget: OutputBudget) -> ParseOutcome:
    metadata, body = front_matter(source.text)
    if "date" not in metadata and (dated := header_date(body)):
        metadata["date"] = dated
    title = metadata.pop("title", None) or first_heading(body) or source.stem
    text = budget.charge(body)
    document = ParsedDocument(
        title=title, text=text, source_name=source.name, doc_key="", metadata=metadata, kind="markdown"
    )
    return ParseOutcome(source_name=source.name, documents=[document], errors=[])


def first_heading(markdown: str) -> str | None:
    """The plain text of the first ATX or setext heading, found by a CommonMark parser (so not inside code)."""
    head = markdown[:_HEADING_SEARCH_CHARS]
    if len(markdown) > len(head):
        head = head.rpartition("\n")[0]
    tokens = MarkdownIt("commonmark").parse(head)
    for opening, inline in itertools.pairwise(tokens):
        if opening.type == "heading_open" and inline.type == "inline":
            words = "".join(_words(child.type, child.content) for child in inline.children or [])
            if words.strip():
                return " ".join(words.split())
    return None


def _words(token_type: str, content: str) -> str:
    if token_type in {"softbreak", "hardbreak"}:
        return " "
    return content if token_type in {"text", "code_inline"} else ""


def _single(source: Source, budget: OutputBudget, *, title: str, kind: str) -> ParseOutcome:
    text = budget.charge(source.text)
    dated = header_date(text)
    metadata = {"date": dated} if dated else {}
    document = ParsedDocument(title=title, text=text, source_name=source.name, doc_key="", metadata=metadata, kind=kind)
    return ParseOutcome(source_name=source.name, documents=[document], errors=[])
