"""The day a sentence's first date may mean, as a span ("March 2026": the 1st to the 31st), in English and
French ("1 September 2026", "Sept. 1, 2026", "le 3 septembre 2026", "2026-09", "20.11.2025"), for the ICP judge's time
windows."""

from __future__ import annotations

import calendar
import datetime
import re

from research.retrieval.parsing.text import MONTHS

Span = tuple[datetime.date, datetime.date]

_ISO = re.compile(r"\b(20\d\d|19\d\d)-(\d\d)(?:-(\d\d))?\b")
_MONTH_YEAR = re.compile(
    r"(?i)\b(?:(\d{1,2})(?:er)?\.?\s+(?:de\s+)?)?([^\W\d_]{3,10})\.?\s+(?:(\d{1,2}),\s+|de\s+|del\s+)?(20\d\d|19\d\d)\b"
)
_YEAR = re.compile(r"\b(20\d\d|19\d\d)\b")


_DAY_MONTH = re.compile(r"(?i)\b(\d{1,2})(?:er|st|nd|rd|th)?\s+([^\W\d_]{3,10})\b(?!\.?,?\s+(?:19|20)\d\d)")


def date_span(text: str, year: int | None = None) -> tuple[datetime.date, datetime.date] | None:
    """The earliest and latest day a sentence's first date may mean ("March 2026": the 1st to the 31st); a day
    and month without a year ("on 1 September") are of ``year`` (its document's) when given."""
    dated = [*_isos(text), *_month_years(text), *_dotted(text), *(_days_of(text, year) if year is not None else [])]
    if dated:
        return min(dated, key=lambda item: item[0])[1]
    if found := _YEAR.search(text):
        return datetime.date(int(found.group(1)), 1, 1), datetime.date(int(found.group(1)), 12, 31)
    return None


def _isos(text: str) -> list[tuple[int, Span]]:
    """The first "2026-09-01" or "2026-09" of the text, with where it stands."""
    for found in _ISO.finditer(text):
        year, month = int(found.group(1)), int(found.group(2))
        if 1 <= month <= 12:
            return [(found.start(), _day(year, month, found.group(3)) if found.group(3) else _month(year, month))]
    return []


def _month_years(text: str) -> list[tuple[int, Span]]:
    """The first "March 2026" / "1 September 2026" / "Sept. 1, 2026" of the text, with where it stands."""
    for found in _MONTH_YEAR.finditer(text):
        named = MONTHS.get(found.group(2).casefold())
        if named is not None:
            day = found.group(1) or found.group(3)
            return [
                (found.start(), _day(int(found.group(4)), named, day) if day else _month(int(found.group(4)), named))
            ]
    return []


# A day as Nordic and German writers write it, day first: "20.11.2025", "8.1.2026".
_DOTTED = re.compile(r"(?<![\d./])(\d{1,2})([./]) ?(\d{1,2})\2 ?((?:19|20)\d\d)(?![\d./]\d)")


# A day written year first with slashes or dots, as Japanese, Chinese and Korean writers write it: "2025/12/01",
# "2026.10.07".
_YEAR_FIRST = re.compile(r"(?<![\d./])((?:19|20)\d\d)([./])(\d{1,2})\2(\d{1,2})(?![\d./]\d)")


def _dotted(text: str) -> list[tuple[int, Span]]:
    """The first "20.11.2025" (day, month, year), "14/03/2026" or "2025/12/01" of the text, with where it stands.
    With slashes the day may come second, as Americans write it ("03/14/2026"): where both readings are days, the
    span holds both ("03/04/2026": 3 April to 4 March, the earlier first)."""
    dated: list[tuple[int, Span]] = []
    for found in _YEAR_FIRST.finditer(text):
        year, month, day = int(found.group(1)), int(found.group(3)), int(found.group(4))
        if 1 <= month <= 12 and 1 <= day <= 31:
            dated.append((found.start(), _day(year, month, str(day))))
            break
    for found in _DOTTED.finditer(text):
        first, second, year = int(found.group(1)), int(found.group(3)), int(found.group(4))
        readings = [(second, first)] if found.group(2) == "." else [(second, first), (first, second)]
        days = [_day(year, month, str(day))[0] for month, day in readings if 1 <= month <= 12 and 1 <= day <= 31]
        if days:
            dated.append((found.start(), (min(days), max(days))))
            break
    return sorted(dated)[:1]


# A month named alone after "in", "since", "en": "the round closed in February", "depuis mars".
_MONTH_ALONE = re.compile(
    r"(?i)\b(?:in|en|em|im|since|depuis|from|d[eè]s)\s+(?:early\s+|late\s+|mid-?|d[ée]but\s+|fin\s+)?([^\W\d_]{3,10})\b"
    r"(?!\.?,?\s*\d)"
)


def _days_of(text: str, year: int) -> list[tuple[int, Span]]:
    """The first day and month without a year ("on 1 September") of the text, else the first month named alone
    ("closed in February"), in ``year``."""
    for found in _DAY_MONTH.finditer(text):
        named = MONTHS.get(found.group(2).casefold())
        if named is not None:
            return [(found.start(), _day(year, named, found.group(1)))]
    for found in _MONTH_ALONE.finditer(text):
        named = MONTHS.get(found.group(1).casefold())
        if named is not None:
            return [(found.start(), _month(year, named))]
    return []


def _day(year: int, month: int, day: str) -> tuple[datetime.date, datetime.date]:
    last = calendar.monthrange(year, month)[1]
    exact = datetime.date(year, month, max(1, min(int(day), last)))
    return exact, exact


def _month(year: int, month: int) -> tuple[datetime.date, datetime.date]:
    first = datetime.date(year, month, 1)
    following = datetime.date(year + (month == 12), month % 12 + 1, 1)
    return first, following - datetime.timedelta(days=1)
