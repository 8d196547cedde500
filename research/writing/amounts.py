"""Amounts as documents write them, in English and in French: "1,200", "1 200", "14,2", "AUD 38 million", "8,50 €".

``AMOUNT`` is a regular-expression fragment with two groups (the digits, the scale word) for the patterns
that read amounts in context (the ICP judge's "at least 50 employees", the conflicts' "310 customers");
``amount_value`` turns its groups into a number.
"""

from __future__ import annotations

import re

SCALE = {"k": 1e3, "thousand": 1e3, "m": 1e6, "mm": 1e6, "million": 1e6, "b": 1e9, "bn": 1e9, "billion": 1e9}
SCALE |= {"millions": 1e6, "milliard": 1e9, "milliards": 1e9, "md": 1e9, "mds": 1e9, "k\u20ac": 1e3}
SCALE |= {"lakh": 1e5, "lakhs": 1e5, "crore": 1e7, "crores": 1e7, "cr": 1e7}  # Indian English: "Rs 96 crore"
# An amount: a currency sign or code, digits ("1,200", "1 200" as French writes it, "14,2" as a French decimal),
# a scale word.
CURRENCY_CODES = "usd|eur|gbp|aud|cad|chf|nzd|dkk|sek|nok|pln|czk|jpy|inr|sgd|aed|brl|rs"  # ISO 4217 and "Rs" (rupees)
AMOUNT = (
    rf"(?:[$€£₹¥]|(?:{CURRENCY_CODES})\s?)?\s*(\d{{1,3}}(?:[ \u00a0\u202f]\d{{3}})+|\d[\d,]*(?:\.\d+)?)\s*"
    r"(k|thousand|mm|m|millions?|bn|b|billion|milliards?|mds?|lakhs?|crores?|cr)?\b"
)


def amount_value(digits: str, scale: str | None) -> float:
    """An amount's value: "1,200" and "1 200" are a thousand two hundred, "14,2" (French) fourteen point two."""
    plain = re.sub(r"[ \u00a0\u202f]", "", digits)
    plain = plain.replace(",", ".") if re.fullmatch(r"\d+,\d{1,2}", plain) else plain.replace(",", "")
    return float(plain) * SCALE.get((scale or "").casefold(), 1.0)


# A price as a price list writes it on a line of its own, under its plan's name: "EUR 13 per sensor / month",
# "49 € HT par mois", "Pro €29 per vehicle / month (£25 in the UK)".
_PRICE = re.compile(
    rf"(?i)(?:[$€£₹¥]\s?\d|\b(?:{CURRENCY_CODES})\.?\s?\d|\d[\d.,]*\s?(?:€|\$|£|k€|(?:{CURRENCY_CODES})\b))"
)
_UNIT = (
    r"(?:month|mo|year|yr|annum|user|seat|sensor|vehicle|device|unit|label|location|site|licen[cs]e|employee|payslip"
    r"|transaction|order|practitioner|hectare|mois|an|ann[ée]e|utilisateur|poste|[ée]tablissement|salari[ée]|commande"
    r"|praticien|borne|terminal)s?"
)
# a price "per" something: "per sensor / month", "par mois", "a seat", or "HT" / "TTC" (French prices before tax)
_PER = re.compile(rf"(?i)\b(?:per|par|a|an)\s+(?:\w+\s+)?{_UNIT}\b|/\s*{_UNIT}\b|\b(?:HT|TTC|one-off|monthly|yearly)\b")
PRICE_LINE_WORDS = 14  # a longer line without a closing stop is a sentence cut short, not a price


_IN_WORDS = re.compile(r"(?i)\b\d[\d.,]*\s*(?:millions?|milliards?)\s+d['\u2019](?:euros|dollars)\b")


def money(text: str) -> bool:
    """Whether ``text`` states an amount of money ("EUR 21 million", "$40", "18 millions d'euros")."""
    return bool(_PRICE.search(text) or _IN_WORDS.search(text))


def priced(text: str) -> bool:
    """Whether ``text`` states a price: a currency amount "per" something ("EUR 13 per sensor / month", "49 € HT")."""
    return bool(_PRICE.search(text) and _PER.search(text))


def price_line(text: str) -> bool:
    """Whether ``text`` is a price on a line of its own: a price (``priced``) on a short line without a closing
    stop."""
    return priced(text) and len(text.split()) <= PRICE_LINE_WORDS and text.rstrip()[-1:] not in ".!?:"
