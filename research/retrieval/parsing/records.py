"""JSON and JSON Lines files: each object becomes a document through a field mapping (title, text, metadata); an
object's own date field ("date", "published_at", ...) dates its document.

With the default mapping ("title", "text"), an item without those fields is read by the names exports give them, in
English and French (``TEXT_FIELDS``: a news alert's "snippet", a post's "body", a job board's "description";
``TITLE_FIELDS``: "headline", "name", "titre"), and an item with no text field at all (a company database's card:
name, employees, funding) is read as a record: a "name: value" line per field, as a CSV row is. Who wrote an item (a
post's "author", a chat message's "from", a job ad's "employer"; never a "company" field, which in a review or a CRM
row is whom it is about) is its document's publisher, as a mail's sender is: a company's own post speaks in its
voice. A chat export's text given as a list of pieces (Telegram's plain strings and {"type": "bold", "text": ...}
objects) is read as their text joined."""

from __future__ import annotations

import json
from collections.abc import Iterator

from research.retrieval.parsing.common import OutputBudget, Source
from research.retrieval.parsing.text import header_date
from research.retrieval.parsing.types import ParsedDocument, ParseError, ParseOptions, ParseOutcome

_LINE_EXTENSIONS = frozenset({".jsonl", ".ndjson"})
_MISSING = object()
# The fields a feed item dates itself with (a media-monitoring export's "date", an API's "published_at"): the item's
# date, not the file's.
DATE_FIELDS: tuple[str, ...] = (
    "date",
    "published",
    "published_at",
    "publication_date",
    "pubDate",
    "datetime",
    "created_at",
)
DATE_FIELDS += ("posted_at", "published_on", "sent_at", "timestamp", "date_publication", "date_parution", "publie_le")


# What exports call an item's text and its title, when they do not call them "text" and "title".
TEXT_FIELDS: tuple[str, ...] = (
    "body",
    "content",
    "snippet",
    "summary",
    "description",
    "excerpt",
    "message",
    "abstract",
    "commentary",
)
TEXT_FIELDS += ("texte", "contenu", "corps", "resume", "r\u00e9sum\u00e9", "extrait")
TITLE_FIELDS = ("headline", "name", "subject", "heading", "titre", "intitule", "intitul\u00e9", "objet", "sujet", "nom")
# Who wrote an item: its document's publisher (research.reporting.selectors.PUBLISHER_FIELDS).
# Not "company": a review's or a CRM row's company is whom it is about, not who wrote it.
AUTHOR_FIELDS: tuple[str, ...] = (
    "author",
    "from",
    "sender",
    "publisher",
    "posted_by",
    "employer",
    "hiringOrganization",
)
AUTHOR_FIELDS += ("auteur", "expediteur", "exp\u00e9diteur", "employeur", "editeur", "\u00e9diteur")
DEFAULT_TEXT, DEFAULT_TITLE = "text", "title"


class ItemError(ValueError):
    """One JSON item cannot become a document; the others are still kept."""


def parse_json(source: Source, options: ParseOptions, budget: OutputBudget) -> ParseOutcome:
    lines = source.extension in _LINE_EXTENSIONS
    documents: list[ParsedDocument] = []
    errors: list[str] = []
    items = _line_items(source.text) if lines else _file_items(source.text)
    for label, key, item in items:
        try:
            documents.append(_document(item, key, source, options, budget))
        except ItemError as error:
            errors.append(f"{label}: {error}")
    return ParseOutcome(source_name=source.name, documents=documents, errors=errors)


def _file_items(text: str) -> Iterator[tuple[str, str, object]]:
    """(label for errors, doc_key, value) for a JSON object or each element of a JSON array."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise ParseError(f"invalid JSON: {error}") from None
    except RecursionError:
        raise ParseError("invalid JSON: nested too deeply") from None
    if isinstance(value, dict) and (listed := _wrapped_items(value)) is not None:
        value = listed  # an export's {"query": ..., "items": [...]}: its items
    if isinstance(value, dict):
        yield "the object", "", value
    elif isinstance(value, list):
        for number, item in enumerate(value, 1):
            yield f"item {number}", f"item-{number}", item
    else:
        raise ParseError("the JSON file holds neither an object nor an array of objects")


def _wrapped_items(value: dict[str, object]) -> list[object] | None:
    """The one list of objects an export wraps its items in ({"feed": "...", "items": [{...}, ...]}), if the
    object has no text of its own and exactly one such list."""
    if "text" in value:
        return None
    lists = [item for item in value.values() if isinstance(item, list) and item and isinstance(item[0], dict)]
    return lists[0] if len(lists) == 1 else None


def _line_items(text: str) -> Iterator[tuple[str, str, object]]:
    """(label, doc_key, value) per non-blank line; an unreadable line yields an ItemError as its value."""
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            value: object = json.loads(line)
        except (json.JSONDecodeError, RecursionError) as error:
            value = ItemError(f"invalid JSON ({getattr(error, 'msg', 'nested too deeply')})")
        yield f"line {number}", f"item-{number}", value


def _document(item: object, key: str, source: Source, options: ParseOptions, budget: OutputBudget) -> ParsedDocument:
    if isinstance(item, ItemError):
        raise item
    if not isinstance(item, dict):
        raise ItemError(f"not an object but {type(item).__name__}")
    text_field = _field(item, options.json_text_field, DEFAULT_TEXT, TEXT_FIELDS)
    title_field = _field(item, options.json_title_field, DEFAULT_TITLE, TITLE_FIELDS)
    text = _scalar(item, text_field)
    if text is None and text_field == DEFAULT_TEXT and set(item) - {title_field}:
        text = _record(item)  # a field besides its title
    if text is None:
        raise ItemError(f"no {text_field!r} field")
    if not text.strip():
        raise ItemError(f"the {text_field!r} field is empty")
    title = _scalar(item, title_field) or ""
    metadata = {name: value for name in options.json_metadata_fields if (value := _any(item, name)) is not None}
    dated = next((found for name in DATE_FIELDS if (found := _date_of(item, name))), None)
    if dated and "date" not in metadata:
        metadata["date"] = dated
    author = next((found for name in AUTHOR_FIELDS if isinstance(found := item.get(name), str) and found.strip()), None)
    if author and "publisher" not in metadata:
        metadata["publisher"] = " ".join(author.split())
    return ParsedDocument(
        title=title.strip() or (f"{source.stem} {key.replace('-', ' ')}" if key else source.stem),
        text=budget.charge(text),
        source_name=source.name,
        doc_key=key,
        metadata=metadata,
        kind="json",
    )


def _field(item: dict[str, object], mapped: str, default: str, others: tuple[str, ...]) -> str:
    """The field to read: the member's mapping, or for the default one missing, the first of ``others`` there."""
    if mapped != default or mapped in item:
        return mapped
    return next((name for name in others if isinstance(item.get(name), str)), mapped)


def _record(item: dict[str, object]) -> str | None:
    """An item without text as a record: a "name: value" line per field that has a value (a list of values joined
    by commas, a nested object's fields as "outer.inner"); None when it has none."""
    lines = []
    for name, found in _flat(item):
        listed = isinstance(found, list) and all(isinstance(v, str | int | float) for v in found)
        value = ", ".join(str(v) for v in found) if listed and isinstance(found, list) else found
        if isinstance(value, str | int | float) and not isinstance(value, bool) and str(value).strip():
            lines.append(f"{name}: {' '.join(str(value).split())}")
    return "\n".join(lines) or None


def _flat(item: dict[str, object], prefix: str = "") -> Iterator[tuple[str, object]]:
    for name, value in item.items():
        if isinstance(value, dict):
            yield from _flat(value, f"{prefix}{name}.")
        else:
            yield f"{prefix}{name}", value


def _date_of(item: dict[str, object], name: str) -> str | None:
    """The field's date, ISO, when it is one ("2021-05-18", "2021-05-18T09:00:00Z", "18 May 2021")."""
    value = _lookup(item, name)
    return header_date(value) if isinstance(value, str) else None


def _lookup(item: dict[str, object], name: str) -> object:
    """A field by its exact name, else by a dotted path into nested objects ("meta.author")."""
    if name in item:
        return item[name]
    value: object = item
    for part in name.split("."):
        if not isinstance(value, dict) or part not in value:
            return _MISSING
        value = value[part]
    return value


def _scalar(item: dict[str, object], name: str) -> str | None:
    """A text field: strings as they are, numbers as text; missing or null gives None."""
    value = _lookup(item, name)
    if value is _MISSING or value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, list) and value and all(isinstance(piece, str | dict) for piece in value):
        # a chat export's text in pieces: "Meet ", {"type": "bold", "text": "Merlintide"}, " at the expo"
        return "".join(piece if isinstance(piece, str) else str(piece.get("text", "")) for piece in value)
    raise ItemError(f"the {name!r} field is {type(value).__name__}, not text")


def _any(item: dict[str, object], name: str) -> str | None:
    """A metadata field as text: strings as they are, anything else as compact JSON."""
    value = _lookup(item, name)
    if value is _MISSING or value is None:
        return None
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, separators=(",", ":"))
