"""Uploaded archives: each safe member becomes its own upload file; unsafe members fail alone."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from research.corpora import progress, storage, task_names
from research.corpora.lease import LeaseLost, hold, mine
from research.models import Stage, UploadFile
from research.retrieval.parsing import expand_upload

ARCHIVE_SUFFIXES = (".zip",)


def is_archive(name: str) -> bool:
    return name.lower().endswith(ARCHIVE_SUFFIXES)


def expand_into_members(item: UploadFile, data: bytes) -> list[UploadFile]:
    """Store each member as a child of ``item``, queue the good ones, and mark the archive expanded; LeaseLost
    (and no member) when the worker no longer holds the archive (its new holder expands it)."""
    corpus_id = item.upload.corpus_id
    members: list[UploadFile] = []
    hold(item, "before expanding it")
    with transaction.atomic():
        UploadFile.objects.filter(parent=item).delete()  # a retried expansion starts over
        for entry in expand_upload(item.name, data):
            member = UploadFile(upload=item.upload, parent=item, name=entry.name[:1024])
            if entry.error is not None or entry.data is None:
                member.stage, member.error = Stage.FAILED, entry.error or "unreadable member"
            else:
                stored = storage.store(
                    corpus_id=corpus_id, name=storage.safe_display_name(entry.name), chunks=[entry.data]
                )
                if stored.too_large:
                    member.stage, member.error = Stage.FAILED, "over the size limit"
                member.size, member.sha256, member.stored_path = stored.size, stored.sha256, stored.relative_path
            member.save()
            members.append(member)
        if mine(item).update(stage=Stage.EXPANDED, claimed_until=None, updated_at=timezone.now()) != 1:
            # the members stored above are rolled back
            raise LeaseLost(f"ingest of {item.name}: the file's lease was lost while expanding it")
        item.stage, item.claimed_until = Stage.EXPANDED, None
        queued = [m.pk for m in members if m.stage == Stage.QUEUED]
        transaction.on_commit(lambda: task_names.ingest_files_enqueue(queued))
    progress.file_changed(item)  # an open corpus page re-reads its uploads and shows the members
    return members
