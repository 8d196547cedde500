"""Which language a corpus is written in, from its commonest function words: English or French (the two the
reports read). Hand-written short lists: the words that make up a fifth of any running text in each language."""

from __future__ import annotations

import re
from collections.abc import Iterable

ENGLISH = frozenset("the and of to in is for that with on are was by as at from this we our it be".split())
FRENCH = frozenset("le la les des du et est une un pour dans sur au aux avec par nous notre ses qui que pas".split())
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
LANGUAGES = ("en", "fr")


def language_of(texts: Iterable[str]) -> str:
    """ "fr" when the texts hold more French function words than English ones, else "en"."""
    english = french = 0
    for text in texts:
        for word in _WORD.findall(text.casefold()):
            english += word in ENGLISH
            french += word in FRENCH
    return "fr" if french > english else "en"
