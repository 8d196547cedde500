"""What the English embedder costs on French text: each benchmark fact's passage found by BM25, dense and hybrid
retrieval, in the report benchmark's French dev corpus against its English dev corpora.

Corpora: the report benchmark's dev split only (research/evaluation/report_corpora/*/gold.json with "split":
"dev"; the test split is held out and never read here). Each corpus is parsed as uploaded (``parse_bytes``) and
indexed as the other retrieval benchmarks index (``index_documents``: title on the first line, 512 word pieces a
chunk, the embedder's vectors in Chroma, the BM25 rebuild, which tokenizes in the language it detects).

Queries: each gold fact's ``fact`` sentence, a trailing bracket removed (mostly an attribution naming the source,
"(company site)", "(Saltbush)", which would point BM25 at the source; now and then a detail, "(Dublin)"). The
company name is kept: a user's question names the company, and nearly every document of a corpus names it too, so
it does not point at one document. The fact sentence restates its quote in the corpus's language, often nearly
word for word, which favours BM25 in both languages alike.

Measures, per retriever, of the candidates each returns (50 chunks, as a search takes them before fusion):
``source_hit@k``, the share of facts whose gold source file holds one of the first k chunks, and
``passage_hit@k``, the share whose quote (folded: case, accents, punctuation) is in one of the first k chunks
(facts whose quote straddles two chunks are left out of it; ``passage_facts`` counts those kept). Retrievers:
``bm25`` (the index as rebuilt: French stemming and stop words for a French corpus), ``dense`` (the embedder
alone), ``hybrid`` (both, fused by RRF, as a search ranks them) and ``bm25_english`` (the same chunks tokenized
in English whatever their language: BM25 before French tokenization). French corpora are also queried with
the accents of the query removed (``*_unaccented``), as people often type them.

The named baseline for the French/English ratio is BM25 on the same queries in the same run: dense's ratio
below BM25's is what the English embedder loses on French text beyond what the French corpus costs any
retriever.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chromadb.api import ClientAPI

from research.bench.tables import grid
from research.evaluation.benchmark import REPORT_CORPORA_DIR, BenchmarkCorpus, benchmark_corpora
from research.evaluation.formats import CorpusDoc
from research.evaluation.indexing import discard, document_chunks, index_documents, indexed_text, open_corpus
from research.retrieval.chroma_client import open_client
from research.retrieval.corpus import HybridCorpus, SearchConfig
from research.retrieval.embedders import Embedder
from research.retrieval.parsing.dispatch import parse_bytes
from research.retrieval.sparse import SparseIndex, fold_accents
from research.retrieval.tokens import TokenCounter
from research.retrieval.types import Chunk, doc_id_of
from research.writing.text import fold

Progress = Callable[[str], None]
SPLIT = "dev"  # never the test split
KS = (1, 3, 10)
RETRIEVERS = ("bm25", "dense", "hybrid", "bm25_english")
UNACCENTED = ("bm25_unaccented", "dense_unaccented", "hybrid_unaccented", "bm25_english_unaccented")
NOTHING: frozenset[str] = frozenset()
_ATTRIBUTION = re.compile(r"\s*\([^()]*\)\s*\.?\s*$")
_WORD = re.compile(r"\w+")
_DOC_SEPARATOR = "@"  # a document's id: its file (relative to the corpus folder) @ its place in the file


@dataclass(frozen=True)
class FactQuery:
    query: str
    source: str  # the gold source file, relative to the corpus folder ("documents/...")
    quote: str


def query_of(fact: str) -> str:
    """The fact sentence without a trailing bracket: "X does Y (company site)." -> "X does Y"."""
    return _ATTRIBUTION.sub("", fact).strip() or fact.strip()


def fact_queries(corpus: BenchmarkCorpus) -> list[FactQuery]:
    """One query per gold fact of ``corpus`` (read from its gold.json, which keeps each fact's source and quote)."""
    data = json.loads((REPORT_CORPORA_DIR / corpus.name / "gold.json").read_text(encoding="utf-8"))
    return [FactQuery(query_of(str(f["fact"])), str(f["source"]), str(f["quote"])) for f in data["facts"]]


def corpus_documents(corpus: BenchmarkCorpus) -> list[CorpusDoc]:
    """The corpus's files parsed as the product parses an upload, one document each parsed document."""
    folder = REPORT_CORPORA_DIR / corpus.name
    docs = []
    for path in corpus.files:
        relative = path.relative_to(folder).as_posix()
        for place, parsed in enumerate(parse_bytes(path.name, path.read_bytes()).documents):
            docs.append(CorpusDoc(f"{relative}{_DOC_SEPARATOR}{place}", parsed.title, parsed.text))
    return docs


def source_of(chunk_id: str) -> str:
    return doc_id_of(chunk_id).rpartition(_DOC_SEPARATOR)[0]


def _zeros() -> dict[int, int]:
    return dict.fromkeys(KS, 0)


@dataclass
class Tally:
    """Hits counted over facts, for one retriever on one language."""

    facts: int = 0
    passage_facts: int = 0
    source_hits: dict[int, int] = field(default_factory=_zeros)
    passage_hits: dict[int, int] = field(default_factory=_zeros)

    def add(self, ranked: Sequence[str], fact: FactQuery, passages: frozenset[str]) -> None:
        self.facts += 1
        for k in KS:
            self.source_hits[k] += any(source_of(chunk_id) == fact.source for chunk_id in ranked[:k])
        if passages:
            self.passage_facts += 1
            for k in KS:
                self.passage_hits[k] += any(chunk_id in passages for chunk_id in ranked[:k])

    def merge(self, other: Tally) -> None:
        self.facts += other.facts
        self.passage_facts += other.passage_facts
        for k in KS:
            self.source_hits[k] += other.source_hits[k]
            self.passage_hits[k] += other.passage_hits[k]

    def record(self) -> dict[str, Any]:
        return {
            "facts": self.facts,
            "passage_facts": self.passage_facts,
            **{f"source_hit@{k}": _share(self.source_hits[k], self.facts) for k in KS},
            **{f"passage_hit@{k}": _share(self.passage_hits[k], self.passage_facts) for k in KS},
        }


def _share(hits: int, total: int) -> float | None:
    return round(hits / total, 4) if total else None


def passages_of(chunks: Iterable[Chunk], fact: FactQuery) -> frozenset[str]:
    """The chunks of the fact's source whose text holds its quote (folded)."""
    quote = f" {fold(fact.quote)} "
    return frozenset(
        c.chunk_id for c in chunks if source_of(c.chunk_id) == fact.source and quote in f" {fold(c.text)} "
    )


def rankings(corpus: HybridCorpus, english: SparseIndex, query: str) -> dict[str, list[str]]:
    """The chunk ids each retriever ranks for ``query``, best first (``candidates`` of each)."""
    n = corpus.config.candidates
    return {
        "bm25": [chunk_id for chunk_id, _ in corpus.sparse.query(query, n=n, exclude=NOTHING)],
        "dense": corpus.dense.query(corpus.embedder.embed_query(query), n=n, exclude=NOTHING),
        "hybrid": [item.chunk_id for item in corpus.candidates(query, exclude=NOTHING)],
        "bm25_english": [chunk_id for chunk_id, _ in english.query(query, n=n, exclude=NOTHING)],
    }


@dataclass(frozen=True)
class _Setup:
    embedder: Embedder
    counter: TokenCounter
    workdir: Path
    progress: Progress


def _measure_corpus(
    corpus: BenchmarkCorpus, setup: _Setup, client: ClientAPI
) -> tuple[dict[str, Tally], dict[str, Any]]:
    docs = corpus_documents(corpus)
    chunks = [
        chunk
        for doc in docs
        for chunk in document_chunks(doc.doc_id, indexed_text(doc), title=doc.title, counter=setup.counter)
    ]
    index = open_corpus(
        client, setup.workdir / "bm25", embedder=setup.embedder, counter=setup.counter, label=corpus.name
    )
    english = SparseIndex(setup.workdir / "bm25-english" / corpus.name)
    tallies = {name: Tally() for name in (*RETRIEVERS, *UNACCENTED)}
    try:
        setup.progress(f"[{corpus.name}] indexing {len(docs)} documents with {setup.embedder.name}")
        index_documents(index, docs, counter=setup.counter)
        english.rebuild(((c.chunk_id, c.text) for c in chunks), language="en")
        facts = fact_queries(corpus)
        setup.progress(f"[{corpus.name}] {len(facts)} fact queries")
        for fact in facts:
            passages = passages_of(chunks, fact)
            for name, ranked in rankings(index, english, fact.query).items():
                tallies[name].add(ranked, fact, passages)
            if corpus.gold.language == "fr":
                for name, ranked in rankings(index, english, fold_accents(fact.query)).items():
                    if f"{name}_unaccented" in UNACCENTED:
                        tallies[f"{name}_unaccented"].add(ranked, fact, passages)
        detected = index.sparse.language()
    finally:
        discard(index)
    about = {
        "corpus": corpus.name,
        "language": corpus.gold.language,
        "bm25_language": detected,
        "documents": len(docs),
        "chunks": len(chunks),
        "word_pieces_per_word": _pieces_per_word(docs, setup.counter),
        "facts": len(facts),
        **{name: tally.record() for name, tally in tallies.items() if tally.facts},
    }
    return tallies, about


def _pieces_per_word(docs: Sequence[CorpusDoc], counter: TokenCounter) -> float:
    """The token counter's pieces (MiniLM's English word pieces when installed) per word of the documents' texts."""
    texts = [doc.text for doc in docs]
    words = sum(len(_WORD.findall(text)) for text in texts)
    return round(sum(counter.count_many(texts)) / max(1, words), 3)


def _ratio(french: float | None, english: float | None) -> float | None:
    return round(french / english, 3) if french is not None and english else None


def ratios(by_language: dict[str, dict[str, Any]], measure: str) -> dict[str, float | None]:
    """French over English for each retriever on ``measure``, and dense's ratio over BM25's (the baseline)."""
    french, english = by_language.get("fr", {}), by_language.get("en", {})
    got = {
        name: _ratio(french.get(name, {}).get(measure), english.get(name, {}).get(measure))
        for name in ("bm25", "dense", "hybrid")
    }
    return {**got, "dense_over_bm25": _ratio(got["dense"], got["bm25"])}


def french_benchmark(
    *, workdir: Path, embedder: Embedder, counter: TokenCounter, names: Sequence[str] = (), progress: Progress
) -> dict[str, Any]:
    """Retrieval of each dev corpus's fact passages, per language; see the module's docstring."""
    started = time.perf_counter()
    corpora = benchmark_corpora(SPLIT, names)
    if not corpora:
        raise ValueError("no dev corpus to measure")
    client = open_client(url=None, path=workdir / "chroma")
    totals: dict[str, dict[str, Tally]] = {}
    per_corpus = []
    setup = _Setup(embedder, counter, workdir, progress)
    for corpus in corpora:
        tallies, about = _measure_corpus(corpus, setup, client)
        language = totals.setdefault(corpus.gold.language, {})
        for name, tally in tallies.items():
            if tally.facts:
                language.setdefault(name, Tally()).merge(tally)
        per_corpus.append(about)
    by_language = {
        language: {name: tally.record() for name, tally in tallies.items()} for language, tallies in totals.items()
    }
    return {
        "benchmark": "french",
        "split": SPLIT,
        "embedder": embedder.name,
        "query": "each gold fact's sentence, a trailing bracket (mostly the source's name) removed; company name kept",
        "candidates": SearchConfig().candidates,
        "corpora": per_corpus,
        "by_language": by_language,
        "french_over_english": {
            measure: ratios(by_language, measure)
            for measure in ("source_hit@1", "source_hit@10", *(f"passage_hit@{k}" for k in KS))
        },
        "wall_s": round(time.perf_counter() - started, 1),
    }


def _figure(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def french_table(result: Mapping[str, Any]) -> str:
    """The figures by retriever and language, then the French/English ratios."""
    by_language: Mapping[str, Mapping[str, Any]] = result["by_language"]
    measures = ["source_hit@1", "source_hit@10", *(f"passage_hit@{k}" for k in KS)]
    header = ["retriever", *(f"{language} {m}" for m in measures for language in ("en", "fr"))]
    rows = [
        [
            name,
            *(
                _figure(by_language.get(language, {}).get(name, {}).get(m))
                for m in measures
                for language in ("en", "fr")
            ),
        ]
        for name in (*RETRIEVERS, *UNACCENTED)
        if any(name in by_language.get(language, {}) for language in ("en", "fr"))
    ]
    facts = "\n".join(
        f"{c['corpus']} ({c['language']}, BM25 in {c['bm25_language']}): {c['facts']} facts, {c['chunks']} chunks, "
        f"{c['word_pieces_per_word']} word pieces a word"
        for c in result["corpora"]
    )
    ratio_lines = [
        f"French / English {measure}: " + ", ".join(f"{name} {_figure(value)}" for name, value in ratio.items())
        for measure, ratio in result["french_over_english"].items()
    ]
    return "\n\n".join([f"{result['embedder']}\n{facts}", grid(header, rows), "\n".join(ratio_lines)])
