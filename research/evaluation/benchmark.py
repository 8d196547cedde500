"""The report benchmark: small fictional corpora, each about one company, with a gold file, split into dev (the
code may be tuned on it) and test (held out: never tuned on). The demo corpus is a dev corpus with its own gold
layout (several competitors and prospects). Each other corpus is a folder of research/evaluation/report_corpora/:
``documents/`` (what is uploaded), ``gold.json`` (research.evaluation.reports.gold_from), ``README.md``.

``gold_problems`` checks a gold file against its documents as the product parses them: each fact's quote is in
its source's parsed text and holds the fact's terms; each ICP verdict's quote is in its source."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from research.evaluation.reports import Gold, Question, gold_from
from research.retrieval.parsing.dispatch import parse_bytes
from research.writing.text import fold

REPORT_CORPORA_DIR = Path(__file__).resolve().parent / "report_corpora"
SPLITS = ("dev", "test")


@dataclass(frozen=True)
class BenchmarkCorpus:
    name: str
    gold: Gold
    files: tuple[Path, ...]

    @property
    def split(self) -> str:
        return self.gold.split


def read_gold(path: Path) -> Gold:
    try:
        return gold_from(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ValueError(f"{path}: not a usable gold file ({type(error).__name__}: {error})") from None


def questions_from_lines(text: str) -> tuple[Question, ...]:
    """The questions of a JSON-lines question bank (the demo's) that name their answer parts."""
    items = [json.loads(line) for line in text.splitlines() if line.strip()]
    return tuple(
        Question(
            str(item["question"]), tuple(map(str, item.get("paraphrases", ()))), tuple(map(str, item["answer_parts"]))
        )
        for item in items
        if item.get("answer_parts")
    )


def corpus_files(folder: Path) -> tuple[Path, ...]:
    return tuple(sorted(p for p in (folder / "documents").rglob("*") if p.is_file() and not p.name.startswith(".")))


def benchmark_corpora(
    split: str = "all", names: Sequence[str] = (), first: Sequence[BenchmarkCorpus] = ()
) -> list[BenchmarkCorpus]:
    """The benchmark's corpora of ``split`` ("dev", "test" or "all"): ``first`` (the demo corpus, which lives with
    the app), then research/evaluation/report_corpora/'s; only ``names`` when given. ValueError for an unreadable
    gold file or an unknown name."""
    found = list(first)
    for gold in sorted(REPORT_CORPORA_DIR.glob("*/gold.json")):
        found.append(BenchmarkCorpus(gold.parent.name, read_gold(gold), corpus_files(gold.parent)))
    unknown = set(names) - {corpus.name for corpus in found}
    if unknown:
        raise ValueError(f"no benchmark corpus named {', '.join(sorted(unknown))}")
    return [c for c in found if split in ("all", c.split) and (not names or c.name in names)]


def _parsed(path: Path) -> str:
    return " ".join(f"{d.title}\n{d.text}" for d in parse_bytes(path.name, path.read_bytes()).documents)


def _quote_problem(folder: Path, texts: dict[str, str], source: Any, quote: Any, what: str) -> str | None:
    path = folder / str(source)
    if not path.is_file():
        return f"{what}: no file {source}"
    if str(source) not in texts:
        texts[str(source)] = f" {fold(_parsed(path))} "
    if f" {fold(str(quote))} " not in texts[str(source)]:
        return f"{what}: its quote is not in {source}: {quote!r}"
    return None


def gold_problems(folder: Path) -> list[str]:
    """What is wrong with a benchmark corpus's gold file, checked against its parsed documents (empty: nothing)."""
    data: Mapping[str, Any] = json.loads((folder / "gold.json").read_text(encoding="utf-8"))
    gold_from(data)
    texts: dict[str, str] = {}
    problems = [problem for fact in data["facts"] for problem in _fact_problems(folder, texts, fact)]
    names = {item["name"] for item in data["icp"]}
    if set(data["icp_gold"]) != names:
        problems.append(f"icp_gold names {sorted(data['icp_gold'])}, the criteria are {sorted(names)}")
    for name, item in data["icp_gold"].items():
        if item.get("quote"):
            problem = _quote_problem(folder, texts, item["source"], item["quote"], f"ICP {name}")
            problems += [problem] if problem else []
    if data.get("split") not in SPLITS:
        problems.append(f"split {data.get('split')!r} is not one of {SPLITS}")
    return problems


def _fact_problems(folder: Path, texts: dict[str, str], fact: Mapping[str, Any]) -> list[str]:
    what = f"fact {fact['fact'][:60]!r}"
    quote = f" {fold(str(fact['quote']))} "
    problems = [f"{what}: term {t!r} is not in its quote" for t in fact["all"] if f" {fold(str(t))} " not in quote]
    problem = _quote_problem(folder, texts, fact["source"], fact["quote"], what)
    return problems + ([problem] if problem else [])
