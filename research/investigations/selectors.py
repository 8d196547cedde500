"""Read-side queries of investigations, always through what the member may read (``access.readable``)."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db.models import Count, Max, Q, QuerySet
from django.http import Http404

from research.edits.selectors import edit_rows, report_edited
from research.models import Chunk, Corpus, Document, Investigation, Membership, Run, RunStatus
from research.protocol.report import Citation
from research.reporting.kinds import kind_of
from research.reporting.selectors import report_of
from research.workspaces.access import can_edit, readable
from research.writing.citations import quote_in
from research.writing.diff import RunDiff, run_diff

SORTS = {"activity": "-last_activity_at", "title": "title", "created": "-created_at"}


@dataclass(frozen=True)
class ListFilter:
    query: str = ""  # words in the title, a tag or the notes
    template: str = ""
    owner: int | None = None  # the author's user id
    archived: bool = False  # the archived ones instead of the active ones
    sort: str = "activity"


def investigation_list(*, membership: Membership, filters: ListFilter = ListFilter()) -> QuerySet[Investigation]:
    found = Investigation.objects.filter(readable(membership)).distinct()
    found = found.filter(archived_at__isnull=not filters.archived)
    for word in filters.query.split():
        # Tags are stored as a JSON list; a containment test on its text works alike on SQLite and PostgreSQL.
        found = found.filter(Q(title__icontains=word) | Q(notes__icontains=word) | Q(tags__icontains=word))
    if filters.template:
        found = found.filter(template=filters.template)
    if filters.owner is not None:
        found = found.filter(created_by_id=filters.owner)
    found = found.annotate(
        run_count=Count("runs", distinct=True),
        last_run_at=Max("runs__created_at"),
        next_scheduled_at=Max("schedule__next_run_at"),  # None: not scheduled, or paused
    )
    return found.select_related("created_by").order_by(SORTS.get(filters.sort, SORTS["activity"]), "-id")


def investigation_owners(*, membership: Membership) -> list[User]:
    """The authors of the investigations the member may read (the owner filter's choices)."""
    ids = Investigation.objects.filter(readable(membership)).values("created_by_id")
    return list(User.objects.filter(pk__in=ids).order_by("username"))


def investigation_get(*, membership: Membership, investigation_id: int) -> Investigation:
    """An investigation the member may read; 404 otherwise (never a hint that it exists)."""
    found = Investigation.objects.filter(readable(membership), pk=investigation_id).distinct().first()
    if found is None:
        raise Http404("No such investigation")
    return found


def investigation_runs(*, investigation: Investigation) -> list[Run]:
    return list(investigation.runs.select_related("created_by").order_by("-created_at", "-id"))


def investigations_to_add_to(*, membership: Membership, run: Run) -> list[Investigation]:
    """Investigations of the run's template that the member may edit and that are not archived."""
    candidates = Investigation.objects.filter(readable(membership), template=run.template, archived_at__isnull=True)
    return [inv for inv in candidates.distinct() if can_edit(membership=membership, investigation=inv)]


def run_ranking(run: Run) -> list[tuple[str, str]]:
    """The run's final documents as ``(doc_id, title)``, in order."""
    items = [item for item in run.result or [] if isinstance(item, dict)]
    return [(str(item.get("doc_id", "")), str(item.get("title") or item.get("doc_id", ""))) for item in items]


@dataclass
class StoredEvidence:
    """What the newer run's corpora hold now (``research.writing.diff.Stored``): a claim the newer report left out
    is no longer supported only when its cited chunk is gone or no longer holds its quote."""

    corpora: list[Corpus]

    def holds(self, citation: Citation) -> bool:
        chunks = Chunk.objects.filter(
            document__corpus__in=self.corpora, document__doc_id=citation.doc_id, chunk_id=citation.chunk_id
        )
        text = chunks.values_list("text", flat=True).first()
        return text is not None and quote_in(citation.quote, text)

    def exists(self, doc_id: str) -> bool:
        return Document.objects.filter(corpus__in=self.corpora, doc_id=doc_id).exists()


def runs_compare(*, older: Run, newer: Run) -> RunDiff:
    """What changed from ``older`` to ``newer`` (their stored reports with the investigation's edits applied, their
    rankings, and what the newer run's corpora hold now)."""
    if older.created_at > newer.created_at:
        older, newer = newer, older
    rows = edit_rows(investigation_id=newer.investigation_id) if newer.investigation_id else []
    return run_diff(
        report_edited(older, report_of(older), rows),
        report_edited(newer, report_of(newer), rows),
        older_ranking=run_ranking(older),
        newer_ranking=run_ranking(newer),
        stored=StoredEvidence(list(newer.corpora.all())),
        by_section=kind_of(newer.template).compared_by_section,
    )


def previous_finished_run(*, run: Run) -> Run | None:
    """The investigation's latest finished run before ``run`` (what a digest compares with)."""
    if run.investigation_id is None:
        return None
    earlier = Run.objects.filter(investigation_id=run.investigation_id, status=RunStatus.FINISHED)
    return earlier.filter(created_at__lt=run.created_at).exclude(pk=run.pk).order_by("-created_at", "-id").first()
