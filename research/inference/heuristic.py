"""The offline heuristic backend: a deterministic, honest baseline that needs no model weights.

Turn 1 decomposes the question into sub-queries (the question, its clauses, quoted phrases as regular
expressions, capitalised entities). Later turns measure each seen chunk's relevance as the share of the
question's content terms it contains, prune chunks below a threshold, and issue bridge queries built from
salient entities of the most relevant chunks (the multi-hop step). It completes when a turn adds no new
relevant chunk, after ``max_hops`` follow-up turns (none for a report's facets, which each ask about one named
company), or when the budget passes the soft threshold, with its chunks ranked by search evidence, title links
and relevance (``final_ranking``). Rollouts differ by ``variant``, which rotates the sub-queries and bridge
sources and picks the rollout's judge (``JUDGES``). When the run offers the web tools, an opening sub-query
the corpora answered poorly is searched on the web, and the first results are fetched the next turn (their
chunks then count like any other).
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from research.harness.messages import Message, ModelTurn, ToolCall, ToolSpec
from research.harness.ports import DeltaCallback
from research.harness.tools import TEXT_MAX_CHARS
from research.inference.registry import BackendFactory, InferenceSettings
from research.protocol import wire

STOPWORDS = frozenset(
    "a an and are as at be been by did do does for from had has have how in into is it its of on or that the their "
    "them they this to was were what when where which who whom whose why will with would than then there these those "
    "since about after before between during our we you your i me my he she his her not no yes can could should may "
    "more most much many any each other some such only own same so too very just also over under again once".split()
)
_WORD = re.compile(r"[^\W_][\w'&.-]*[^\W_]|[^\W_]")  # letters of any script, digits; inner ' & . -
_ENTITY = re.compile(r"\b(?:[A-Z][\w&'-]*(?:[ \t]+(?:of|de|von|the|and|&)?[ \t]*[A-Z][\w&'-]*)*|\d{4})\b")
_POSSESSIVE = re.compile(r"['\u2019]s$")
CALENDAR = frozenset(
    "january february march april may june july august september october november december "
    "monday tuesday wednesday thursday friday saturday sunday".split()
)
# A letter's greeting opens a run of capitals that is not part of the name it greets ("Hi Niamh," names Niamh).
SALUTATIONS = frozenset("hi hello hey dear".split())
_QUOTED = re.compile(r"[\"“]([^\"”]{3,80})[\"”]")
BRIDGE_RELEVANCE = 0.5
QUESTION_WEIGHT, SUBQUERY_WEIGHT, BRIDGE_WEIGHT = 2.0, 1.0, 0.5  # which search found a chunk (final_ranking)
RANK_K = 1
# How a rollout judges what it saw: (link weight, link sources, relevance weight); rollout ``variant`` takes row
# ``variant % 4``. A chunk is *linked* when the question or one of the ``link sources`` best-supported chunks of
# another document names its document's title: the next hop of a chain is usually a document about a name the
# previous hop mentions. A chunk's relevance is the share of the question's words it holds. Row 0 (the single
# rollout's judge) was chosen on MuSiQue; the other rows score within 0.01 of it there on their own, and weigh
# link and words differently, like sampled judges whose fused ranking rewards what they agree on.
JUDGES = ((1.0, 1, 1.0), (0.5, 5, 0.5), (1.5, 1, 0.5), (0.5, 3, 1.0))
_ASIDE = re.compile(r"\([^)]*\)")  # "(disambiguation)", "(CEO, hires, ...)"
_PARENTHESIS = re.compile(rf"\s*{_ASIDE.pattern}\s*$")  # a title's trailing aside
MAX_HOPS = 3  # follow-up turns of a multi-hop question before the rollout completes
# A report's facet searches a second page, past what its opening turn saw: the demo company's second pricing page
# never reached the pricing facet's first page (docs/benchmarks.md, the report benchmark's rules table, d5fccff).
SINGLE_SUBJECT_DIGS = 1
BRIDGE_SOURCES, BRIDGE_ENTITIES_PER_SOURCE, BRIDGE_RELATION_WORDS = 4, 3, 4
# Web sources (when the run offers web_search): a sub-query of the opening turn whose best chunk holds less than
# this share of its words found too little in the corpora; the rollout searches the web for one such sub-query a
# turn, at most WEB_SEARCHES in all, and fetches the first WEB_FETCHES results of each search it makes.
WEB_WHEN_BELOW, WEB_SEARCHES, WEB_FETCHES = 0.5, 2, 2
_USAGE = re.compile(r"\[Token usage: ([\d,]+)/([\d,]+)\]")


@lru_cache(maxsize=16_384)  # a rollout re-reads the same chunks' terms every turn
def terms(text: str) -> frozenset[str]:
    """Content terms, lower-cased and cut to five letters (a cheap stemmer)."""
    return frozenset(
        word.lower()[:5] for word in _WORD.findall(text) if word.lower() not in STOPWORDS and len(word) > 1
    )


def accentless(text: str) -> str:
    """Accents dropped, case kept: a name's capitals tell it from a common word ("Brand" is not "brand")."""
    if text.isascii():  # nothing to drop: NFKD leaves ASCII as it is
        return text
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


@lru_cache(maxsize=16_384)
def fold(text: str) -> str:
    """Lower-cased, accents dropped: "Aschenbrödel" and "Aschenbrodel" name the same thing."""
    return accentless(text.lower())


@lru_cache(maxsize=4_096)
def _whole(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")


def names_any(names: Sequence[str], text: str) -> bool:
    """Whether ``text`` holds one of ``names`` (accents aside) as a whole name, capitals and all: the play *Brand*
    is not named by "brands" or "the brand", nor "Ion" by "nation"."""
    plain = accentless(text)
    return any(_whole(accentless(name)).search(plain) for name in names)


def anchor_entities(question: str) -> list[str]:
    """The names the question itself gives (possessive 's dropped), folded: where a chain of hops starts."""
    return list(dict.fromkeys(fold(_POSSESSIVE.sub("", e)) for e in entities(question)))


def bridge_entities(text: str) -> list[str]:
    """Names worth a follow-up search: not dates (a month or a bare year finds everything and nothing), nor runs
    of three or more words in capitals (a banner or a page shouting orders, not a name)."""
    return [
        e
        for e in entities(text)
        if not e.isdigit() and fold(e).split()[0] not in CALENDAR and not (len(e.split()) >= 3 and e.isupper())
    ]


def _bare(word: str) -> str:
    return fold(_POSSESSIVE.sub("", word))


def relation_words(question: str, anchors: Sequence[str], limit: int) -> str:
    """The question's content words that are not part of a name (accents and a possessive 's aside): what is
    asked about the names."""
    named = {_bare(w) for a in anchors for w in _WORD.findall(a)}
    words = [w for w in _WORD.findall(question) if _bare(w) not in STOPWORDS | named and len(w) > 2]
    return " ".join(dict.fromkeys(words[:limit]))


def follow_up_query(entity: str, relation: str) -> str:
    """A follow-up query: the name, then the relation words it does not already hold."""
    inside = {_bare(w) for w in _WORD.findall(entity)}
    return " ".join([entity, *(w for w in relation.split() if _bare(w) not in inside)]).strip()


def fitted(text: str, limit: int = TEXT_MAX_CHARS) -> str:
    """``text`` as a tool accepts it: as it is when short enough, else its content words in order, each once,
    up to ``limit`` characters (a pasted page still searches for what it is about)."""
    if len(text) <= limit:
        return text
    words = dict.fromkeys(w for w in _WORD.findall(text) if w.lower() not in STOPWORDS and len(w) > 2)
    kept: list[str] = []
    for word in words:
        if sum(len(w) + 1 for w in kept) + len(word) > limit:
            break
        kept.append(word)
    return " ".join(kept) or text[:limit]


def key_words(question: str, limit: int) -> str:
    """The question's first content words, as written (for follow-up queries)."""
    words = [w for w in _WORD.findall(question) if w.lower() not in STOPWORDS and len(w) > 2]
    return " ".join(dict.fromkeys(words[:limit]))


def entities(text: str, *, prose: bool = True) -> list[str]:
    """Names: runs of capitalised words and years. In ``prose``, a lone capitalised word that only starts a
    sentence ("Today", "Design") is not taken for a name, nor a greeting that opens one ("Hi Niamh" names Niamh);
    a follow-up query is not prose ("Indiana time state" searches for Indiana)."""
    found = []
    for match in _ENTITY.finditer(text):
        entity = match.group(0).strip()
        opens_sentence = prose and (
            not text[: match.start()].strip() or text[: match.start()].rstrip()[-1] in ".!?:\n#-*"
        )
        first, _, rest = entity.partition(" ")
        greeted = opens_sentence and first.lower() in SALUTATIONS
        if greeted:
            entity = rest.strip()
        if not entity or (opens_sentence and not greeted and " " not in entity and not entity.isdigit()):
            continue
        found.append(entity)
    return [e for e in dict.fromkeys(found) if e.lower() not in STOPWORDS and len(e) > 2]


def title_name(title: str) -> str:
    """A document title as a name to look for in text: folded, a trailing "(disambiguation)" dropped."""
    name = fold(_PARENTHESIS.sub("", title)).strip()
    return name if len(name) > 2 else ""


@dataclass(frozen=True)
class Seen:
    chunk: wire.WireChunk
    relevance: float
    order: int
    evidence: float = 0.0  # see final_ranking
    linked: bool = False  # see JUDGES


def final_ranking(items: Sequence[Seen], *, link_weight: float = 0.0, relevance_weight: float = 0.0) -> list[Seen]:
    """Chunks by score, ties by first sight. A chunk's evidence sums, over every search that returned it,
    the search's weight (the whole question, a sub-query of it, a bridge) over ``RANK_K`` + its place in
    that result: RRF within the rollout with a small k, since results are at most ten long. Concurrent
    searches of one turn are not excluded from each other, so a chunk several of them found adds up. The
    score adds ``link_weight`` if the chunk is linked and ``relevance_weight`` times its relevance."""
    return sorted(
        items, key=lambda s: (-(s.evidence + link_weight * s.linked + relevance_weight * s.relevance), s.order)
    )


def _naming_first(
    ranked: Sequence[tuple[int, str]], names: Sequence[str], chunks: dict[str, wire.WireChunk]
) -> list[tuple[int, str]]:
    """A follow-up search's results re-ranked: those naming what it searched for first, in their order, then the
    rest. A hop's document names the entity it was found for; a larger corpus puts more near misses (a similar
    name, the relation words alone) above it, and they should not push it down."""

    def names_it(chunk_id: str) -> bool:
        chunk = chunks.get(chunk_id)
        text = fold(f"{chunk.title} {chunk.text}") if chunk else ""
        return any(name in text for name in names)

    order = sorted(ranked, key=lambda item: (not names_it(item[1]), item[0]))
    return [(rank, chunk_id) for rank, (_, chunk_id) in enumerate(order, start=1)]


def _first_naming(
    ranked: Sequence[tuple[int, str]], names: Sequence[str], chunks: dict[str, wire.WireChunk]
) -> set[str]:
    """The best-ranked chunk of a follow-up search's result that names (whole, folded) what it searched for: the
    hop's document. (Every result naming it would be too many: a search for "Welsh" or "China" returns ten.)"""
    for _, chunk_id in sorted(ranked) if names else ():
        chunk = chunks.get(chunk_id)
        text = fold(f"{chunk.title} {chunk.text}") if chunk else ""
        if any(_whole(name).search(text) for name in names):
            return {chunk_id}
    return set()


def linked_documents(question: str, items: Sequence[Seen], sources: int) -> set[str]:
    """Documents whose title the question names (the first hop), or a chunk of a first hop's document or one of
    the ``sources`` best-supported chunks of another document does (the next hop: what the first hop's document
    says leads on, however far down the searches ranked it)."""
    asked = fold(question)
    named = {s.chunk.doc_id for s in items if (name := title_name(s.chunk.title)) and _whole(name).search(asked)}
    best = final_ranking(items)[:sources]
    heads = [*best, *(s for s in items if s.chunk.doc_id in named and s not in best)]
    texts = [(s.chunk.doc_id, fold(s.chunk.text)) for s in heads]
    linked = set(named)
    for item in items:
        name = title_name(item.chunk.title)
        if name and any(_whole(name).search(text) for doc, text in texts if doc != item.chunk.doc_id):
            linked.add(item.chunk.doc_id)
    return linked


def factory(settings: InferenceSettings) -> BackendFactory:
    """The registry's entry: rollout ``n`` gets variant ``n`` (its own decomposition and judge). A report's facet
    (``single_subject``) is answered from the opening searches: following the names its results mention (a city,
    a conference venue, an executive) searched other companies' documents and found no more of the facet's facts
    (evaluate_reports: the same fact recall, better precision, 90 searches a report down to 36)."""
    hops, digs = (0, SINGLE_SUBJECT_DIGS) if settings.single_subject else (MAX_HOPS, 0)
    return lambda rollout: HeuristicBackend(variant=rollout, max_hops=hops, digs=digs)


class HeuristicBackend:
    def __init__(
        self,
        *,
        variant: int = 0,
        max_hops: int = MAX_HOPS,
        prune_below: float = 0.1,
        calls_per_turn: int = 4,
        max_ranked: int = 20,
        digs: int = 0,
    ) -> None:
        self.variant, self.max_hops, self.prune_below = variant, max_hops, prune_below
        self.digs = digs  # turns that repeat the opening searches before any hop (``_dig``)
        self.calls_per_turn, self.max_ranked = calls_per_turn, max_ranked
        self.link_weight, self.link_sources, self.relevance_weight = JUDGES[variant % len(JUDGES)]
        self._ids = itertools.count(1)

    @property
    def name(self) -> str:
        return f"heuristic-{self.variant}"

    async def complete(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec], *, on_delta: DeltaCallback | None = None
    ) -> ModelTurn:
        question = next(m.content for m in messages if m.role == "user")
        turns = sum(1 for m in messages if m.role == "assistant")
        if turns == 0:
            return self._turn(self._decompose(question))
        if any(tool.name == "web_search" for tool in tools):
            fetches = self._fetches(messages)
            if fetches:  # the last turn searched the web: read what it found before judging
                return self._turn(fetches)
            return self._follow_up(question, messages, turns, web=self._web_searches(messages))
        return self._follow_up(question, messages, turns)

    def _call(self, name: str, **arguments: object) -> ToolCall:
        return ToolCall(id=f"h{self.variant}_{next(self._ids)}", name=name, arguments=json.dumps(arguments))

    def _turn(self, calls: list[ToolCall]) -> ModelTurn:
        return ModelTurn(tool_calls=tuple(calls), finish_reason="tool_calls")

    def _decompose(self, question: str) -> list[ToolCall]:
        """The opening turn: a search for each of ``_opening_queries``, and a grep for each quoted phrase."""
        calls = [self._call("search_corpus", query=query) for query in self._opening_queries(question)]
        quoted = _QUOTED.findall(question)[:2]
        calls += [self._call("grep_corpus", pattern=re.escape(fitted(p, TEXT_MAX_CHARS // 2))) for p in quoted]
        return calls

    def _opening_queries(self, question: str) -> list[str]:
        """The whole question first (in every rollout), then sub-queries from a pool: its clauses, each
        named entity with what is asked about it, its key words. Rollout ``variant`` takes the pool from a
        different place, so rollouts decompose differently and their fusion rewards agreement."""
        whole = question.strip()
        plain = _ASIDE.sub(" ", question)  # an aside's list of words is not cut into clauses ("hiring (CEO")
        clauses = [
            c.strip()
            for c in re.split(r"[,;?]|\band\b|\bwhich\b|\bwho\b|\bthat\b", plain)
            if len(terms(c)) >= 2 and terms(c) != terms(whole)
        ]
        anchors = entities(question)
        relation = relation_words(question, [fold(a) for a in anchors], BRIDGE_RELATION_WORDS)
        pool = [*clauses, *(follow_up_query(_POSSESSIVE.sub("", e), relation) for e in anchors), key_words(question, 6)]
        rest = [q for q in dict.fromkeys(q.strip() for q in pool) if q and q != whole]
        width = self.calls_per_turn - 1
        shift = (self.variant * width) % max(1, len(rest))
        chosen = [whole, *(rest[shift:] + rest[:shift])[:width]]
        return list(dict.fromkeys(fitted(q) for q in chosen))  # a long clause may shorten to the same words

    def _follow_up(
        self, question: str, messages: Sequence[Message], turns: int, *, web: Sequence[ToolCall] = ()
    ) -> ModelTurn:
        seen = self._seen(question, messages)
        pruned = set(itertools.chain.from_iterable(wire.parse_stubs(m.content) for m in messages if m.role == "tool"))
        live = [s for s in seen if s.chunk.chunk_id not in pruned]
        relevant = [s for s in live if s.relevance >= self.prune_below]
        new_last_turn = self._new_relevant_last_turn(messages, relevant)
        used, limit = self._usage(messages)
        ranked = final_ranking(live, link_weight=self.link_weight, relevance_weight=self.relevance_weight)
        digging = not web and turns <= self.digs and new_last_turn and used < limit // 2
        if digging and (dig := self._dig(question)):
            return self._turn(dig)
        if not web and (
            turns > self.max_hops + (self.digs if not digging else 0) or not new_last_turn or used >= limit // 2
        ):
            return self._complete(ranked)
        calls = [*web, *self._bridges(question, messages, live)]
        # Prune what is neither relevant by its words nor among the best supported: a later hop's document
        # rarely shares the question's words, but the searches that found it rank it well.
        contenders = {s.chunk.chunk_id for s in ranked[: self.max_ranked]}
        to_prune = [
            s.chunk.chunk_id for s in live if s.relevance < self.prune_below and s.chunk.chunk_id not in contenders
        ]
        if to_prune:
            calls.append(self._call("prune_chunks", chunk_ids=to_prune))
        return self._turn(calls) if calls else self._complete(ranked)

    def _dig(self, question: str) -> list[ToolCall]:
        """A second page of the opening searches: the question's subject with every word of its aside ("Halvorix
        price plan pricing cost fee discount minimum"), then with the aside's words the opening queries left out,
        else its key words further on. What the opening turn saw is excluded, so they return what ranked below it
        (the harness refuses a repeated call, so each query differs from the opening ones)."""
        opening = self._opening_queries(question)
        used = frozenset().union(*(terms(query) for query in opening[1:]))  # the whole question holds every cue
        asides = [aside.strip("()") for aside in _ASIDE.findall(question)]
        cues = [cue.strip() for aside in asides for cue in aside.split(",") if cue.strip()]
        subject = " ".join(_POSSESSIVE.sub("", name) for name in entities(_ASIDE.sub(" ", question)))
        fresh = [cue for cue in cues if not terms(cue) <= used]
        queries = [f"{subject} {' '.join(cues)}", f"{subject} {' '.join(fresh)}"] if cues else []
        queries.append(key_words(question, 12))
        chosen = [fitted(q.strip()) for q in queries if q.strip() and terms(q) - terms(subject)]
        return [self._call("search_corpus", query=q) for q in dict.fromkeys(chosen) if q not in opening]

    def _complete(self, ranked: list[Seen]) -> ModelTurn:
        if not ranked:
            return ModelTurn(content="No supporting documents found.")
        return self._turn(
            [self._call("complete", ranked_chunk_ids=[s.chunk.chunk_id for s in ranked[: self.max_ranked]])]
        )

    def _seen(self, question: str, messages: Sequence[Message]) -> list[Seen]:
        """Every chunk seen, with its relevance: the share of the question's terms it contains, or, for a
        chunk that names an entity this rollout followed from an earlier hop (or that is a follow-up search's best
        result naming what it searched for), at least ``BRIDGE_RELEVANCE``."""
        wanted = terms(question)
        followed = self._followed_entities(question, messages)
        first_turn = next((m for m in messages if m.role == "assistant"), None)
        opening = {c.id for c in first_turn.tool_calls} if first_turn else set()
        weights = self._search_weights(question, messages, opening)
        bridged = self._bridge_names(question, messages, opening)
        sought = self._bridge_names(question, messages, opening, prose=False)  # "Indiana time" follows Indiana
        found: set[str] = set()  # each follow-up search's best result that names what it searched for
        unique: dict[str, wire.WireChunk] = {}
        support: dict[str, float] = {}
        for message in messages:
            if message.role == "tool":
                weight = weights.get(message.tool_call_id or "", BRIDGE_WEIGHT)
                shown = wire.parse(message.content)
                repeats = wire.parse_repeats(message.content)
                taken = {rank for rank, _ in repeats}
                free = (rank for rank in itertools.count(1) if rank not in taken)
                for chunk in shown:
                    unique.setdefault(chunk.chunk_id, chunk)
                ranked = [*zip(free, (c.chunk_id for c in shown), strict=False), *repeats]
                names = bridged.get(message.tool_call_id or "")
                if names:
                    ranked = _naming_first(ranked, names, unique)
                found |= _first_naming(ranked, sought.get(message.tool_call_id or "", []), unique)
                for rank, chunk_id in ranked:
                    support[chunk_id] = support.get(chunk_id, 0.0) + weight / (RANK_K + rank - 1)
        seen = []
        for order, chunk in enumerate(unique.values()):
            relevance = len(wanted & terms(chunk.title + " " + chunk.text)) / max(1, len(wanted))
            if chunk.chunk_id in found or any(entity in f"{chunk.title} {chunk.text}" for entity in followed):
                relevance = max(relevance, BRIDGE_RELEVANCE)
            seen.append(Seen(chunk, relevance, order, support[chunk.chunk_id]))
        linked = linked_documents(question, seen, self.link_sources)
        return [dataclasses.replace(s, linked=s.chunk.doc_id in linked) for s in seen]

    def _search_weights(self, question: str, messages: Sequence[Message], opening: set[str]) -> dict[str, float]:
        """What each call's results weigh in a chunk's evidence: the whole question's search, the other opening
        sub-queries, the follow-up searches; and what the web changes (``_web_weights``)."""
        whole = fitted(question.strip())
        weights = {
            c.id: QUESTION_WEIGHT
            if c.id in opening and json.loads(c.arguments).get("query", "").strip() == whole
            else SUBQUERY_WEIGHT
            if c.id in opening
            else BRIDGE_WEIGHT
            for m in messages
            for c in m.tool_calls
        }
        return weights | self._web_weights(question, messages)

    def _bridge_names(
        self, question: str, messages: Sequence[Message], opening: set[str], *, prose: bool = True
    ) -> dict[str, list[str]]:
        """The names each follow-up search was for (call id -> folded names not in the question)."""
        asked = {fold(e) for e in entities(question)}
        names: dict[str, list[str]] = {}
        for message in messages:
            for call in message.tool_calls:
                if call.name == "search_corpus" and call.id not in opening:
                    query = json.loads(call.arguments).get("query", "")
                    names[call.id] = [n for n in (fold(e) for e in entities(query, prose=prose)) if n not in asked]
        return names

    def _web_weights(self, question: str, messages: Sequence[Message]) -> dict[str, float]:
        """What the web changes in a chunk's support, once the rollout went to the web: the opening searches its
        corpora answered poorly support nothing, and the pages fetched from a web search stand in for the search
        it was for, with its weight (the whole question's, or a sub-query's)."""
        whole = fitted(question.strip())
        weights: dict[str, float] = {}
        searched: str | None = None
        for message in messages:
            for call in message.tool_calls:
                query = json.loads(call.arguments).get("query", "")
                if call.name == "web_search":
                    searched = query
                elif call.name == "fetch_url" and searched is not None:
                    weights[call.id] = QUESTION_WEIGHT if searched == whole else SUBQUERY_WEIGHT
        if searched is not None:
            weights.update(dict.fromkeys(self._weak_openings(messages), 0.0))
        return weights

    def _followed_entities(self, question: str, messages: Sequence[Message]) -> set[str]:
        in_question = {e.lower() for e in entities(question)}
        queries = [json.loads(c.arguments).get("query", "") for m in messages for c in m.tool_calls]
        return {e for q in queries[1:] for e in entities(q) if e.lower() not in in_question}

    def _new_relevant_last_turn(self, messages: Sequence[Message], relevant: list[Seen]) -> bool:
        last = list(itertools.takewhile(lambda m: m.role == "tool", reversed(messages)))
        fresh = {c.chunk_id for m in last for c in wire.parse(m.content)}
        return any(s.chunk.chunk_id in fresh for s in relevant)

    def _usage(self, messages: Sequence[Message]) -> tuple[int, int]:
        for message in reversed(messages):
            match = _USAGE.search(message.content)
            if match:
                return int(match.group(1).replace(",", "")), int(match.group(2).replace(",", ""))
        return 0, 1

    def _weak_openings(self, messages: Sequence[Message]) -> dict[str, str]:
        """The opening searches the corpora answered poorly (call id -> query): their best chunk holds less than
        ``WEB_WHEN_BELOW`` of the query's words."""
        first = next((m for m in messages if m.role == "assistant"), None)
        opening = {c.id: json.loads(c.arguments).get("query", "") for c in (first.tool_calls if first else ())}
        weak: dict[str, str] = {}
        for message in messages:
            query = opening.get(message.tool_call_id or "") if message.role == "tool" else None
            if not query:
                continue
            wanted = terms(query)
            chunks = wire.parse(message.content)
            shares = [len(wanted & terms(f"{c.title} {c.text}")) / max(1, len(wanted)) for c in chunks]
            if max(shares, default=0.0) < WEB_WHEN_BELOW:
                weak[message.tool_call_id or ""] = query
        return weak

    def _web_searches(self, messages: Sequence[Message]) -> list[ToolCall]:
        """A web search for an opening sub-query the corpora answered poorly, one a turn and ``WEB_SEARCHES`` in
        all; rollouts start from different ones."""
        searched = [
            json.loads(c.arguments).get("query", "") for m in messages for c in m.tool_calls if c.name == "web_search"
        ]
        if len(searched) >= WEB_SEARCHES:
            return []
        weak = [query for query in dict.fromkeys(self._weak_openings(messages).values()) if query not in searched]
        if not weak:
            return []
        return [self._call("web_search", query=weak[self.variant % len(weak)])]

    def _fetches(self, messages: Sequence[Message]) -> list[ToolCall]:
        """The first ``WEB_FETCHES`` results of the last turn's web searches not fetched yet."""
        last = list(itertools.takewhile(lambda m: m.role == "tool", reversed(messages)))
        fetched = {
            json.loads(c.arguments).get("url", "") for m in messages for c in m.tool_calls if c.name == "fetch_url"
        }
        urls: list[str] = []
        for message in reversed(last):
            found = [r.url for r in wire.parse_results(message.content) if r.url not in fetched]
            urls += found[:WEB_FETCHES]
        return [self._call("fetch_url", url=url) for url in dict.fromkeys(urls)]

    def _bridges(self, question: str, messages: Sequence[Message], live: list[Seen]) -> list[ToolCall]:
        """Follow-up searches for names that the chunks about the question's own entities (or about an entity
        already followed) mention and the question does not: the next hop of a multi-hop question. A chunk is about
        a name when it names it whole, with its capitals (``names_any``: a brewer's "brands" is not the play
        *Brand*). Sources are taken in retrieval order; each rollout starts from a different one, so rollouts
        explore apart."""
        asked = {json.loads(c.arguments).get("query", "").lower() for m in messages for c in m.tool_calls}
        followed = sorted(self._followed_entities(question, messages))
        anchors = anchor_entities(question) + [fold(e) for e in followed]
        known = set(anchors)
        relation = relation_words(question, anchors, BRIDGE_RELATION_WORDS)
        names = [_POSSESSIVE.sub("", e) for e in entities(question)] + followed
        about = [s for s in live if names_any(names, f"{s.chunk.title} {s.chunk.text}")]
        sources = sorted(about or live, key=lambda s: (-s.evidence, s.order))[:BRIDGE_SOURCES]
        shift = self.variant % max(1, len(sources))
        calls: list[ToolCall] = []
        for item in sources[shift:] + sources[:shift]:
            for entity in bridge_entities(item.chunk.text)[:BRIDGE_ENTITIES_PER_SOURCE]:
                query, name = follow_up_query(entity, relation), fold(entity)
                if any(name in k or k in name for k in known) or query.lower() in asked:
                    continue
                if len(calls) >= self.calls_per_turn - 1:
                    return calls
                known.add(name)
                calls.append(self._call("search_corpus", query=fitted(query)))
        return calls
