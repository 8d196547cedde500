"""`manage.py report competitor|prospect|icp --company NAME --workspace SLUG --corpus NAME [...] --json PATH`
(``icp`` also ``--criteria FILE.json``): a report as a stored run, executed here (the worker's code path, in
this process), written as JSON.

The run is created for the workspace's first owner and kept: it shows in the workspace's run history with its
live page, report and exports, as if started from the browser.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from research.corpora.selectors import corpus_find
from research.models import Membership, Role, Run, RunTemplate
from research.reporting.exports import as_dict
from research.reporting.kinds import run_facets
from research.reporting.selectors import report_of
from research.runs import services
from research.runs.execution import run_execute
from research.writing.writers import WRITERS

TEMPLATES = [RunTemplate.COMPETITOR.value, RunTemplate.PROSPECT.value, RunTemplate.ICP.value]


def _owner(slug: str) -> Membership:
    owner = (
        Membership.objects.select_related("workspace", "user")
        .filter(workspace__slug=slug, role=Role.OWNER)
        .order_by("id")
        .first()
    )
    if owner is None:
        raise CommandError(f"no workspace {slug!r}")
    return owner


def _criteria(path: Path) -> list[Any]:
    """The criteria file's list (checked in full by the run's start)."""
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise CommandError(f"no such file: {path}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise CommandError(f"{path}: not JSON ({error})") from None
    if not isinstance(data, list):
        raise CommandError(f'{path}: expected a JSON list of {{"name", "description", "weight"}}')
    return data


def _validation(error: ValidationError) -> str:
    if hasattr(error, "error_dict"):
        return "; ".join(f"{field}: {' '.join(messages)}" for field, messages in error.message_dict.items())
    return " ".join(error.messages)


class Command(BaseCommand):
    help = "Write a report (competitor, prospect, icp) over corpora of a workspace, stored as a run, as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("template", choices=TEMPLATES)
        parser.add_argument("--company", required=True)
        parser.add_argument("--workspace", required=True, help="workspace slug")
        parser.add_argument("--corpus", required=True, action="append", help="corpus name or slug (repeatable)")
        parser.add_argument("--aspect", action="append", default=[], help="an extra aspect to cover (repeatable)")
        parser.add_argument(
            "--criteria",
            type=Path,
            help='icp: a JSON list of {"name", "description", "weight"} (default: the'
            " workspace's ideal customer profile)",
        )
        parser.add_argument("--writer", choices=WRITERS.names, help="default: WRITER_BACKEND")
        parser.add_argument(
            "--web", action="store_true", help="search the web too (needs WEB_SEARCH_PROVIDER); fetched pages are cited"
        )
        parser.add_argument("--budget", type=int, default=32_768, help="token budget per facet's rollout")
        parser.add_argument("--max-turns", type=int, default=16)
        parser.add_argument("--json", required=True, type=Path, help="where to write the report")

    def handle(self, *args: Any, **options: Any) -> None:
        owner = _owner(options["workspace"])
        try:
            corpora = [
                corpus_find(name_or_slug=name, workspace_slug=owner.workspace.slug) for name in options["corpus"]
            ]
        except LookupError as error:
            raise CommandError(str(error)) from None
        criteria = _criteria(options["criteria"]) if options["criteria"] else None
        if options["writer"]:
            settings.WRITER_BACKEND = options["writer"]
        try:
            run = services.run_start(
                actor=owner,
                question="",
                corpora=corpora,
                template=options["template"],
                company=options["company"],
                aspects=options["aspect"],
                criteria=criteria,
                budget=options["budget"],
                max_turns=options["max_turns"],
                web=options["web"],
                enqueue=False,
            )
        except ValidationError as error:
            raise CommandError(_validation(error)) from None
        facets = run_facets(run)
        self.stdout.write(f"run {run.pk}: {run.question}: searching {len(facets)} facets, one rollout each")
        outcome = run_execute(run_id=run.pk)
        run = Run.objects.get(pk=run.pk)
        report = report_of(run)
        if report is None:
            raise CommandError(f"run {run.pk} {outcome}: no report was written ({run.status_reason or 'see its page'})")
        body = {**as_dict(report), "run": run.pk}
        options["json"].write_text(json.dumps(body, indent=2, ensure_ascii=False) + "\n")
        if report.criteria:
            decided = sum(1 for item in report.criteria if item.verdict != "unknown")
            fit = "not known" if report.fit_score is None else f"{report.fit_score:.2f}"
            self.stdout.write(f"{decided} of {len(report.criteria)} criteria decided, fit {fit} -> {options['json']}")
            return
        found = sum(1 for section in report.sections if not section.not_found)
        claims = sum(len(section.claims) for section in report.sections)
        self.stdout.write(
            f"{report.writer} writer: {claims} claims in {found} of {len(report.sections)} sections,"
            f" {len(report.removed)} removed, {len(report.sources)} sources -> {options['json']}"
        )
