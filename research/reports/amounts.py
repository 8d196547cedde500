"""Amounts as documents write them, in English and in French: "1,200", "1 200", "14,2", "AUD 38 million", "8,50 €".

``AMOUNT`` is a regular-expression fragment with two groups (the digits, the scale word) for the patterns
that read amounts in context (the ICP judge's "at least 50 employees", the conflicts' "310 customers");
``amount_value`` turns its groups into a number.
"""

from __future__ import annotations

import re

SCALE = {"k": 1e3, "thousand": 1e3, "m": 1e6, "mm": 1e6, "million": 1e6, "b": 1e9, "bn": 1e9, "billion": 1e9}
SCALE |= {"millions": 1e6, "milliard": 1e9, "milliards": 1e9, "md": 1e9, "mds": 1e9, "k\u20ac": 1e3}
# An amount: a currency sign or code, digits ("1,200", "1 200" as French writes it, "14,2" as a French decimal),
# a scale word.
AMOUNT = (
    r"(?:[$€£]|(?:usd|eur|gbp|aud|cad|chf|nzd)\s?)?\s*(\d{1,3}(?:[ \u00a0\u202f]\d{3})+|\d[\d,]*(?:\.\d+)?)\s*"
    r"(k|thousand|mm|m|millions?|bn|b|billion|milliards?|mds?)?\b"
)


def amount_value(digits: str, scale: str | None) -> float:
    """An amount's value: "1,200" and "1 200" are a thousand two hundred, "14,2" (French) fourteen point two."""
    plain = re.sub(r"[ \u00a0\u202f]", "", digits)
    plain = plain.replace(",", ".") if re.fullmatch(r"\d+,\d{1,2}", plain) else plain.replace(",", "")
    return float(plain) * SCALE.get((scale or "").casefold(), 1.0)
