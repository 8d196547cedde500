"""`manage.py evaluate_reports --json PATH`: competitor reports and ICP checks on the demo corpus, measured
against its gold file (research/demo/corpus/reports_gold.json), printed and written as JSON.

It creates a workspace of its own (an evaluation user as owner), ingests the demo corpus into it in this
process, runs a competitor report per gold competitor and an ICP check per gold prospect (the worker's code
path, in this process; the ICP windows end on the gold file's ``as_of``), then deletes the workspace unless
``--keep``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from research.demo.seed import DEMO_CORPUS_DIR
from research.evaluation.reports import Gold, ReportFigures, add_competitor, add_icp, gold_from
from research.models import Corpus, Membership, RunTemplate
from research.protocol.report import Report
from research.reporting.selectors import report_of
from research.reporting.trial import (
    chunk_texts,
    demo_corpus_ingest,
    in_process_events,
    trial_clean,
    trial_run,
    trial_workspace,
)
from research.reports.writers import WRITERS

GOLD = DEMO_CORPUS_DIR / "reports_gold.json"


class Command(BaseCommand):
    help = "Measure competitor reports and ICP checks on the demo corpus against its gold file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--gold", type=Path, default=GOLD)
        parser.add_argument("--writer", choices=WRITERS.names, help="default: WRITER_BACKEND")
        parser.add_argument("--max-turns", type=int, default=8, help="turns per facet's rollout")
        parser.add_argument("--keep", action="store_true", help="keep the evaluation workspace and its runs")
        parser.add_argument("--json", required=True, type=Path)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            gold = gold_from(json.loads(Path(options["gold"]).read_text(encoding="utf-8")))
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise CommandError(f"{options['gold']}: not a usable gold file ({type(error).__name__}: {error})") from None
        if options["writer"]:
            settings.WRITER_BACKEND = options["writer"]
        with in_process_events():
            owner = trial_workspace("Report evaluation")
            try:
                corpus = self._ingest(owner)
                figures = self._measure(owner, corpus, gold, options["max_turns"])
            finally:
                if not options["keep"]:
                    trial_clean(owner)
        body = {"gold": str(options["gold"]), "writer": settings.WRITER_BACKEND, **figures.figures()}
        options["json"].write_text(json.dumps(body, indent=2) + "\n")
        for key, value in body.items():
            if key not in ("counts", "wrong_company_examples", "missed_facts", "claims_not_in_gold", "wrong_verdicts"):
                self.stdout.write(f"{key:>24}: {value}")
        self.stdout.write(f"{'counts':>24}: {body['counts']}")
        for example in body["wrong_company_examples"]:
            self.stdout.write(f"  wrong company: {example}")
        for example in body["wrong_verdicts"]:
            self.stdout.write(f"  wrong ICP verdict: {example}")
        self.stdout.write(f"missed facts and claims not in the gold file: listed in {options['json']}")

    def _ingest(self, owner: Membership) -> Corpus:
        def progress(done: int, total: int) -> None:
            self.stdout.write(f"\ringesting the demo corpus: {done}/{total} files", ending="")
            self.stdout.flush()

        corpus = demo_corpus_ingest(owner, progress)
        self.stdout.write(f"\ningested: {len(chunk_texts(corpus))} chunks")
        return corpus

    def _report(
        self, owner: Membership, corpus: Corpus, template: str, company: str, **options: Any
    ) -> tuple[Report, float]:
        """Run one report here; the written report and the run's wall time (CommandError when none was written)."""
        run, seconds = trial_run(owner, corpus, template, company=company, **options)
        self.stdout.write(f"{template} {company}: {run.status} in {seconds:.1f} s")
        report = report_of(run)
        if report is None:
            raise CommandError(f"the {template} report on {company} was not written: {run.status_reason}")
        return report, seconds

    def _measure(self, owner: Membership, corpus: Corpus, gold: Gold, max_turns: int) -> ReportFigures:
        texts = chunk_texts(corpus)

        def chunk_text(doc_id: str, chunk_id: str) -> str | None:
            return texts.get((doc_id, chunk_id))

        figures = ReportFigures()
        for company in gold.facts:
            report, seconds = self._report(owner, corpus, RunTemplate.COMPETITOR, company, max_turns=max_turns)
            add_competitor(figures, gold, report, chunk_text, seconds)
        for company in gold.prospects:
            icp = {"criteria": gold.icp, "max_turns": max_turns, "as_of": gold.as_of}
            report, seconds = self._report(owner, corpus, RunTemplate.ICP, company, **icp)
            add_icp(figures, gold, report, chunk_text, seconds)
        return figures
