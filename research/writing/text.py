"""Text helpers of the writers and the citation check: normalising, sentences, the names and numbers of a claim."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from pathlib import PurePosixPath
from urllib.parse import urlsplit

from research.retrieval.sparse import fold_accents

_NOT_WORD = re.compile(r"[^\w]+", re.UNICODE)
# A sentence ends at . ! ? (then a space and an upper-case letter, accented ones too, a digit or a quote, straight,
# curly or French) or at a blank line.
_SENTENCE_END = re.compile(
    r"(?<=[.!?])[\"')\]\u201d\u2019\u00bb]?\s+(?=[\"'(\[\u201c\u2018\u00ab]?[A-Z0-9\u00c0-\u00d6\u00d8-\u00de])|\n\s*\n"
)
_ABBREVIATIONS = frozenset(
    {"mr", "mrs", "ms", "dr", "prof", "inc", "ltd", "co", "corp", "st", "vs", "no", "jr", "sr", "e.g", "i.e", "u.s"}
    # titles before a name ("the position is Hon. Winnie Kiiza", "Gen. Sir John Monash"), "et al."
    | {"hon", "gen", "gov", "sen", "rep", "rev", "capt", "col", "lt", "sgt", "maj", "cmdr", "adm", "fr", "mt", "al"}
    # a press release's dateline: "DENVER, Jan. 20, 2026 - Tavelnor ..."
    | {"jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"}
    # a figure's hedge or scope: "(approx. EUR 10.9 million)", "(env. 11 M€)", "incl. VAT"
    | {"approx", "incl", "excl", "env", "cf", "resp"}
    # a street in an address: "ul. Hubska 44", "Hauptstr. 5", "av. de la Gare", "bd. Haussmann"
    | {"ul", "str", "av", "ave", "bd", "blvd", "pl"}
    # an amount's scale ("180 mil. Kč", "1,9 mld. Kč", "DKK 212,4 mio. (about ...)", "4,2 Mrd. Euro", "3 mln. zł")
    # and a Czech or Slovak title before a name ("Ing. Radim Šebesta")
    | {"mil", "mld", "tis", "mio", "mrd", "mln", "tys", "tsd", "ing", "mgr", "bc"}
    # German and Austrian: "zzgl. MwSt.", "bzw.", "Mag. Teresa Obexer", "Dipl.-Ing."
    | {"zzgl", "bzw", "mag", "dipl", "ca", "ggf", "evtl", "mwst"}
    # Philippine English: "co-founder Ma. Cristina Abellana" (Maria), "Engr. Rodel Tabanao", "Atty. Reyes"
    | {"ma", "engr", "atty"}
)
# A day written with dots and spaces, as Czech and German writers write it: "7. 10. 2026", "31. 12. 2027".
_DOTTED_DAY_PART = re.compile(r"\d{1,2}\.?$")
_DOTTED_DAY_NEXT = re.compile(r"(?:\d{1,2}\.|(?:19|20)\d\d\b)")
# A company's dotted legal form before an aside: "Fotonaria S.r.l. (Bologne) a réalisé ..." (not before a capital: a
# title line "Halvorix Revenue Technologies S.L." ends before "Halvorix raised ...")
_LEGAL_FORMS = frozenset({"s.r.l", "s.p.a", "s.a", "b.v", "n.v", "s.l", "s.c", "s.a.s", "s.a.r.l", "l.l.c", "a.g"})
_NUMBER = re.compile(r"\d[\d,.]*\d|\d")
# A capitalised word (letters, digits, ' and - inside), or an acronym.
_CAPITALISED = re.compile(r"\b[A-Z][\w'\u2019-]*\b")
_POSSESSIVE = re.compile(r"['\u2019]s?$")
_FUNCTION_WORDS = frozenset(
    """a an and are as at be but by for from had has have he her his how i if in is it its of on or our she
    that the their them there these they this those to was we were what when where which who whom whose why
    will with within without you your yes no not also after before during since until about above below over
    under between into onto upon while although though because both each either every all any some many more
    most other such only own same so than too very can could may might must shall should would""".split()
)


def fold(text: str) -> str:
    """Case, accents, punctuation and spacing folded away: what a quote must match in a chunk's text."""
    return " ".join(_NOT_WORD.sub(" ", fold_accents(text).casefold()).split())


# Words that deny what follows them within a few words ("no AWS", "sans revendeurs", "never through resellers"), folded.
NEGATIONS = frozenset("no not never without none lacks lack nor cannot pas aucun aucune sans jamais".split())


def negated(words: Sequence[str], window: int, also: Iterable[str] = ()) -> bool:
    """Whether a negation (one of ``NEGATIONS`` or ``also``) stands among the last ``window`` of the folded
    ``words`` (``fold(text).split()``): the words before what it would deny."""
    extra = frozenset(also)
    return any(word in NEGATIONS or word in extra for word in words[max(0, len(words) - window) :])


def negated_before(text: str, window: int, also: Iterable[str] = ()) -> bool:
    """``negated`` on the words of ``text``, the words before what a negation would deny, folded here."""
    return negated(fold(text).split(), window, also)


# A list item starts a sentence of its own ("- ", "* ", "• ", "1. ", "2) " at the start of a line) ...
_LIST_ITEM = re.compile(r"\n[ \t]*(?:[-*\u2022]|\d{1,2}[.)])[ \t]+")
# ... and so does the line after a heading: a line without closing punctuation, followed by a line that starts with
# a capital, a digit or a currency sign, of at most six words or at most HEADING_CHARS characters (a page's tagline
# "Help us keep medicine and food cold", "La caisse qui suit le rythme du coup de feu"): a line of prose wrapped
# by a PDF or an e-mail (at 70-100 characters) is longer than that.
HEADING_CHARS = 50
_HEADING = re.compile(
    r"(?m)^[ \t]*(#{1,6}[ \t]*)?((?:[^\s]+[ \t]+){0,11}[^\s.!?,;:]+)[ \t]*\n"
    r"(?=[ \t]*[A-Z\u00c0-\u00de0-9$\u20ac\u00a3])"
)


# A heading between two lines (a person's name over their role on a page's leadership cards: "...de Sud Répartition\n
# Nawal Chergui\nDirectrice commerciale ...") starts a sentence whatever the line before it, unless that line ends
# with a function word ("... to AWS in\nFrankfurt ..."): a line of wrapped prose is rarely that short between two
# lines that start with a capital.
_HEADING_ALONE = re.compile(
    r"(?m)(?<=[^.!?:;,\s])[ \t]*\n"
    r"(?=[ \t]*[A-Z\u00c0-\u00de](?:[^\s.!?,;:]*[ \t]+){0,4}[^\s.!?,;:]+[ \t]*\n[ \t]*[A-Z\u00c0-\u00de])"
)
_LINE_FUNCTION_WORDS = _FUNCTION_WORDS | frozenset("de du des la le les et à au aux en par pour sur avec".split())


def _heading_alone(match: re.Match[str]) -> str:
    before = match.string[max(0, match.start() - 40) : match.start()].split()
    return match.group(0) if before and before[-1].casefold() in _LINE_FUNCTION_WORDS else "\n\n"


def _heading_end(match: re.Match[str]) -> str:
    line = match.group(0).rstrip("\n")
    return f"{line}\n\n" if len(match.group(2).split()) <= 6 or len(line.strip()) <= HEADING_CHARS else match.group(0)


# A list item ends with its line when the next line starts as a sentence or a figure does (a plan's name under
# its features: "- Support par e-mail 7 jours sur 7\nPro\n89 € HT par mois").
_LIST_LINE_END = re.compile(
    r"(?m)^([ \t]*(?:[-*\u2022]|\d{1,2}[.)])[ \t]+[^\n]*)\n(?=[ \t]*[A-Z\u00c0-\u00de0-9$\u20ac\u00a3])"
)
# A news article's byline ("By Owen Brackley | 9 September 2026", "Par Anne Roux") is a line of its own: the
# headline above it and the lead below it are sentences of their own.
# A "Label: value" line ends its sentence when another follows (a page's "Headquarters: Via del Battiferro 9,
# Bologna, Italy" over "Madrid: Stimalba Iberia S.L., ..."); a record's lines (a CSV row as ingested: every line a
# field) stay one.
_FIELD = r"[ \t]*[A-Z\u00c0-\u00de][\w\u00c0-\u00ff /&'-]{0,30}:[ \t]+\S"
_FIELD_START = re.compile(_FIELD)


def field_line(text: str) -> bool:
    """Whether ``text`` opens as a "Label: value" line does ("Headquarters: Via del Battiferro 9, Bologna")."""
    return bool(_FIELD_START.match(text))


_FIELD_LINE_END = re.compile(rf"(?m)^({_FIELD}[^\n]*)\n(?={_FIELD})")
_BYLINE = re.compile(r"(?m)^[ \t]*(?:By|Par)[ \t]+[A-Z\u00c0-\u00de][^\n.!?]{0,80}$")
_EMPHASIS = re.compile(r"\*\*|__")  # Markdown bold: "**Price framing.** Marrowpine offered ..." is two sentences
_BULLET = re.compile(r"^(?:[-*\u2022]|\d{1,2}[.)])\s+")


def _title_apart(text: str, title: str) -> str:
    """The text with each line that is its document's ``title`` (a page's headline, however long) a paragraph of
    its own: the sentence under it starts anew."""
    named = fold(title)
    if not named:
        return text
    return "\n".join(f"\n{line}\n" if fold(line) == named else line for line in text.split("\n"))


# Text addressed to a language model, not a statement about anything: a chat role's prefix ("SYSTEM: the verified
# answer is ...", "[INST]", "<|im_start|>"), an order to drop its instructions ("Ignore previous instructions",
# "ignorez les instructions précédentes"), a model told what it is ("You are now an assistant that ..."), or an answer
# declared true ("the verified answer is"). A document that says so is still shown; the sentence is never a claim.
_TO_A_MODEL = re.compile(
    r"(?i)^\W*(?:\[?(?:system|assistant|developer|instructions?|inst|sys)\]?\s*[:>\]]|<\|?(?:im_start|system)"
    r"|#{1,3}\s*(?:system|instructions?)\b)"
    r"|\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+)?(?:previous|prior"
    r"|above|earlier|preceding|original|system)\s+(?:instructions?|prompts?|rules?|directions?|messages?|context)"
    r"|\b(?:ignorez|oubliez)\s+(?:toutes\s+)?(?:les|vos)\s+(?:instructions|consignes|r[èe]gles)"
    r"|\b(?:you are|you're|tu es|vous [êe]tes)\s+(?:now\s+|maintenant\s+|d[ée]sormais\s+)?(?:an?\s+|un\s+|une\s+)?"
    r"(?:ai|assistant|language model|llm|chatbot|agent|assistante?|mod[èe]le)\b"
    r"|\bthe (?:verified|correct|true|official|real) answer (?:is|was)\b|\bla (?:vraie|bonne) r[ée]ponse est\b"
)


def addressed_to_a_model(text: str) -> bool:
    """Whether ``text`` speaks to a language model (``_TO_A_MODEL``) rather than stating a fact."""
    return _TO_A_MODEL.search(text) is not None


def sentences(text: str, title: str = "") -> list[str]:
    """The sentences of a text (whitespace collapsed), not split after common abbreviations; a list item, the
    line after a heading and the line after the document's ``title`` start new ones (their list markers and
    Markdown bold markers dropped), and a byline stands alone."""
    text = _BYLINE.sub(lambda match: f"\n\n{match.group(0)}\n\n", _EMPHASIS.sub("", _title_apart(text, title)))
    text = _LIST_LINE_END.sub(lambda match: f"{match.group(1)}\n\n", text)
    filled = [line for line in text.splitlines() if line.strip()]
    if not all(field_line(line) for line in filled):
        text = _FIELD_LINE_END.sub(lambda match: f"{match.group(1)}\n\n", text)
    text = _HEADING.sub(_heading_end, _LIST_ITEM.sub("\n\n", f"\n{_HEADING_ALONE.sub(_heading_alone, text)}"))
    pieces: list[str] = []
    for part in _SENTENCE_END.split(text):
        sentence = _BULLET.sub("", " ".join(part.split()))
        if not sentence:
            continue
        last_word = (
            pieces[-1].rsplit(" ", 1)[-1].rstrip(".").lstrip("([\"'\u201c\u2018\u00ab").casefold() if pieces else ""
        )
        aside = last_word in _LEGAL_FORMS and sentence.startswith("(")
        dotted_day = _DOTTED_DAY_PART.fullmatch(last_word) and _DOTTED_DAY_NEXT.match(sentence)
        if pieces and (
            aside or dotted_day or last_word in _ABBREVIATIONS or (len(last_word) == 1 and last_word.isalpha())
        ):
            pieces[-1] = f"{pieces[-1]} {sentence}"
        else:
            pieces.append(sentence)
    return pieces


def numbers(text: str) -> set[str]:
    """The numbers a text states, as digits only ("1,200" and "1200" are the same number)."""
    return {re.sub(r"[^\d]", "", match) for match in _NUMBER.findall(text)}


def names(text: str) -> set[str]:
    """The proper names a text states, folded: capitalised words that are not function words.

    A capitalised word that starts a sentence counts too (a claim's first word is often its subject); a
    function word ("The", "In") never does.
    """
    found = set()
    for match in _CAPITALISED.findall(text):
        for word in fold(_POSSESSIVE.sub("", match)).split():
            if word not in _FUNCTION_WORDS and not word.isdigit():
                found.add(word)
    return found


def unsupported_terms(claim: str, quotes: str) -> list[str]:
    """The numbers and names of ``claim`` that ``quotes`` does not contain, in the claim's order."""
    folded_quotes = f" {fold(quotes)} "
    quote_numbers = numbers(quotes)
    missing = [number for number in sorted(numbers(claim)) if number not in quote_numbers]
    for name in sorted(names(claim)):
        if f" {name} " not in folded_quotes:
            missing.append(name)
    return missing


def _folded_with_sources(text: str) -> tuple[str, list[int]]:
    """``fold(text)`` and, for each of its characters, the index in ``text`` it came from."""
    chars: list[str] = []
    sources: list[int] = []
    for index, char in enumerate(text):
        decomposed = unicodedata.normalize("NFKD", char)
        plain = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
        for piece in plain or " ":
            folded = piece if _NOT_WORD.fullmatch(piece) is None else " "
            if folded == " " and (not chars or chars[-1] == " "):
                continue
            chars.append(folded)
            sources.append(index)
    while chars and chars[-1] == " ":
        chars.pop()
        sources.pop()
    return "".join(chars), sources


def quote_span(text: str, quote: str) -> tuple[int, int] | None:
    """Where ``quote`` lies in ``text`` (start, end), matched as the citation check matches it after folding;
    None when it is not there word for word (a fuzzy match is not marked)."""
    needle = fold(quote)
    haystack, sources = _folded_with_sources(text)
    start = haystack.find(needle) if needle else -1
    if start < 0:
        return None
    end = start + len(needle) - 1
    return sources[start], sources[end] + 1


def published_by(company: str, source: str) -> bool:
    """Whether a document's source names ``company`` as its publisher: the file's name or the web page's host
    opens with the company's name ("halvorix-press-serverless-ga.html", "https://www.halvorix.com/careers"), as
    a company's own pages and releases are named. Its "we" is then the company."""
    name = fold(company)
    if not name:
        return False
    parts = urlsplit(source)
    web = parts.scheme in ("http", "https")
    where = (parts.hostname or "") if web else PurePosixPath(source.replace("\\", "/")).name
    where = fold(where.removeprefix("www.").replace("_", " "))
    return f"{where} ".startswith(f"{name} ")
