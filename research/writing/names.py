"""A company known by its names, and whose voice a document is.

From what a member typed ("Tjalkwerf Payments B.V.") and what a run retrieved:

- its names: the name as typed, without its legal form (``cleanco``: "Tjalkwerf Payments"), without the generic
  words a company's name ends with ("Tjalkwerf"), its first word when the documents use it alone, and the
  labels of its web domains ("tjalkwerf.example" -> "tjalkwerf") when they spell one of those names;
- its look-alikes, which are never the company: another company that shares its first word and carries a legal
  form of its own ("Tjalkwerf Energy Ltd"), and a word one or two letters away from one of its names
  ("Tjalkwerk", rapidfuzz's Levenshtein distance);
- whose voice a document is (``speaks_in``): the company's own site, release, careers page or e-mail, known by
  its file name or web address (``published_by``), or by its publisher as the parser read it (a copyright line,
  the site's name or address, an e-mail's sender).

A sentence is about the company (``about``) when it names it (outside a look-alike's name); when it speaks in
the company's own document and names no look-alike; when it opens with "It", "The company", "The
Utrecht-based firm", "La société" ... and the sentence before it, or else its document's title, names it; or
when it is an impersonal sentence of someone else's profile of the company (a document whose title names it:
an analyst's note, a trade profile) that does not open with another name ("Revenue for 2025 was DKK 81
million." is the company's; "Brantvoe, its Berlin rival, raised ..." is not).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bm25s.stopwords import STOPWORDS_EN, STOPWORDS_FRENCH
from cleanco import basename as _cleanco_basename
from rapidfuzz.distance import Levenshtein

from research.retrieval.parsing.text import MONTHS
from research.writing.amounts import price_line
from research.writing.citations import Evidence
from research.writing.places import place_countries
from research.writing.text import field_line, fold, published_by

# Words a company's name often ends with that say what it does, not who it is: "Stellique Data" is "Stellique".
# Hand-written (no library lists them); only trailing words are dropped, and never the name's first word.
GENERIC_WORDS = frozenset(
    """ai analytics app apps cloud company data digital group holding holdings international labs lab networks
    payments people platform platforms software solutions systems technologies technology tech services
    logiciels solutions sante santé transport transports logistique""".split()
)
_HOST = re.compile(r"\b[a-z0-9][a-z0-9-]*(?:\.[a-z0-9][a-z0-9-]*)+\b")
# The phrases that refer back to a company named before: "It", "Its", "Son", "The company", "The Utrecht-based payments
# firm", "La société", "L'entreprise", "La start-up lyonnaise", "Elle".
_REFERS_BACK = re.compile(
    r"^(?:it|its|they|their|son|sa|ses|the\s+(?:[\w-]+\s+){0,3}(?:company|company's|firm|firm's|startup|start-up|scale-up"
    r"|vendor|provider|business|group|platform|team)"
    r"|elle|la\s+soci[ée]t[ée]|l['\u2019]entreprise|la\s+start-?up|la\s+jeune\s+pousse|l['\u2019][ée]diteur"
    r"|le\s+groupe|la\s+scale-?up)\b",
    re.IGNORECASE,
)
# In the company's own document a sentence that does not name it speaks for it, unless it is someone else's words
# (a quotation, "said ..."), about a person ("At Stellique she led ..."), or a title line (no closing stop).
# A legal form in parentheses before the rest of it: South Africa's "(Pty) Ltd", India's "(Pvt.) Ltd", which cleanco
# cuts in the middle ("Ukhozi Fuel Services (Pty").
_PARENTHESISED_FORM = re.compile(r"(?i)\s*\((?:pty|pvt|private|proprietary)\.?\)(?=\s+\w)")


def basename(name: str) -> str:
    """A company's name without its legal form ("Ukhozi Fuel Services (Pty) Ltd" -> "Ukhozi Fuel Services")."""
    return str(_cleanco_basename(_PARENTHESISED_FORM.sub("", name)))


_PERSON_WORDS = "he|she|his|her|him|il|ils"  # a sentence about a person
_SOMEONE_ELSE = re.compile(
    rf"^[\"\u201c\u2018'\u00ab]|\b(?:said|says|according to|a d[ée]clar[ée]|explique|{_PERSON_WORDS})\b",
    re.IGNORECASE,
)
_CLOSED = re.compile(r"[.!\u2026][\"'\u201d\u2019\u00bb)]?\s*$")
_MENTIONS_BACK = re.compile(
    r"\b(?:the company|the firm|the startup|the start-up|the vendor|the provider|them|la soci[ée]t[ée]"
    r"|l['\u2019]entreprise"
    r"|l['\u2019][ée]diteur|la start-?up)\b",
    re.IGNORECASE,
)
# "they" as the subject of what the company has or is, outside a quotation: "big news at the booth, they have a new
# CTO" (not '"What they have asked for next ...," said Leona Brightwell')
_THEY = re.compile(r"(?i)\bthey (?:have|are|were|had|now|just|recently|also|still)\b")
LOOKALIKE_DISTANCE = 2  # at most this many edits from one of the company's names, and not the name: a look-alike
_WORD = re.compile(r"[^\W_]+")
_CAPITALISED_WORD = re.compile(r"\b[A-Z][\w'\u2019&-]*")
_POSSESSIVE = re.compile(r"['\u2019]s?$")


@dataclass(frozen=True)
class Company:
    """A company's names (folded, longest first) and its look-alikes' (folded)."""

    subject: str
    names: tuple[str, ...]
    lookalikes: tuple[str, ...] = ()
    common_words: frozenset[str] = frozenset()  # words the run's documents write in lower case: not names
    products: tuple[str, ...] = ()  # its product names as its documents write them after its name ("Puck"), folded
    rivals: tuple[str, ...] = ()  # names the documents call its rival ("son concurrent malinois Ophaalwijs"), folded

    @classmethod
    def plain(cls, subject: str) -> Company:
        """The names the typed subject gives by itself: as typed, without its legal form, without generic words."""
        return cls(subject.strip(), _longest_first(_typed_names(subject)))

    def _without_lookalikes(self, text: str) -> str:
        folded = f" {fold(text)} "
        for name in self.lookalikes:
            folded = folded.replace(f" {name} ", " | ")
        return folded

    def about_a_product(self, text: str) -> bool:
        """Whether a sentence opens with one of the company's products ("The Puck is a reusable sensor ...",
        "Kuldevagt Puck sends ...", "Pulse is the pricing brain"): what the product is or does."""
        own = {word for name in self.names for word in name.split()}
        first = next((w for w in map(fold, _OPENING.findall(text)[:4]) if w not in _DETERMINERS and w not in own), "")
        return first in self.products

    def named_in(self, text: str) -> bool:
        """Whether ``text`` names the company as whole words, outside its look-alikes' names."""
        folded = self._without_lookalikes(text)
        return any(f" {name} " in folded for name in self.names)

    def lookalike_in(self, text: str) -> bool:
        folded = f" {fold(text)} "
        return any(f" {name} " in folded for name in self.lookalikes)

    def speaks_in(self, evidence: Evidence) -> bool:
        """Whether the document is the company's own: its file name or address opens with one of its names, or
        its publisher (copyright line, site, sender) names it."""
        if any(published_by(name, evidence.source) for name in self.names):
            # not a look-alike's own page: "marejada-consultores-services.html" is Marejada Consultores'
            return not any(published_by(name, evidence.source) for name in self.lookalikes)
        return (
            bool(evidence.publisher) and self.named_in(evidence.publisher) and not self.lookalike_in(evidence.publisher)
        )

    def profiled_in(self, evidence: Evidence) -> bool:
        """Whether the document is someone else's profile of the company: not its own, not our notes, and its
        title names it (and no look-alike)."""
        title = evidence.title
        return (
            not evidence.internal
            and self.named_in(title)
            and not self.lookalike_in(title)
            and not self.speaks_in(evidence)
        )

    def refers_to_another(self, text: str, previous: str) -> bool:
        """Whether a sentence that opens by referring back ("It", "The family-owned company", "L'éditeur anversois")
        follows one about someone else: it opens with another name ("San Juan's Cuyotrack, a rival of Uvalia, has
        raised USD 6 millones. It has 260 employees."; "Rouwkompas, justement, a bouclé ... L'éditeur anversois
        revendique 280 collaborateurs, ..., une certification que Lumignon attend") or names a look-alike."""
        if not refers_back(text):
            return False
        opening = _OPENING.findall(_LABEL.sub("", previous, count=1))[:1]
        if opening and opening[0].casefold() in _PRONOUNS:  # "He runs Germany and Benelux"
            return self.lookalike_in(previous)
        return self.opens_with_another(previous) or self.lookalike_in(previous)

    def opens_with_another(self, text: str) -> bool:
        """Whether the sentence opens with a name other than the company's ("Brantvoe, its Berlin rival, raised
        ...", "Cuyotrack S.A., Uvalia's competitor, founded in 2008, ..."): one of its first three words is a name
        (``_names_in``)."""
        return self._names_in(_OPENING.findall(_LABEL.sub("", text, count=1))[:3])

    def _about_another(self, text: str) -> bool:
        """Whether a sentence is about someone other than the company: it opens with another name ("Tavelnor does
        not expect ..."), gives another name's own ("rival Brantvoe Payments' EUR 55 million Series C"), compares
        the company with another ("ahead of Vintergard"), or names another anywhere but as the object of what the
        company runs on, works with or goes through ("The Console runs on Microsoft Azure", "through connectivity
        partner Strandnet IoT" are the company's facts; "since Glasgow's Vantorra Fleet raised £22 million" is
        not)."""
        if self.opens_with_another(text) or (_RIVAL.search(text) and self._names_in(_OPENING.findall(text))):
            return True
        tokens = _OPENING.findall(text)
        named = [bool(self._names_in(["", token])) for token in tokens]
        for index, token in enumerate(tokens):
            if not named[index] or (index and named[index - 1] and not _POSSESSIVE.search(tokens[index - 1])):
                continue  # not a name, or the rest of the name before it ("Microsoft Azure")
            before = [word.casefold() for word in tokens[:index] if fold(word) not in _COMPASS]  # "in West Europe"
            previous = before[-1] if before else ""
            if previous in _DETERMINERS:
                continue  # "The Console", "the West Europe region": not a name
            if _POSSESSIVE.search(token) or previous in _COMPARED or previous not in _OBJECT_OF:
                return True
        return False

    def rivals_news(self, text: str) -> bool:
        """Whether a sentence is a rival's news that names the company only as whom it competes with: it opens with
        another name and calls it a rival or competitor ("Solvaro Pricing GmbH, the Vienna rival that fights Marejada
        for Italian hotels, closed a EUR 9 million round")."""
        if (_RIVAL.search(text) and self.opens_with_another(text)) or _RIVAL_OPENS.match(text):
            return True
        # a sentence that opens with a name the documents call its rival ("Ophaalwijs, justement, revendique 22
        # intercommunales clientes et 204 collaborateurs")
        first = _OPENING.findall(text)[:1]
        return bool(first) and fold(_POSSESSIVE.sub("", first[0])) in self.rivals

    def names_someone_else(self, tokens: Sequence[str]) -> bool:
        """Whether one of the words (not a sentence's first) is a name other than the company's."""
        return self._names_in(["", *tokens])

    def _names_in(self, tokens: Sequence[str]) -> bool:
        """Whether the words hold a name other than the company's: a capitalised word (the parts of a hyphenated
        one each) that the run's documents never write in lower case (``common_words``: "Revenue", "Sensors"
        open sentences), not after a determiner ("The Console"), not an acronym of a few letters ("EUR",
        "AWS") nor a word with a figure ("FY2026", "Q3"), a compass point, a month, a place or a word of the
        company's names."""
        own = {word for name in self.names for word in name.split()}
        for index, token in enumerate(tokens):
            if index > 0 and tokens[index - 1].casefold() in _DETERMINERS:
                continue
            for word in _POSSESSIVE.sub("", token).split("-"):
                if not word[:1].isupper() or _acronym(word) or _DIGIT.search(word):
                    continue  # "EUR", "AWS"; "FY2026", "Q3", "H1": terms, not names
                folded = fold(word)
                if not folded or word.casefold() in self.common_words or folded in own | _COMPASS | _STOP | _NOT_NAMES:
                    continue
                if not place_countries(word):
                    return True
        return False

    def after_its_name(self, text: str) -> str:
        """The words of ``text`` after the company's last mention in it (all of it when it mentions it nowhere): its
        name, or a phrase that refers back to it ("..., but the company remains loss-making", "They have no ...")."""
        tokens = _OPENING.findall(text)
        folded = [fold(_POSSESSIVE.sub("", token)) for token in tokens]  # "Kuldevagt's" is "Kuldevagt"
        last = -1
        for back in _MENTIONS_BACK.finditer(text):
            last = max(last, len(_OPENING.findall(text[: back.end()])) - 1)
        if opening := _REFERS_BACK.match(text.strip()):  # "They", "The Utrecht-based firm", "La société"
            last = max(last, len(_OPENING.findall(opening.group(0))) - 1)
        for name in self.names:
            size = len(name.split())
            last = max([last, *(i + size - 1 for i in range(len(folded)) if " ".join(folded[i : i + size]) == name)])
        return " ".join(tokens[last + 1 :])

    def from_its_name(self, text: str) -> str:
        """``text`` from the company's first mention in it on, its name included ("" when it names it nowhere, a
        look-alike's name being none): "Bitta counts 240 employees, against Bokobran's EUR 9.4 million" gives
        "Bokobran's EUR 9.4 million"."""
        words = list(_OPENING.finditer(text))
        folded = [fold(_POSSESSIVE.sub("", word.group(0))) for word in words]
        index = 0
        while index < len(words):
            spoken = " ".join(folded[index : index + _NAME_WORDS])
            if other := next((n for n in self.lookalikes if f"{spoken} ".startswith(f"{n} ")), None):
                index += len(other.split())
                continue
            if any(f"{spoken} ".startswith(f"{name} ") for name in self.names):
                return text[words[index].start() :]
            index += 1
        return ""

    def its_run(self, rest: str) -> str:
        """``rest`` (a text from the company's first mention on: ``from_its_name``) up to the next name of someone
        else: its row of a table whose rows run together ("Vetalerta USD 14.6M USD 8.3M Azure ..." gives "Vetalerta
        USD 14.6M USD 8.3M": a brand in a cell ends it too, which only loses cells)."""
        own = {word for name in self.names for word in name.split()}
        for word in list(_OPENING.finditer(rest))[1:]:
            if fold(_POSSESSIVE.sub("", word.group(0))) not in own and self.names_someone_else([word.group(0)]):
                return rest[: word.start()].rstrip()
        return rest

    def _in_profile(self, text: str, evidence: Evidence, previous: str | None) -> bool:
        """Whether the sentence is an impersonal sentence of someone else's profile of the company that names
        nobody else, after no sentence that opens with another name ("Brantvoe raised EUR 55m. The company
        employs 410 people." is Brantvoe's; a heading before it, "Financials and scale", is no sentence)."""
        if not (self.profiled_in(evidence) and own_voice(text)) or self._about_another(text):
            return False
        return not (
            previous and _CLOSED.search(previous) and self.opens_with_another(previous) and not self.named_in(previous)
        )

    def about(self, text: str, evidence: Evidence, previous: str | None = None) -> bool:
        """Whether a sentence of ``evidence`` is about the company (see the module's docstring), as written or
        without its attribution (``unattributed``: "We keep our Challenger rating on the company"); ``previous``
        is the sentence before it in its chunk ("" for the chunk's first; None: not known, the title decides)."""
        stated = unattributed(text)
        return self._about(text, evidence, previous) or (stated != text and self._about(stated, evidence, previous))

    def _about(self, text: str, evidence: Evidence, previous: str | None) -> bool:
        if previous and self.refers_to_another(text, previous):
            return False
        if self.named_in(text) or self.lookalike_in(text):
            return self.named_in(text)
        if self.speaks_in(evidence):
            return own_voice(text)
        profile = self._in_profile(text, evidence, previous)
        if _REFERS_BACK.match(_LABEL.sub("", text, count=1).strip()):  # "CTO: they have a new CTO since ..."
            # not after a sentence that opens with another name: "San Juan's Cuyotrack, a rival of Uvalia, has
            # raised USD 6 millones. It has 260 employees."
            return (self.named_in(previous) or profile) if previous else self.named_in(evidence.title)
        if profile:
            return True  # an analyst's profile of the company: "Revenue for 2025 was DKK 81 million."
        # "..., but the company remains loss-making." in a document about it (its title names it); not what another
        # name that opens the sentence says of itself: "Bluegum says it has 240 staff" is Bluegum's
        mentions = _MENTIONS_BACK.search(text) or (_THEY.search(text) and not _SOMEONE_ELSE.search(text))
        its_own = _SAYS_OF_ITSELF.search(text) and self.opens_with_another(text)
        return bool(mentions) and not its_own and (self.named_in(previous or "") or self.named_in(evidence.title))


# "<Name> says it ...": the pronoun is the name's.
_SAYS_OF_ITSELF = re.compile(
    r"(?i)\b(?:says|said|reports|reported|claims|claimed|states|stated|told \w+|announced|affirme|indique|d[ée]clare)"
    r"\s+(?:that\s+|qu['\u2019]\s?)?(?:it|they|elle|il|ils|elles)\b"
)
# Where an analyst's note says whose estimate a figure is: the figure stays a fact about its subject.
ATTRIBUTION = re.compile(
    r"(?i)\b(?:by|in|on|from|according to|to) our (?:own )?(?:count|counts|estimate|estimates|reckoning|view|tally"
    r"|analysis|figures|numbers|research|calculations?)\b,?|\bwe (?:estimate|count|reckon|believe|calculate)"
    r"(?: that)?\b|\b(?:selon|d['\u2019]apr[eè]s) (?:nos|notre) (?:estimations?|calculs?|comptes?|analyses?)\b,?"
    r"|\bnous estimons(?: qu['\u2019]?(?:e)?)?"
    # an analyst's rating of the company in its own publication: "We rate Kuldevagt a Strong Performer in our 2026
    # European Cold-Chain Monitoring Radar"
    r"|\b(?:we|nous) (?:rate|rank|score|position|classify|classons|notons)\b"
    # "We keep our Challenger rating on the company", "nous maintenons notre recommandation"
    r"|\b(?:we|nous) (?:keep|maintain|reiterate|confirm|maintenons|confirmons)(?: our| notre)?\b"
    r"|\bour (?:modell?ing|analysis|research) (?:suggests|shows|finds)(?: that)?\b"
    # an analyst's verdict under its label: "What we like: FieldRate users rate Ukhozi 4.5 out of 5"
    r"|^\s*(?:what|where) (?:we|I) (?:like|liked|dislike|disliked|don't like|love|question|worry about|watch)\s*:"
    r"|^\s*ce que nous (?:aimons|appr[ée]cions|aimons moins|surveillons)\s*:"
    # "Our rating for Merlintide: Strong Performer (depots)", "notre note pour Safranelle : 4/5"
    r"|\b(?:our|notre) (?:rating|score|verdict|view|note|appr[ée]ciation) (?:for|of|on|pour|de|sur)\b"
    r"|\b(?:in|dans) (?:our|notre) (?:\d{4} )?(?:(?-i:[A-Z\u00c0-\u00de])[\w-]*\s*){1,6}"
)


def unattributed(text: str) -> str:
    """The sentence without the words that say whose estimate or view it is ("By our count the company had ...":
    "the company had ..."; "Nous estimons son revenu à 11 millions": "son revenu à 11 millions")."""
    return " ".join(ATTRIBUTION.sub(" ", text).split())


_OPENING = re.compile(r"[^\W\d_][\w'\u2019-]*")
_NAME_WORDS = 8  # the most words a name is read in
_LABEL = re.compile(r"^\s*[^:.!?]{1,30}\s:\s*|^\s*[^:.!?\s]{1,15}:\s+")  # "Au passage : ", "Notes: "
# The words before another company's name that say a sentence compares the two ("ahead of Vintergard").
_COMPARED = frozenset("than unlike like versus vs behind ahead rival rivals competitor competitors peer".split())
# The words before a name that make it the object of the company's sentence: what it runs on, works with, goes
# through, where ("runs on Microsoft Azure", "connectivity partner Strandnet IoT", "hébergée chez OVHcloud", "in
# West Europe").
_OBJECT_OF = frozenset(
    """on onto with through via partner partners supplier suppliers provider providers sur chez avec partenaire
    partenaires fournisseur in en dans à au aux""".split()
)
# A sentence about the company's rivals or peers names their figures, not the company's.
# A sentence that opens on the company's rival by name: "Its Denver rival Brightbite Systems, which raised ...".
_RIVAL_OPENS = re.compile(
    r"\s*(?i:its|their|son|sa|leur|le|la)\s+(?:[\w-]+\s+){0,2}?(?i:rival|competitor|concurrent|concurrente)"
    # "Its rival, the Leeds-based Foo", "Son principal concurrent, le lillois Gribouille Systèmes"
    r",?\s+(?:(?i:the|le|la|les|l['\u2019])\s*(?:[\w-]+\s+){0,2}?)?(?-i:[A-Z])"
)
_RIVAL = re.compile(r"(?i)\b(?:rivals?|compet\w*|peers?|concurren\w*|compared with|compared to)\b")
_LOWER_WORD = re.compile(r"(?<![\w'\u2019-])[a-z\u00df-\u00ff][\w'\u2019-]*")
_ACRONYM = 4  # letters
_DIGIT = re.compile(r"\d")


def _acronym(word: str) -> bool:
    """A short word of capitals, or of two or more capitals among a few letters ("EUR", "AWS", "IoT", "SaaS",
    "GxP"): a term, not a company's name."""
    return len(word) <= _ACRONYM and (word.isupper() or sum(char.isupper() for char in word) >= 2)


_COMPASS = frozenset("north south east west nord sud est ouest northern southern eastern western".split())
_STOP = frozenset(fold(word) for word in (*STOPWORDS_EN, *STOPWORDS_FRENCH))  # "They", "Depuis": no names
# The bands analysts rate vendors in ("a Strong Performer", "its Challenger rating"), capitalised as names are.
RATING_BANDS = frozenset(
    "leader leaders challenger challengers performer performers visionary visionaries contender contenders"
    " outperformer outperformers niche player players".split()
)
_DETERMINERS = frozenset("the a an its le la les l un une son sa ses".split())
_NOT_NAMES = frozenset(MONTHS) | RATING_BANDS


_ADDRESS = re.compile(r"\S*(?:[@/]|\.[a-z]{2,})\S*")  # "tavelnor.example/pricing", "sales@kuldevagt.example"


def lower_case_words(texts: Iterable[str]) -> frozenset[str]:
    """The words the texts write in lower case (so common words, not names), outside web and mail addresses and
    file names ("crm-export-kronebro-iberia-2026-11 row 3", a CSV row's title, names no common word "kronebro")."""
    words = (word for text in texts for word in _LOWER_WORD.findall(_ADDRESS.sub(" ", _SLUG.sub(" ", text))))
    return frozenset(part for word in words for part in (word, *word.split("-")))  # "cold-chain": "cold" too


_SLUG = re.compile(r"\S*-\S*\d\S*")  # a file name's words joined by hyphens, with a date or a number


_ROSTER_NAME = r"[A-Z\u00c0-\u00de][\w'\u2019.-]*"  # a capitalised word of a person's name
# A line of a leadership list: a person, their role, and maybe since when ("Priscilla Wee, Chief Financial Officer,
# joined in July 2026 from Andaman Feeder Lines", "Karim Ait Lahcen, cofondateur et directeur technique"): a claim
# though it has no closing stop and most of its words are capitalised.
_ROSTER = re.compile(
    rf"^(?!(?i:by|par|from|de|posted|written|photo)\b)(?:{_ROSTER_NAME}\s+){{1,3}}{_ROSTER_NAME},\s+[^,;:|]{{0,40}}?(?i:\b(?:chief|officer|ceo|cto|cfo|coo|cro|cmo|co-?founder|founder"
    r"|president|vice president|vp|director|head of|managing director|chair|fondat(?:eur|rice)|cofondat(?:eur|rice)"
    r"|pr[ée]sident(?:e)?|directeur|directrice|dg|daf|responsable)\b)[^|]*$"
)


def roster_line(text: str) -> bool:
    """Whether ``text`` is a line of a leadership list (``_ROSTER``), not a sentence cut short."""
    return text.rstrip()[-1:] not in "?:" and _ROSTER.match(text.strip()) is not None


def own_voice(text: str) -> bool:
    """Whether a sentence of a company's own document that does not name it still speaks for it: a closed
    sentence, a price line, a line of its leadership list (``roster_line``) or a "Label: value" line
    ("Headquarters: Via del Battiferro 9, Bologna, Italy"), in nobody else's words, about no person
    (``_SOMEONE_ELSE``) unless the company says "us" of it ("Rohit Iyer joined us as Chief Revenue Officer ...,
    where he ran enterprise sales")."""
    said = _CLOSED.search(text) or price_line(text) or field_line(text) or roster_line(text)
    someone = [match.group(0) for match in _SOMEONE_ELSE.finditer(text)]
    ours = all(_PERSON.fullmatch(word) for word in someone) and _US.search(text) is not None
    return bool(said) and (not someone or ours)


_PERSON = re.compile(_PERSON_WORDS, re.IGNORECASE)  # the words of _SOMEONE_ELSE that only name a person
_US = re.compile(r"\b(?:us|our|we|nous|notre|nos)\b", re.IGNORECASE)


def _without_generic(name: str) -> str:
    """A name without the generic words it ends with ("Stellique Data" -> "stellique"), folded."""
    words = fold(name).split()
    while len(words) > 1 and words[-1] in GENERIC_WORDS:
        words.pop()
    return " ".join(words)


def _typed_names(subject: str) -> list[str]:
    typed = subject.strip()
    base = basename(typed).strip(" ,.") or typed
    return [name for name in {fold(typed), fold(base), _without_generic(base)} if name]


def _longest_first(names: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(set(names), key=lambda name: (-len(name), name)))


# A subsidiary named as one: "Stimalba Iberia S.L., the Spanish arm of ...", "its Czech subsidiary Kwadrolog CZ".
_SUBSIDIARY = re.compile(
    r"(?i)(?:[^.;]{0,30}?\b(?:arm|subsidiary|branch|affiliate|filiale|succursale)\b(?: of| de| d['\u2019])"
    r"|\b(?:its|their|our|sa|leur|notre)\s+(?:[\w-]+\s+)?(?:subsidiary|arm|branch|filiale)\s*$"
    # right after the word: "with Australian subsidiary Kaikaro Pty Ltd", "sa filiale française Lucarne France SAS"
    r"|\b(?:subsidiary|subsidiaries|filiale|filiales|succursale)(?:\s+[^\W\d_]+)?[\s,:]*$)"
)


_LEGAL_AFTER_COMMA = re.compile(r"[A-Z][\w.]{0,12}")


def _lookalike_phrases(first: str, base_names: Sequence[str], texts: Sequence[str]) -> set[str]:
    """Other companies whose name opens with the company's first word and carries a legal form of its own
    ("Brightwell Energy Ltd"): their names without the legal form, folded; not the company's subsidiaries, named
    as one anywhere in the texts (``_SUBSIDIARY``)."""
    found: set[str] = set()
    subsidiaries: set[str] = set()
    # "Ukhozi Fuel Services (Pty) Ltd": a legal form in parentheses is part of the name
    # and the legal forms written in lower case: "Sladovít Agro s.r.o.", "sp. z o.o.", "d.o.o."
    word = (
        r"(?:\((?:Pty|Pvt|Private|Proprietary)\.?\)|[A-Z\u00c0-\u00de][\w'\u2019&./-]*|&"  # "A/S", "S.p.A.", "&"
        r"|(?:spol\.\s)?s\.\s?r\.\s?o\.|a\.\s?s\.|sp\.\sz\so\.\s?o\.|d\.\s?o\.\s?o\.|k\.\s?s\.|v\.\s?o\.\s?s\.)"
    )
    # "Louchebel Équipements SAS"; a legal form after a comma: "Anclaruta Agencia Aduanal, S.C."
    pattern = re.compile(rf"\b{re.escape(first)}((?:[ \t]+{word}){{1,5}})(?:,[ \t]+(?={word}))?")
    for text in texts:
        for match in pattern.finditer(text):
            phrase = re.split(r"\.\s", match.group(0))[0].rstrip(".,")  # "Kaikaro Pty Ltd. UK practices": its sentence
            if match.group(0).endswith(" ") and (form := _LEGAL_AFTER_COMMA.match(text, match.end())):
                phrase = f"{match.group(0)}{form.group(0)}".rstrip(".,")
            if _SUBSIDIARY.search(text[max(0, match.start() - 30) : match.start()]) or _SUBSIDIARY.match(
                text, match.end()
            ):
                subsidiaries.add(fold(basename(phrase).strip(" ,.")))
                continue  # the company's own subsidiary, not a look-alike, wherever it is named
            base = basename(phrase).strip(" ,.")
            folded, bare = fold(base), _without_generic(base)
            if base != phrase and folded and not any(name.startswith(f) for name in base_names for f in (folded, bare)):
                found.add(folded)
                # its short forms too: "Marejada Consultores" for "Marejada Hostelería Consultores S.L."
                found |= {
                    short
                    for word in folded.split()[1:]
                    if not any(name.startswith(short := f"{fold(first)} {word}") for name in base_names)
                }
    owned = [own for own in subsidiaries if " " in own]  # "kaikaro pty": "Kaikaro Pty Ltd" is it, written in full
    return {name for name in found if not any(name.startswith(own) or own.startswith(name) for own in owned)}


def _near_words(names: Sequence[str], texts: Sequence[str]) -> set[str]:
    """Capitalised words a letter or two away from one of the company's one-word names ("Tjalkwerk" for
    "Tjalkwerf"), with the capitalised word after them ("Tjalkwerk Pay"), folded; not a place's name."""
    singles = [name for name in names if " " not in name and len(name) >= 5]
    found: set[str] = set()
    for text in texts:
        words = [_POSSESSIVE.sub("", word) for word in _CAPITALISED_WORD.findall(text)]
        for index, word in enumerate(words):
            folded = fold(word)
            if not any(folded != n and Levenshtein.distance(folded, n) <= LOOKALIKE_DISTANCE for n in singles):
                continue
            if place_countries(word):
                continue  # "Paris" beside "Parvis": a city, not a company of a near name (looked up only when near)
            following = words[index + 1] if index + 1 < len(words) else ""
            phrase = f"{word} {following}" if following and f"{word} {following}" in text else word
            found.add(fold(basename(phrase).strip(" ,.")) or folded)
    return found


_PRONOUNS = frozenset("he she we they i you it il elle ils elles nous on je vous".split())


def refers_back(text: str) -> bool:
    """Whether a sentence opens by referring back to a company named before ("It", "They", "The company", "L'éditeur
    anversois")."""
    return bool(_REFERS_BACK.match(_LABEL.sub("", text, count=1).strip()))


def known_as(subject: str, evidence: Iterable[Evidence]) -> Company:
    """The company the member typed, with the names and look-alikes the run's evidence shows (see the module's
    docstring)."""
    plain = Company.plain(subject)
    # a report's facets found many of the same chunks: each text is read once
    texts = list(dict.fromkeys(text for item in evidence for text in (item.title, item.text, item.publisher) if text))
    typed = subject.strip().split()
    first = typed[0].strip(",.") if typed else ""
    lookalikes = _lookalike_phrases(first, plain.names, texts) if first else set()
    names = set(plain.names)
    folded_first = fold(first)
    if folded_first and len(folded_first) >= 3 and folded_first not in names:
        others = [*lookalikes, *plain.names]
        if any(f" {folded_first} " in _blank(f" {fold(text)} ", others) for text in texts):
            names.add(folded_first)
    joined = {name.replace(" ", ""): name for name in names}
    for text in texts:
        for host in _HOST.findall(text.casefold()):
            for label in host.split(".")[:-1]:
                if label.replace("-", "") in joined:
                    names.add(fold(label))
    lookalikes |= _near_words(sorted(names), texts)
    lookalikes -= names
    products = _product_names(names, lookalikes, texts)
    common = lower_case_words(texts)
    rivals = _rival_names(names | lookalikes, common, texts)
    return Company(plain.subject, _longest_first(names), _longest_first(lookalikes), common, products, rivals)


# "its rival Ophaalwijs", "son concurrent malinois Ophaalwijs NV", "competitor Gribouille Systèmes": the name after
_RIVAL_NAMED = re.compile(
    r"(?i:\b(?:rivals?|competitors?|concurrents?|concurrentes?))\s+(?:(?-i:[a-z\u00df-\u00ff][\w-]*)\s+){0,2}?"
    r"((?-i:[A-Z][\w\u00c0-\u00ff-]+))"
)


def _rival_names(own: set[str], common: frozenset[str], texts: Sequence[str]) -> tuple[str, ...]:
    """The first words of the names the texts call the company's rival or competitor, folded: not its own nor a
    look-alike's words, not a word the texts write in lower case, not a place."""
    own_words = {word for name in own for word in name.split()}
    found = {
        fold(match.group(1))
        for text in texts
        for match in _RIVAL_NAMED.finditer(text)
        if match.group(1).casefold() not in common and not place_countries(match.group(1))
    }
    return tuple(sorted(found - own_words - {""}))


def _product_names(names: set[str], lookalikes: set[str], texts: Sequence[str]) -> tuple[str, ...]:
    """The capitalised words the texts write right after one of the company's one-word names ("Kuldevagt Puck",
    "Marejada Pulse", "Leurrebois Appât"), folded: its products. Not a word of its names or its look-alikes', a
    legal form ("Kuldevagt A/S"), a function word, a month, a word with a figure, a word of a headline in capitals or
    one on the next line."""
    singles = [name for name in names if " " not in name]
    if not singles:
        return ()
    taken = {word for name in (*names, *lookalikes) for word in name.split()}
    # on the same line: a record's "Incumbent: Samvida" over "Next step: ..." names no product "Next"
    pattern = re.compile(
        rf"(?i:\b(?:{'|'.join(map(re.escape, singles))}))[ \t]+([A-Z\u00c0-\u00de][\w\u00c0-\u00ff-]+)"
    )
    found: set[str] = set()
    for text in texts:
        for match in pattern.finditer(text):
            word = match.group(1)
            folded = fold(word)
            if folded in taken or folded in _STOP or folded in _NOT_NAMES or _DIGIT.search(word):
                continue
            if len(word) > 3 and word.isupper():  # a headline in capitals: "LUCARNE SETS UP SHOP"
                continue
            if basename(f"x {word}").strip(" ,.") != f"x {word}":  # a legal form: "SAS", "Ltd"
                continue
            found.add(folded)
    return tuple(sorted(found))


def _blank(folded: str, names: Iterable[str]) -> str:
    for name in sorted(names, key=len, reverse=True):
        folded = folded.replace(f" {name} ", " | ")
    return folded


def written_as(name: str, texts: Iterable[str]) -> str:
    """How the texts write a folded name ("tjalkwerf payments b v" -> "Tjalkwerf Payments B.V."), or the name:
    the first way that is not all capitals (a newsletter's masthead "KULDEVANG KØLESERVICE"), else the first."""
    words = name.split()
    found: list[str] = []
    for text in texts:
        tokens = list(_WORD.finditer(text))
        folded = [fold(token.group(0)) for token in tokens]
        for start in range(len(tokens) - len(words) + 1):
            if folded[start : start + len(words)] == words:
                last = tokens[start + len(words) - 1]
                dotted = len(last.group(0)) == 1 and text[last.end() : last.end() + 1] == "."  # "B.V."
                found.append(text[tokens[start].start() : last.end() + dotted])
                if not found[-1].isupper():
                    return found[-1]
    return found[0] if found else name


def names_notes(company: Company, texts: Iterable[str] = ()) -> list[str]:
    """What the report took the company's names and products to be, and which look-alikes it left out, each as
    the typed subject or the ``texts`` write it: one note, or none when the name as typed is all it found."""
    seen = [company.subject, *texts]

    def shown(names: Iterable[str]) -> str:
        return ", ".join(f'"{written_as(name, seen)}"' for name in names)

    if company.names == (fold(company.subject),) and not company.products and not company.lookalikes:
        return []  # nothing beyond the name as typed
    note = f"Read as {company.subject}: {shown(company.names)}"
    note += f"; its products: {shown(company.products)}." if company.products else "."
    if company.lookalikes:
        note += f" Not the same company: {shown(company.lookalikes)}."
    return [note]
