"""`manage.py evaluate_reports [--split dev|test|all] --json PATH`: competitor reports and ICP checks on the report
benchmark's corpora (research/evaluation/benchmark.py: the demo corpus and research/evaluation/report_corpora/),
each measured against its gold file, the figures printed and written as JSON per split and per corpus.

It creates a workspace of its own (an evaluation user as owner), ingests each corpus into it in this process,
runs a competitor report per gold competitor and an ICP check per gold prospect (the worker's code path, in this
process; the ICP windows end on the gold file's ``as_of``), then deletes the workspace unless ``--keep``.

``--writer openai`` measures the language-model writer (any OpenAI-compatible server at WRITER_BASE_URL) the same
way; without WRITER_BASE_URL it is refused before anything is ingested. Each corpus's and split's ``writer`` says
which writers wrote its reports and where the extractive writer stood in for a failed model reply.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.test import override_settings

from research.demo.files import DEMO_CORPUS_DIR, DEMO_QUESTIONS, demo_corpus_files
from research.evaluation.benchmark import BenchmarkCorpus, benchmark_corpora, questions_from_lines, read_gold
from research.evaluation.reports import ReportFigures, add_competitor, add_icp, add_question, merged
from research.models import Corpus, Membership, Run, RunTemplate
from research.protocol.report import Report
from research.reporting.selectors import report_of
from research.runs.trial import (
    chunk_texts,
    corpus_ingest,
    in_process_events,
    trial_clean,
    trial_run,
    trial_workspace,
)
from research.writing.openai_writer import FAILED_TWICE
from research.writing.writers import WRITERS

DETAILS = (
    *("counts", "wrong_company_examples", "missed_facts", "claims_not_in_gold", "wrong_verdicts", "empty_facets"),
    *("icp_wrong_evidence_examples", "icp_other_evidence", "icp_undecided", "partial_answers", "writer"),
)
OPENAI_NEEDS = (
    "--writer openai needs WRITER_BASE_URL: the root URL of an OpenAI-compatible chat server (such as vLLM's, "
    "http://127.0.0.1:8000); WRITER_MODEL (the served model's name), WRITER_API_KEY and WRITER_TIMEOUT are read "
    "too, as that server needs"
)


@dataclasses.dataclass
class WriterUse:
    """Which writers wrote a corpus's reports (each report's ``writer``), and where a model reply failed twice:
    the extractive writer stood in for it, or the ICP judge left the criterion unknown."""

    reports: Counter[str] = dataclasses.field(default_factory=Counter)
    stood_in: list[str] = dataclasses.field(default_factory=list)

    def add(self, report: Report) -> None:
        self.reports[report.writer] += 1
        failed = [note for note in report.notes if FAILED_TWICE in note]
        failed += [f"{item.name}: {item.reason}" for item in report.criteria if FAILED_TWICE in item.reason]
        self.stood_in += [f"{report.template} {report.subject[:80]}: {item[:300]}" for item in failed]

    def figures(self) -> dict[str, Any]:
        return {"reports": dict(sorted(self.reports.items())), "stood_in": self.stood_in}

    @staticmethod
    def merged(parts: list[WriterUse]) -> WriterUse:
        return WriterUse(sum((part.reports for part in parts), Counter()), [i for part in parts for i in part.stood_in])


class Command(BaseCommand):
    help = "Measure competitor reports and ICP checks on the report benchmark's corpora against their gold files."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--split", choices=("dev", "test", "all"), default="all")
        parser.add_argument("--corpus", action="append", default=[], help="only this corpus (repeatable)")
        parser.add_argument("--writer", choices=WRITERS.names, help="default: WRITER_BACKEND")
        parser.add_argument("--max-turns", type=int, default=8, help="turns per facet's rollout")
        parser.add_argument("--keep", action="store_true", help="keep the evaluation workspace and its runs")
        parser.add_argument(
            "--no-questions", action="store_true", help="skip the questions and their paraphrases (reports only)"
        )
        parser.add_argument("--json", required=True, type=Path)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            demo_gold = dataclasses.replace(
                read_gold(DEMO_CORPUS_DIR / "reports_gold.json"),
                questions=questions_from_lines(DEMO_QUESTIONS.read_text(encoding="utf-8")),
            )
            demo = BenchmarkCorpus("demo", demo_gold, tuple(demo_corpus_files()))
            chosen = benchmark_corpora(options["split"], options["corpus"], first=[demo])
        except ValueError as error:
            raise CommandError(str(error)) from None
        if not chosen:
            raise CommandError(f"no benchmark corpus in the {options['split']} split")
        writer = options["writer"] or settings.WRITER_BACKEND
        if writer == "openai" and not settings.WRITER_BASE_URL:
            raise CommandError(OPENAI_NEEDS)
        per_corpus: dict[str, ReportFigures] = {}
        used: dict[str, WriterUse] = {}
        with in_process_events(), override_settings(WRITER_BACKEND=writer):
            owner = trial_workspace("Report evaluation")
            try:
                for item in chosen:
                    used[item.name] = WriterUse()
                    per_corpus[item.name] = self._measure(
                        owner, item, options["max_turns"], not options["no_questions"], used[item.name]
                    )
            finally:
                if not options["keep"]:
                    trial_clean(owner)
        in_split = {split: [c.name for c in chosen if c.split == split] for split in ("dev", "test")}
        splits = {
            split: {
                **merged([per_corpus[name] for name in names]).figures(),
                "writer": WriterUse.merged([used[name] for name in names]).figures(),
            }
            for split, names in in_split.items()
            if names
        }
        body = {
            "split": options["split"],
            "writer": writer,
            "splits": splits,
            "corpora": {
                c.name: {"split": c.split, **per_corpus[c.name].figures(), "writer": used[c.name].figures()}
                for c in chosen
            },
        }
        options["json"].write_text(json.dumps(body, indent=2) + "\n")
        self._print(body, options["json"])

    def _print(self, body: dict[str, Any], target: Path) -> None:
        for name, figures in body["corpora"].items():
            self.stdout.write(
                f"{name:>26} ({figures['split']}): fact_recall {figures['fact_recall']}, claim_precision "
                f"{figures['claim_precision']}, empty {figures['empty_facets_with_evidence']}, ICP accuracy "
                f"{figures['icp_decided_accuracy']} coverage {figures['icp_coverage']}"
            )
            written = ", ".join(f"{name} {count}" for name, count in figures["writer"]["reports"].items())
            self.stdout.write(f"{'':>26} reports written by: {written}")
            for item in figures["writer"]["stood_in"]:
                self.stdout.write(f"{'':>26} another writer stood in: {item}")
        for split, figures in body["splits"].items():
            self.stdout.write(f"== {split}")
            for key, value in figures.items():
                if key not in DETAILS:
                    self.stdout.write(f"{key:>28}: {value}")
            self.stdout.write(f"{'counts':>28}: {figures['counts']}")
        self.stdout.write(f"missed facts, claims not in the gold files and wrong verdicts: listed in {target}")

    def _ingest(self, owner: Membership, item: BenchmarkCorpus) -> Corpus:
        def progress(done: int, total: int) -> None:
            self.stdout.write(f"\ringesting {item.name}: {done}/{total} files", ending="")
            self.stdout.flush()

        corpus = corpus_ingest(owner, f"Benchmark {item.name}", item.files, progress)
        self.stdout.write(f"\ningested {item.name}: {len(chunk_texts(corpus))} chunks")
        return corpus

    def _report(
        self, owner: Membership, corpus: Corpus, template: str, company: str, **options: Any
    ) -> tuple[Report, float]:
        """Run one report here; the written report and the run's wall time (CommandError when none was written)."""
        run, report, seconds = self._written(
            owner, corpus, template, f"the {template} report on {company}", company=company, **options
        )
        self.stdout.write(f"{template} {company}: {run.status} in {seconds:.1f} s")
        return report, seconds

    def _written(
        self, owner: Membership, corpus: Corpus, template: str, what: str, **options: Any
    ) -> tuple[Run, Report, float]:
        """Run one run here: the run, what it wrote and its wall time (CommandError, naming ``what``, when nothing
        was written)."""
        run, seconds = trial_run(owner, corpus, template, **options)
        report = report_of(run)
        if report is None:
            raise CommandError(f"{what} was not written: {run.status_reason}")
        return run, report, seconds

    def _measure(
        self, owner: Membership, item: BenchmarkCorpus, max_turns: int, questions: bool, used: WriterUse
    ) -> ReportFigures:
        corpus = self._ingest(owner, item)
        texts = chunk_texts(corpus)

        def chunk_text(doc_id: str, chunk_id: str) -> str | None:
            return texts.get((doc_id, chunk_id))

        gold = item.gold
        figures = ReportFigures()
        for company in gold.facts:
            report, seconds = self._report(owner, corpus, RunTemplate.COMPETITOR, company, max_turns=max_turns)
            used.add(report)
            add_competitor(figures, gold, report, chunk_text, seconds)
        for company in gold.prospects:
            icp = {"criteria": gold.icp, "max_turns": max_turns, "as_of": gold.as_of}
            report, seconds = self._report(owner, corpus, RunTemplate.ICP, company, **icp)
            used.add(report)
            add_icp(figures, gold, report, chunk_text, seconds)
        for question in gold.questions if questions else ():
            answers = [
                self._answer(owner, corpus, wording, max_turns)
                for wording in (question.question, *question.paraphrases)
            ]
            for answer in answers:
                used.add(answer)
            add_question(figures, question, answers)
        return figures

    def _answer(self, owner: Membership, corpus: Corpus, question: str, max_turns: int) -> Report:
        what = f"the answer to {question!r}"
        return self._written(owner, corpus, RunTemplate.QUESTION, what, question=question, max_turns=max_turns)[1]
