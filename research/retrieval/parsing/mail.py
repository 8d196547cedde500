"""E-mail: one .eml message or an .mbox of many, through the standard library's email and mailbox modules. A
message forwarded inside another ("---------- Forwarded message ---------", "Begin forwarded message:",
"-----Original Message-----", "-------- Message transféré --------") is a document of its own, with its own sender,
date and subject: a colleague's note above it is theirs, the forwarded update is its sender's."""

from __future__ import annotations

import dataclasses
import email
import mailbox
import re
import tempfile
from email import policy
from email.message import EmailMessage, Message
from pathlib import Path

from research.retrieval.parsing.common import OutputBudget, Source, compact_metadata, describe_error, iso_date
from research.retrieval.parsing.text import header_date
from research.retrieval.parsing.types import ParsedDocument, ParseError, ParseOptions, ParseOutcome
from research.retrieval.parsing.webpage import extract_page

_ADDRESS_HEADERS = ("from", "to", "cc")
# The email package's lenient parser still trips over some malformed headers with plain Python errors.
_MALFORMED = (ValueError, LookupError, TypeError, AttributeError, UnicodeError)


def parse_email(source: Source, options: ParseOptions, budget: OutputBudget) -> ParseOutcome:
    if source.extension == ".mbox":
        return _parse_mbox(source, budget)
    message = _message(source.data)
    if not message.keys():
        raise ParseError(f"file says {source.extension} but it has no e-mail headers")
    try:
        document = message_document(message, source.name, "", budget)
    except _MALFORMED as error:
        raise ParseError(f"unreadable e-mail: {describe_error(error)}") from None
    if document is None:
        raise ParseError("the e-mail has neither a subject nor a body")
    return ParseOutcome(source_name=source.name, documents=forwarded_apart(document), errors=[])


# The line a mail program opens a forwarded message with, and the header lines it copies under it.
_FORWARDED = re.compile(
    r"(?im)^[ \t>]*(?:-{2,}[ \t]*(?:forwarded message|original message|message transf[ée]r[ée]"
    r"|message d['\u2019]origine|e-mail d['\u2019]origine)[ \t]*-{2,}|begin forwarded message:"
    r"|d[ée]but du message r[ée]exp[ée]di[ée][ \t]*:)[ \t]*$"
)
_COPIED_HEADER = re.compile(r"(?i)^[ \t>]*(from|de|date|sent|envoy[ée]|subject|objet|to|[àa]|cc)[ \t]*:[ \t]*(.*)$")
_HEADER_NAMES = {"de": "from", "sent": "date", "envoye": "date", "envoyé": "date", "objet": "subject", "a": "to"}
_HEADER_NAMES |= {"à": "to"}


def forwarded_apart(document: ParsedDocument) -> list[ParsedDocument]:
    """The message, and each message forwarded inside it as a document of its own (``_FORWARDED``): its copied
    From, Date and Subject lines its metadata, the text under them its text."""
    parts = _FORWARDED.split(document.text)
    if len(parts) == 1:
        return [document]
    found = [dataclasses.replace(document, text=parts[0].rstrip())] if parts[0].strip() else []
    for number, part in enumerate(parts[1:], 1):
        lines = part.strip("\n").splitlines()
        headers: dict[str, str] = {}
        while lines and (match := _COPIED_HEADER.match(lines[0])):
            name = match.group(1).casefold()
            headers.setdefault(_HEADER_NAMES.get(name, name), " ".join(match.group(2).split()))
            lines.pop(0)
        text = "\n".join(lines).strip()
        if not text:
            continue
        metadata = compact_metadata(
            {"from": headers.get("from"), "to": headers.get("to"), "subject": headers.get("subject")}
        )
        dated = header_date(headers.get("date", ""))
        metadata |= {"date": dated} if dated else {}
        found.append(
            dataclasses.replace(
                document,
                title=headers.get("subject") or document.title,
                text=text,
                doc_key=f"{document.doc_key}-fwd-{number}" if document.doc_key else f"fwd-{number}",
                metadata=metadata,
            )
        )
    return found or [document]


def message_document(
    message: EmailMessage, source_name: str, doc_key: str, budget: OutputBudget
) -> ParsedDocument | None:
    """The message as a document: headers as metadata, the subject as title, the plain (or HTML) body as text."""
    subject = _header(message, "subject")
    body = _body_text(message).strip() or subject
    if not body:
        return None
    metadata = compact_metadata({name: _header(message, name) for name in _ADDRESS_HEADERS})
    metadata |= compact_metadata(
        {"subject": subject, "message_id": _header(message, "message-id"), "attachments": _attachment_names(message)}
    )
    metadata |= _date(message)
    return ParsedDocument(
        title=subject or "(no subject)",
        text=budget.charge(body),
        source_name=source_name,
        doc_key=doc_key,
        metadata=metadata,
        kind="email",
    )


def _parse_mbox(source: Source, budget: OutputBudget) -> ParseOutcome:
    documents: list[ParsedDocument] = []
    errors: list[str] = []
    keys_seen: set[str] = set()
    for number, raw in enumerate(_mbox_messages(source.data), 1):
        try:
            message = _message(raw)
            document = message_document(message, source.name, _doc_key(message, number, keys_seen), budget)
        except _MALFORMED as error:
            errors.append(f"message {number}: could not be read ({describe_error(error)})")
            continue
        if document is None:
            errors.append(f"message {number}: has neither a subject nor a body")
        else:
            documents += forwarded_apart(document)
    if not documents and not errors:
        raise ParseError("no messages found in the mbox file (each message starts with a 'From ' line)")
    return ParseOutcome(source_name=source.name, documents=documents, errors=errors)


def _mbox_messages(data: bytes) -> list[bytes]:
    """The raw bytes of each message, its quoted "From " lines unquoted; the mailbox module reads only from a path,
    so the data goes to a temp file."""
    with tempfile.TemporaryDirectory(prefix="c1w-mbox-") as folder:
        path = Path(folder) / "upload.mbox"
        path.write_bytes(data)
        box = mailbox.mbox(path, create=False)
        try:
            return [_FROM_QUOTED.sub(rb"\1", box.get_bytes(key)) for key in box.iterkeys()]
        finally:
            box.close()


# An mbox quotes a body's line that opens with "From " as ">From " (and ">From " as ">>From "): one ">" comes off.
_FROM_QUOTED = re.compile(rb"(?m)^>(>*From )")


def _message(data: bytes) -> EmailMessage:
    message: Message = email.message_from_bytes(data, policy=policy.default)
    assert isinstance(message, EmailMessage)  # policy.default builds EmailMessage objects
    return message


def _doc_key(message: EmailMessage, number: int, seen: set[str]) -> str:
    message_id = (_header(message, "message-id") or "").strip().strip("<>").strip()
    key = message_id if message_id and message_id not in seen else f"msg-{number}"
    seen.add(key)
    return key


def _header(message: EmailMessage, name: str) -> str | None:
    """A header's decoded value; its raw text when the header is too malformed to decode."""
    try:
        value: object = message.get(name)
    except _MALFORMED:
        value = next((raw for key, raw in message.raw_items() if key.lower() == name), None)
    return None if value is None else " ".join(str(value).split())


def _date(message: EmailMessage) -> dict[str, str]:
    try:
        header = message.get("date")
    except _MALFORMED:
        header = None
    if header is None:
        return {}
    when = getattr(header, "datetime", None)
    if when is not None:
        return {"date": str(iso_date(when))}
    return compact_metadata({"date_text": str(header)})


def _body_text(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain", "html"))
    if not isinstance(part, EmailMessage):
        return ""
    content = _part_content(part)
    if part.get_content_subtype() == "html":
        return extract_page(content).text
    return content


def _part_content(part: EmailMessage) -> str:
    try:
        content = part.get_content()
    except (LookupError, UnicodeError, ValueError):
        payload = part.get_payload(decode=True)
        return payload.decode("utf-8", "replace") if isinstance(payload, bytes) else ""
    return content if isinstance(content, str) else ""


def _attachment_names(message: EmailMessage) -> str | None:
    if not message.is_multipart():
        return None
    names = [part.get_filename() or "(unnamed)" for part in message.iter_attachments()]
    return ", ".join(names) or None
