"""Amounts as documents write them, in English and in French: "1,200", "1 200", "14,2", "AUD 38 million", "8,50 €".

``AMOUNT`` is a regular-expression fragment with two groups (the digits, the scale word) for the patterns
that read amounts in context (the ICP judge's "at least 50 employees", the conflicts' "310 customers");
``amount_value`` turns its groups into a number.
"""

from __future__ import annotations

import re

SCALE = {"k": 1e3, "thousand": 1e3, "m": 1e6, "mm": 1e6, "mn": 1e6, "million": 1e6, "b": 1e9, "bn": 1e9, "billion": 1e9}
SCALE |= {"millions": 1e6, "milliard": 1e9, "milliards": 1e9, "md": 1e9, "mds": 1e9, "k\u20ac": 1e3}
SCALE |= {
    "milioni": 1e6,
    "millones": 1e6,
    "mio": 1e6,
    "mln": 1e6,
    "miliardi": 1e9,
    "mrd": 1e9,
    "millionen": 1e6,
    "miljoen": 1e6,
    "miljard": 1e9,
    "miljoner": 1e6,
    "millioner": 1e6,
    "milj": 1e6,
    "millón": 1e6,
    "milhões": 1e6,
    "milhão": 1e6,
}  # Italian, Spanish, German, Dutch, Swedish, Danish and Norwegian, Finnish ("milj."), Portuguese
SCALE |= {"lakh": 1e5, "lakhs": 1e5, "crore": 1e7, "crores": 1e7, "cr": 1e7}  # Indian English: "Rs 96 crore"
SCALE |= {"mil": 1e6, "mld": 1e9, "tis": 1e3, "tys": 1e3}  # Czech, Slovak and Polish: "138,6 mil. Kč", "1,9 mld."
SCALE |= {"milyon": 1e6, "milyar": 1e9}  # Turkish: "₺412 milyon"
SCALE |= {"oku": 1e8, "eok": 1e8}  # Japanese and Korean English: "34.6 oku yen", "127 eok won" (a hundred million)
# A currency as documents write it: the ISO 4217 code of one of the world's 50-odd most used currencies, in capitals
# or with a capital ("EUR", "Eur"), or as its country writes it ("Rs" for rupees, "DH"/"Dhs" for dirhams, "RM" for
# ringgits, "Rp" for rupiahs, "kr" for crowns), or its sign ("€", "₦"); the rand's "R" right before a figure ("R549").
# Written by hand: price-parser, the library built for this, leaves out "R" and "DH". Case matters, so "try 14 days",
# "PHP 8" and "ALL 3 plans" (the lira's, the peso's and the lek's codes) are not amounts: the lira's code counts in
# capitals only, the peso's ("PHP 8.2" in a job ad) and the lek's are left out.
_ISO = (
    "USD EUR GBP AUD CAD CHF NZD DKK SEK NOK PLN CZK HUF RON BGN ISK JPY CNY RMB HKD TWD KRW SGD MYR IDR THB VND INR"
    " PKR LKR BDT AED SAR QAR KWD ILS EGP MAD TND DZD NGN KES GHS ZAR BRL MXN CLP"
).split()
_LOCAL = "Rs DH Dh Dhs RM Rp kr FCFA Kč zł".split()
# in capitals only: "TRY 350 million" is the lira, "Try 14 days" is not
_CAPITALS_ONLY = ["TRY"]
CURRENCY_CODES = "(?-i:" + "|".join([*_ISO, *(code.title() for code in _ISO), *_LOCAL, *_CAPITALS_ONLY]) + ")"
CURRENCY_SIGNS = "$€£₹¥₦₱₩฿₫₺₪₽"
# An amount: a currency sign or code, digits ("1,200", "1 200" as French writes it, "14,2" as a French decimal),
# a scale word.
SCALE_WORDS = r"k|thousand|mm|mn|m|millions?|milioni|millones|mio|mln|bn|b|billion|milliards?|miliardi|mrd|mds?|lakhs?"
SCALE_WORDS += r"|millionen|miljoen|miljard|miljoner|millioner|milj|millón|milhões|milhão"
SCALE_WORDS += r"|crores?|cr|mil|mld|tis|tys|oku|eok|milyon|milyar"
AMOUNT = (
    rf"(?:(?-i:\b[A-Z]{{1,2}}(?=\$))?[{CURRENCY_SIGNS}]|(?-i:\bR(?=\d))|\b{CURRENCY_CODES}\s?)?\s*"  # "R$ 50", "A$38"
    r"(\d{1,3}(?:[ \u00a0\u202f]\d{3})+|\d[\d,]*(?:\.\d+)?)\s*"
    rf"({SCALE_WORDS})?\b"
)
_AMOUNTS = re.compile(rf"(?i){AMOUNT}")


def amount_value(digits: str, scale: str | None) -> float:
    """An amount's value: "1,200" and "1 200" are a thousand two hundred, "14,2" (French) fourteen point two."""
    plain = re.sub(r"[ \u00a0\u202f]", "", digits)
    plain = plain.replace(",", ".") if re.fullmatch(r"\d+,\d{1,2}", plain) else plain.replace(",", "")
    return round(float(plain) * SCALE.get((scale or "").casefold(), 1.0), 6)  # 4.1 million is 4,100,000


# The currency a sign stands for; a dollar sign alone is the US dollar unless letters before it say whose ("A$",
# "C$", "NZ$", "S$", "MX$", "R$" for the real).
_SIGNS = {"€": "EUR", "£": "GBP", "₹": "INR", "¥": "JPY", "₦": "NGN", "₱": "PHP", "₩": "KRW", "฿": "THB", "₫": "VND"}
_SIGNS |= {"₺": "TRY", "₪": "ILS", "₽": "RUB"}
_DOLLAR_OF = {"A": "AUD", "AU": "AUD", "C": "CAD", "CA": "CAD", "NZ": "NZD", "S": "SGD", "SG": "SGD", "MX": "MXN"}
_DOLLAR_OF |= {"R": "BRL", "US": "USD", "HK": "HKD"}
_CURRENCY = re.compile(
    rf"(?:\b([A-Z]{{1,2}})?\$|([{CURRENCY_SIGNS}])|\b({CURRENCY_CODES})\b|\b(euros?|dollars?|yen)\b)"
)
_LOCAL_CODES = {"rs": "INR", "dh": "MAD", "dhs": "MAD", "rm": "MYR", "rp": "IDR", "fcfa": "XOF", "kr": "SEK"}
_LOCAL_CODES |= {"kč": "CZK", "zł": "PLN"}


def currency_in(text: str) -> str | None:
    """The ISO code of the first currency ``text`` writes ("EUR 30 million", "€ 13,6 miljoen", "A$38 million",
    "MXN $250 millones": MXN), or None."""
    found = _CURRENCY.search(text)
    if found is None:
        return None
    prefix, sign, code, word = found.groups()
    if code:
        return _LOCAL_CODES.get(code.casefold(), code.upper())
    if sign:
        return _SIGNS.get(sign, "USD" if sign == "$" else None)
    if word:
        return {"euro": "EUR", "yen": "JPY"}.get(word.casefold()[:4].rstrip("s"), "USD")
    return _DOLLAR_OF.get(prefix or "US", "USD")


def amounts_in(text: str, *, scaled: bool = False) -> set[float]:
    """The values of the amounts ``text`` writes; with ``scaled``, only those with a scale word ("EUR 14 million",
    "4,1 M€", "Rs 96 crore"), the way a sum of money is told in a sentence rather than a count."""
    return {
        amount_value(match.group(1), match.group(2))
        for match in _AMOUNTS.finditer(text)
        if match.group(2) or not scaled
    }


# A price as a price list writes it on a line of its own, under its plan's name: "EUR 13 per sensor / month",
# "49 € HT par mois", "Pro €29 per vehicle / month (£25 in the UK)".
_PRICE = re.compile(
    rf"(?i)(?:[{CURRENCY_SIGNS}]\s?\d|\b{CURRENCY_CODES}\.?\s?\d|\d[\d.,]*\s?(?:[{CURRENCY_SIGNS}]|k€|{CURRENCY_CODES}\b))"
    r"|(?-i:\bR\d)"  # the rand: "R549", "R1 299"
)
_UNIT = (
    r"(?:month|mo|mth|year|yr|annum|user|seat|sensor|vehicle|device|unit|label|location|site|licen[cs]e|employee|payslip"
    r"|transaction|order|practitioner|hectare|mois|an|ann[ée]e|utilisateur|poste|[ée]tablissement|salari[ée]|commande"
    r"|praticien|borne|terminal|technician|vet|room|bed|container|truck|pharmac(?:y|ie))s?"
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
