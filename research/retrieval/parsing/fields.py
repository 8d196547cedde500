"""Which column or field of a record plays which part: its title, its text, its date. Exports name them in many
languages and cases ("Company", "SOCIÉTÉ", "Firmenname", "titre", "Inhalt"); names are compared folded (case,
accents, "_" and "-" as spaces), so one list serves every spelling."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

_SEPARATORS = re.compile(r"[\s_.-]+")


def folded(name: str) -> str:
    """A column or field name as compared: lower case, no accents, "_", "-" and "." as one space."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return _SEPARATORS.sub(" ", bare).strip()


def _names(*groups: str) -> tuple[frozenset[str], ...]:
    return tuple(frozenset(folded(name) for name in group.split(",")) for group in groups)


# What titles a row, best first: a title, then a name, a company, a subject, a product (English, French, German,
# Spanish, Italian, Dutch, Portuguese). A row with a "title" and a "company" (a job ad) is titled by its title.
TITLE_COLUMNS = _names(
    "title,headline,heading,titre,intitule,titel,uberschrift,titulo,titolo,kop",
    "name,full name,display name,nom,nom complet,naam,nombre,nome",
    "company,company name,account,account name,organisation,organization,organisation name,organization name"
    ",customer,customer name,client,client name,vendor,competitor,employer,merchant,supplier,firm"
    ",societe,entreprise,raison sociale,compte,fournisseur,concurrent"
    ",firma,firmenname,unternehmen,kunde,empresa,azienda,societa,bedrijf,bedrijfsnaam,organizacion",
    "subject,topic,objet,sujet,betreff,thema,asunto,tema,oggetto,argomento,onderwerp,assunto",
    "product,product name,produit,nom du produit,produkt,produktname,producto,prodotto,product naam,produto",
)


def title_like(names: Iterable[str]) -> str | None:
    """The first of ``names`` that names a title (``TITLE_COLUMNS``, best kind first), or None."""
    listed = list(names)
    for kind in TITLE_COLUMNS:
        found = next((name for name in listed if folded(name) in kind), None)
        if found is not None:
            return found
    return None


def first_named(keys: Iterable[str], wanted: Iterable[str]) -> list[str]:
    """``keys`` that match one of ``wanted`` (compared folded), in ``wanted``'s order (an exact match first)."""
    by_fold: dict[str, list[str]] = {}
    for key in keys:
        by_fold.setdefault(folded(key), []).append(key)
    found: list[str] = []
    for name in wanted:
        matches = by_fold.get(folded(name), [])
        for key in [key for key in matches if key == name] + [key for key in matches if key != name]:
            if key not in found:
                found.append(key)
    return found
