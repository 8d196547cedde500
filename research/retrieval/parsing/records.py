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
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from research.retrieval.parsing.common import OutputBudget, Source
from research.retrieval.parsing.fields import first_named
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
DATE_FIELDS += ("datum", "veroeffentlicht", "ver\u00f6ffentlicht", "fecha", "fecha_publicacion", "data_pubblicazione")


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
TEXT_FIELDS += ("inhalt", "nachricht", "beschreibung", "texto", "contenido", "cuerpo", "descripcion", "mensaje")
TEXT_FIELDS += ("testo", "contenuto", "descrizione", "messaggio", "tekst", "inhoud", "beschrijving", "conteudo")
TITLE_FIELDS: tuple[str, ...] = (
    "headline",
    "name",
    "subject",
    "heading",
    "titre",
    "intitule",
    "intitul\u00e9",
    "objet",
    "sujet",
    "nom",
)
TITLE_FIELDS += (
    "titel",
    "ueberschrift",
    "\u00fcberschrift",
    "betreff",
    "titulo",
    "asunto",
    "titolo",
    "oggetto",
    "naam",
)
# Who wrote an item: its document's publisher (research.retrieval.parsing.common.PUBLISHER_FIELDS).
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
RECORD = "*"  # an item read as a record: its text is every field ("name: value" lines)
# A string field of this many words or more, holding most of the item's characters, is its text when no name says
# which field is; a company card's one-line tagline beside its figures is not (the card is read as a record).
_PROSE_WORDS = 12
_PROSE_SHARE = 2 / 3


@dataclass(frozen=True)
class _Fields:
    """The fields one item was read from (the date's None when it has none)."""

    text: str
    title: str | None
    date: str | None


class ItemError(ValueError):
    """One JSON item cannot become a document; the others are still kept."""


FIELDS_NAMED = 20  # the fields an error names, at most (a file may have thousands of distinct keys)


def fields_named(fields: Iterable[str]) -> str:
    """The fields' names for an error: at most ``FIELDS_NAMED``, each at most 60 characters, "none" for none."""
    names = [name[:60] for name in fields]
    shown = ", ".join(names[:FIELDS_NAMED]) + (
        f", ... ({len(names) - FIELDS_NAMED} more)" if len(names) > FIELDS_NAMED else ""
    )
    return shown or "none"


class NoTextError(ItemError):
    """An item with no field to read its text from (no string field but its title): ``fields`` are those it has."""

    def __init__(self, fields: list[str]) -> None:
        super().__init__(f"no text field (its fields: {fields_named(fields)})")
        self.fields = fields


def parse_json(source: Source, options: ParseOptions, budget: OutputBudget) -> ParseOutcome:
    lines = source.extension in _LINE_EXTENSIONS
    documents: list[ParsedDocument] = []
    errors: list[str] = []
    used: dict[str, Counter[str]] = {"text": Counter(), "title": Counter(), "date": Counter()}
    without_text: dict[str, None] = {}  # the fields of the items that had no text field, in order
    items = _line_items(source.text) if lines else _file_items(source.text)
    for label, key, item in items:
        try:
            document, fields = _document(item, key, source, options, budget)
        except NoTextError as error:
            without_text.update(dict.fromkeys(error.fields))
            errors.append(f"{label}: {error}")
        except ItemError as error:
            errors.append(f"{label}: {error}")
        else:
            documents.append(document)
            for role, name in (("text", fields.text), ("title", fields.title), ("date", fields.date)):
                if name is not None:
                    used[role][name] += 1
    if not documents and without_text and options.json_text_field == DEFAULT_TEXT:
        raise ParseError(
            f"no text field in the file's items (their fields: {fields_named(without_text)});"
            " name it in the corpus's JSON text field, then upload the file again"
        )
    chosen = {role: counts.most_common(1)[0][0] for role, counts in used.items() if counts}
    return ParseOutcome(source_name=source.name, documents=documents, errors=errors, fields=chosen)


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


def _document(
    item: object, key: str, source: Source, options: ParseOptions, budget: OutputBudget
) -> tuple[ParsedDocument, _Fields]:
    if isinstance(item, ItemError):
        raise item
    if not isinstance(item, dict):
        raise ItemError(f"not an object but {type(item).__name__}")
    fields = _fields_of(item, options)
    text = _record(item) if fields.text == RECORD else _scalar(item, fields.text)
    if text is None:
        raise NoTextError(list(item))
    if not text.strip():
        raise ItemError(f"the {fields.text!r} field is empty")
    title = (_scalar(item, fields.title) if fields.title else None) or ""
    metadata = {name: value for name in options.json_metadata_fields if (value := _any(item, name)) is not None}
    if fields.date and "date" not in metadata:
        metadata["date"] = str(_date_of(item, fields.date))
    authors = first_named(item, AUTHOR_FIELDS)
    author = next((found for name in authors if isinstance(found := item.get(name), str) and found.strip()), None)
    if author and "publisher" not in metadata:
        metadata["publisher"] = " ".join(author.split())
    document = ParsedDocument(
        title=title.strip() or (f"{source.stem} {key.replace('-', ' ')}" if key else source.stem),
        text=budget.charge(text),
        source_name=source.name,
        doc_key=key,
        metadata=metadata,
        kind="json",
    )
    return document, fields


def _fields_of(item: dict[str, object], options: ParseOptions) -> _Fields:
    """Which fields hold the item's text, title and date: the corpus's mapping where it names one (a mapped text
    field the item lacks is an ItemError naming the fields it has), else the names exports give them in any case
    and several languages (``TEXT_FIELDS``, ...), else for the text the longest string field of a few words, else
    every field as a record (``RECORD``) when the item has a string field and a field besides its title."""
    title = _mapped(item, options.json_title_field) if options.json_title_field != DEFAULT_TITLE else None
    if title is None:
        title = next((name for name in first_named(item, (DEFAULT_TITLE, *TITLE_FIELDS)) if _texty(item[name])), None)
    date = next((name for name in first_named(item, DATE_FIELDS) if _date_of(item, name)), None)
    if options.json_text_field != DEFAULT_TEXT:
        text = _mapped(item, options.json_text_field)
        if text is None:
            raise ItemError(f"no {options.json_text_field!r} field (its fields: {fields_named(item)})")
        return _Fields(text, title, date)
    known = [name for name in first_named(item, (DEFAULT_TEXT, *TEXT_FIELDS)) if name != title]
    # a known field with text, else a known one that is empty or not text (the item fails, saying so: a chat
    # export's service message with an empty "text" is no document), else prose under another name
    text = next((name for name in known if _texty(item[name])), None) or next(iter(known), None)
    text = text or _prose(item, {title, date})
    if text is None:
        besides = set(item) - {title}
        has_text = any(isinstance(value, str) and value.strip() for _, value in _flat(item))
        text = RECORD if besides and has_text else DEFAULT_TEXT
    return _Fields(text, title, date)


def _mapped(item: dict[str, object], name: str) -> str | None:
    """The field the corpus's mapping names: by its exact name or dotted path, else by its name in any case."""
    if _lookup(item, name) is not _MISSING:
        return name
    return next(iter(first_named(item, (name,))), None)


def _texty(value: object) -> bool:
    """Whether a field's value reads as text: a string, or a chat export's list of pieces."""
    if isinstance(value, str):
        return bool(value.strip())
    return isinstance(value, list) and bool(value) and all(isinstance(piece, str | dict) for piece in value)


def _prose(item: dict[str, object], others: set[str | None]) -> str | None:
    """The longest string field, when it is prose (``_PROSE_WORDS``) holding most of the item's characters (not
    counting its title, date or author): the item's text when no name says which field holds it
    ("remarque_commerciale", "notes"); None when the item is rather a record of short fields."""
    authors = set(first_named(item, AUTHOR_FIELDS))
    sizes = {
        name: len(str(value))
        for name, value in _flat(item)
        if name not in others and name not in authors and isinstance(value, str | int | float)
    }
    strings = [(len(value), name) for name, value in item.items() if name in sizes and isinstance(value, str)]
    if not strings:
        return None
    size, name = max(strings)
    prose = len(str(item[name]).split()) >= _PROSE_WORDS and size >= _PROSE_SHARE * sum(sizes.values())
    return name if prose else None


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
