"""Uploaded archives: each safe member becomes its own upload file; unsafe members fail alone."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from research.corpora import progress, quota, storage, task_names
from research.corpora.lease import LeaseLost, hold, mine
from research.models import Stage, UploadFile
from research.retrieval.parsing import expand_upload

ARCHIVE_SUFFIXES = (".zip",)


def is_archive(name: str) -> bool:
    return name.lower().endswith(ARCHIVE_SUFFIXES)


def expand_into_members(item: UploadFile, data: bytes) -> list[UploadFile]:
    """Store each member as a child of ``item``, queue the good ones, and mark the archive expanded; LeaseLost
    (and no member) when the worker no longer holds the archive (its new holder expands it)."""
    members: list[UploadFile] = []
    hold(item, "before expanding it")
    try:
        _expand(item, data, members)
    except BaseException:  # rolled back (a lost lease, a crash): the members' bytes are not kept either
        for member in members:
            storage.remove(member.stored_path)
        raise
    progress.file_changed(item)  # an open corpus page re-reads its uploads and shows the members
    return members


def _expand(item: UploadFile, data: bytes, members: list[UploadFile]) -> None:
    with transaction.atomic():
        for earlier in UploadFile.objects.filter(parent=item):  # a retried expansion starts over
            storage.remove(earlier.stored_path)
            earlier.delete()
        workspace_id = item.upload.corpus.workspace_id
        quota.lock(workspace_id)
        # the archive's own bytes are deleted once its members are stored: they count instead
        room = quota.storage_limit() - quota.stored_bytes(workspace_id) + item.size
        for entry in expand_upload(item.name, data):
            member = UploadFile(upload=item.upload, parent=item, name=entry.name[:1024])
            members.append(member)
            if entry.error is not None or entry.data is None:
                member.stage, member.error = Stage.FAILED, entry.error or "unreadable member"
            else:
                room -= _store(member, entry.name, entry.data, room, workspace_id)
            member.save()
        done = {"stage": Stage.EXPANDED, "claimed_until": None, "stored_path": ""}
        if mine(item).update(**done, updated_at=timezone.now()) != 1:  # the members stored above are rolled back
            raise LeaseLost(f"ingest of {item.name}: the file's lease was lost while expanding it")
        archive_path, item.stored_path = item.stored_path, ""
        item.stage, item.claimed_until = Stage.EXPANDED, None
        queued = [m.pk for m in members if m.stage == Stage.QUEUED]
        transaction.on_commit(lambda: task_names.ingest_files_enqueue(queued))
        transaction.on_commit(lambda: storage.remove(archive_path))


def _store(member: UploadFile, name: str, data: bytes, room: int, workspace_id: int) -> int:
    """Store a member's bytes within ``room`` (failed with the reason when they are not kept); the bytes kept."""
    kept = quota.store_within(
        corpus_id=member.upload.corpus_id,
        workspace_id=workspace_id,
        name=storage.safe_display_name(name),
        chunks=[data],
        room=room,
    )
    if kept.refused:
        member.stage, member.error = Stage.FAILED, kept.refused
    stored = kept.stored
    member.size, member.sha256, member.stored_path = stored.size, stored.sha256, stored.relative_path
    return kept.size_kept
