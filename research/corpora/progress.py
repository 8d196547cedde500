"""Pushing ingestion progress to the workspace's open pages: one "Live activity" line per step worth telling.

Every page on the workspace socket (the workspace page and each corpus page) has the ``#notices`` list these lines
go to, so no out-of-band swap ever misses its target. A corpus page re-reads its own uploads, counts and
documents after each line (and polls while a file of it is unfinished), so per-file rows need not be pushed.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from django.template.loader import render_to_string
from django.urls import reverse

from research.corpora.estimate import LARGE_FILE_CHUNKS, embedding_estimate
from research.models import TERMINAL_STAGES, Stage, UploadFile, Workspace
from research.platform.realtime import LiveProgress, publish, workspace_group

logger = logging.getLogger(__name__)

# The stages a line is pushed for: a file starts, knows its embedding cost (when large), or ends. The others
# (parsed, embedded) follow within seconds and reach an open corpus page by its poll.
TOLD_STAGES = (Stage.STORED, Stage.CHUNKED, Stage.SEARCHABLE, Stage.INDEXED, Stage.EXPANDED, Stage.FAILED)
ONGOING_SHOWN = 20  # the unfinished files a page lists when it opens (their corpus pages show every one)


@dataclass
class _Channel(LiveProgress):
    """This process's pushes of ingestion lines (research/platform/realtime.py: said once when they fail)."""

    goes_on: str = "ingestion goes on, and open corpus pages catch up by polling"
    logger: logging.Logger = field(default=logger)


_channel = _Channel()


def _detail(item: UploadFile) -> str:
    if item.stage == Stage.CHUNKED:
        return embedding_estimate(item.chunks_added)
    if item.stage == Stage.SEARCHABLE:
        return f"searchable by words; search by meaning next: {embedding_estimate(item.chunks_added)}"
    if item.stage == Stage.INDEXED:
        added = item.documents_added
        return f"{added} new or changed document{'' if added == 1 else 's'}, {item.documents_unchanged} unchanged"
    return item.error


def notice_of(item: UploadFile) -> dict[str, str]:
    """What ``item``'s line says of its current stage (templates/research/partials/notice.html)."""
    corpus = item.upload.corpus
    return {
        "type": "ingest",
        "corpus": corpus.name,
        "corpus_url": reverse("corpus_detail", kwargs={"slug": corpus.workspace.slug, "corpus_slug": corpus.slug}),
        "file": item.name,
        "stage": item.stage,
        "stage_label": item.get_stage_display(),
        "detail": _detail(item),
    }


def activity_html(item: UploadFile) -> str:
    """The line for ``item``'s current stage, as an out-of-band swap into every workspace page's #notices."""
    return render_to_string("research/partials/notice.html", {"notice": notice_of(item)})


def ongoing(workspace: Workspace, *, limit: int = ONGOING_SHOWN) -> list[dict[str, str]]:
    """The line of each file of ``workspace`` still being ingested, latest change first: what a page shows when it
    opens, before the socket pushes the next line."""
    files = (
        UploadFile.objects.filter(upload__corpus__workspace=workspace)
        .exclude(stage__in=TERMINAL_STAGES)
        .select_related("upload__corpus__workspace")
        .order_by("-updated_at", "-id")
    )
    return [notice_of(item) for item in files[:limit]]


def _publish(workspace_id: int, html: str) -> None:
    # the database row is the truth; a lost push only delays the page
    _channel.push(lambda: publish(workspace_group(workspace_id), {"type": "html", "html": html}))


def _worth_telling(item: UploadFile) -> bool:
    if item.stage == Stage.CHUNKED:  # only a large file's cost is news (it will take a while)
        return item.chunks_added >= LARGE_FILE_CHUNKS
    return item.stage in TOLD_STAGES


def file_changed(item: UploadFile) -> None:
    logger.info("ingest %s: %s%s", item.name, item.get_stage_display(), f" ({item.error})" if item.error else "")
    if _worth_telling(item):
        _publish(item.upload.corpus.workspace_id, activity_html(item))
