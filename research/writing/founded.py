"""ICP criteria about when a company was founded: "Founded before 2010", "Créée après 2015", "Less than 10 years
old", "Founded between 2010 and 2020". A sentence decides when it says the company was founded, established,
created or incorporated in a year ("Uvalia was founded in Mendoza in 2011 by ...", "Fondée en 2014 à Rennes,
...", "In 2011, two engineers founded Uvalia"). Hand-written words, English and French, as in
research.writing.presence.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

_YEAR = r"((?:19|20)\d\d)"
_FOUNDING_WORDS = (
    r"found(?:ed|ing)?|co-?founded|established|incorporated|set up|fond[ée]e?s?|fondation|cr[ée]{2}e?s?|cr[ée]ation"
    r"|gegr[üu]ndet|fundad[ao]"
)
_CRITERION = re.compile(
    rf"(?i)\b(?:(?:{_FOUNDING_WORDS})\b|years? old|ans d['\u2019](?:existence|anciennet[ée])|age\b)"
)
_BEFORE = re.compile(rf"(?i)\b(?:before|prior to|earlier than|avant|pre-?)\s*{_YEAR}")
_AFTER = re.compile(rf"(?i)\b(?:after|later than|apr[èe]s|post-?)\s*{_YEAR}")
_FROM = re.compile(rf"(?i)\b(?:since|in or after|from|depuis|[àa] partir de|en ou apr[èe]s)\s*{_YEAR}|{_YEAR} or later")
_UNTIL = re.compile(rf"(?i)\b(?:in or before|up to|au plus tard en|jusqu['\u2019]en)\s*{_YEAR}|{_YEAR} or earlier")
_BETWEEN = re.compile(rf"(?i)\b(?:between|entre)\s*{_YEAR}\s*(?:and|et)\s*{_YEAR}")
_YOUNGER = re.compile(r"(?i)\b(?:less than|under|fewer than|moins de|younger than)\s*(\d{1,3})\s*(?:years?|ans)\b")
_OLDER = re.compile(r"(?i)\b(?:more than|over|at least|plus de|au moins|older than)\s*(\d{1,3})\s*(?:years?|ans)\b")


@dataclass(frozen=True)
class FoundedRule:
    earliest: int | None = None  # the first founding year that matches
    latest: int | None = None  # the last
    younger_than: int | None = None  # years, counted from the check's day
    older_than: int | None = None

    def bounds(self, year_now: int) -> tuple[int | None, int | None]:
        """The founding years that match, as of ``year_now``."""
        earliest = self.earliest if self.younger_than is None else year_now - self.younger_than + 1
        latest = self.latest if self.older_than is None else year_now - self.older_than - 1
        return earliest, latest

    def describe(self) -> str:
        if self.younger_than is not None:
            return f"founded less than {self.younger_than} years ago"
        if self.older_than is not None:
            return f"founded more than {self.older_than} years ago"
        if self.earliest is not None and self.latest is not None:
            return f"founded between {self.earliest} and {self.latest}"
        return (
            f"founded in {self.earliest} or later"
            if self.earliest is not None
            else f"founded in {self.latest} or earlier"
        )

    def question(self, company: str) -> str:
        return f"When was {company} founded (founded, established, created, since)?"


def founded_rule(text: str) -> FoundedRule | None:
    """The criterion read as a founding-year criterion, or None."""
    if not _CRITERION.search(text):
        return None
    for pattern, read in _READINGS:
        if found := pattern.search(text):
            years = [int(group) for group in found.groups() if group]
            return read(years)
    return None


_READINGS: tuple[tuple[re.Pattern[str], Callable[[list[int]], FoundedRule]], ...] = (
    (_BETWEEN, lambda years: FoundedRule(years[0], years[1])),
    (_YOUNGER, lambda years: FoundedRule(younger_than=years[0])),
    (_OLDER, lambda years: FoundedRule(older_than=years[0])),
    (_BEFORE, lambda years: FoundedRule(latest=years[0] - 1)),
    (_AFTER, lambda years: FoundedRule(earliest=years[0] + 1)),
    (_FROM, lambda years: FoundedRule(earliest=years[0])),
    (_UNTIL, lambda years: FoundedRule(latest=years[0])),
)


# "was founded in Mendoza in 2011", "Fondée en 2014", "established 2009", "in 2011, two engineers founded it"; the
# year within a few words of the founding word, either side.
_FOUNDED_IN = re.compile(rf"(?i)\b(?:{_FOUNDING_WORDS})\b[^.;:]{{0,40}}?\b{_YEAR}\b")
_IN_FOUNDED = re.compile(rf"(?i)\b(?:in|en|since|depuis)\s+{_YEAR},?\s+(?:\w+\s+){{0,4}}?(?:{_FOUNDING_WORDS})\b")


def founding_year(sentence: str) -> tuple[int, int] | None:
    """The year the sentence says something was founded, and where its founding word stands; None when it says
    none."""
    if found := _FOUNDED_IN.search(sentence):
        return int(found.group(1)), found.start()
    if found := _IN_FOUNDED.search(sentence):
        return int(found.group(1)), found.start()
    return None
