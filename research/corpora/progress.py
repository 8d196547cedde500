"""Pushing ingestion progress to the workspace's open pages, as HTML fragments that htmx swaps in."""

from __future__ import annotations

import logging

from django.template.loader import render_to_string

from research.models import UploadFile
from research.platform.realtime import publish, workspace_group

logger = logging.getLogger(__name__)


def _send(item: UploadFile, *, new: bool) -> None:
    workspace_id = item.upload.corpus.workspace_id
    html = render_to_string("research/partials/upload_file.html", {"file": item, "oob": "new" if new else "update"})
    try:
        publish(workspace_group(workspace_id), {"type": "html", "html": html})
    except Exception:  # the database row is the truth; a lost push only delays the page
        logger.warning("could not publish progress of upload file %s", item.pk, exc_info=True)


def file_changed(item: UploadFile) -> None:
    logger.info("ingest %s: %s%s", item.name, item.get_stage_display(), f" ({item.error})" if item.error else "")
    _send(item, new=False)


def file_added(item: UploadFile) -> None:
    _send(item, new=True)
