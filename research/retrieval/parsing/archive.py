"""Zip uploads: each regular member becomes its own file to parse; unsafe paths and zip bombs are refused."""

from __future__ import annotations

import io
import re
import struct
import zipfile
from dataclasses import dataclass

from research.retrieval.parsing.common import ZIP_ERRORS, describe_error, file_extension
from research.retrieval.parsing.detect import describe_content


@dataclass(frozen=True)
class ArchiveLimits:
    """What one upload may expand to; max_depth 1 means zips inside the uploaded zip are refused."""

    max_members: int = 2000
    max_member_bytes: int = 50 * 2**20
    max_total_bytes: int = 500 * 2**20
    max_ratio: float = 200.0
    max_depth: int = 1


@dataclass(frozen=True)
class UploadItem:
    """One file to parse (data set) or one refusal (error set)."""

    name: str
    data: bytes | None
    error: str | None


DEFAULT_LIMITS = ArchiveLimits()
RATIO_FLOOR_BYTES = 2**20  # members smaller than this cannot hurt, whatever their compression ratio
_READ_CHUNK = 2**20
_DRIVE = re.compile(r"^[A-Za-z]:")
_JUNK_NAMES = frozenset({".DS_Store", "__MACOSX"})


class _MemberRefused(Exception):
    """This member is refused; the archive's other members are still expanded."""


class _ArchiveStopped(Exception):
    """A whole-upload limit was reached: nothing more is expanded."""


@dataclass
class _Tally:
    """Shared by an archive and the archives nested in it."""

    limits: ArchiveLimits
    members: int = 0
    total_bytes: int = 0
    stopped: bool = False


def expand_upload(name: str, data: bytes, limits: ArchiveLimits = DEFAULT_LIMITS) -> list[UploadItem]:
    """A non-zip upload as itself; a zip as one item per regular member ("x.zip/inner/path.ext") or refusal."""
    if file_extension(name) != ".zip":
        return [UploadItem(name, data, None)]
    items = _expand(name, data, 1, _Tally(limits))
    return items or [UploadItem(name, None, "the zip archive holds no files")]


def safe_member_path(filename: str) -> list[str] | None:
    """The path components of a member name, or None when it could land outside the extraction folder."""
    path = filename.replace("\\", "/")
    if "\x00" in path or path.startswith("/"):
        return None
    parts = [part for part in path.split("/") if part not in {"", "."}]
    if not parts or _DRIVE.match(parts[0]) or any(set(part) <= {".", " "} for part in parts):
        return None
    return parts


def declared_entries(data: bytes) -> int:
    """The entry count a zip's end-of-central-directory record declares (zip64 included); 0 when none is found."""
    at = data.rfind(b"PK\x05\x06", max(0, len(data) - 65_557))
    if at < 0 or at + 22 > len(data):
        return 0
    entries: int = struct.unpack_from("<H", data, at + 10)[0]
    if entries == 0xFFFF and at >= 20 and data[at - 20 : at - 16] == b"PK\x06\x07":
        record_at: int = struct.unpack_from("<Q", data, at - 12)[0]
        if data[record_at : record_at + 4] == b"PK\x06\x06" and record_at + 40 <= len(data):
            entries = struct.unpack_from("<Q", data, record_at + 32)[0]
    return entries


def _expand(name: str, data: bytes, depth: int, tally: _Tally) -> list[UploadItem]:
    if not data.startswith(b"PK"):
        what = describe_content(data) or "not a zip archive"
        return [UploadItem(name, None, f"file says .zip but its content is {what}")]
    if declared_entries(data) > 2 * tally.limits.max_members:
        return [UploadItem(name, None, f"too many files in archive: more than {tally.limits.max_members}")]
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except ZIP_ERRORS as error:
        return [UploadItem(name, None, f"corrupt zip archive ({describe_error(error)})")]
    items: list[UploadItem] = []
    with archive:
        for info in archive.infolist():
            if tally.stopped:
                break
            try:
                items.extend(_member(archive, info, name, depth, tally))
            except _ArchiveStopped as stop:
                tally.stopped = True
                items.append(UploadItem(name, None, str(stop)))
    return items


def _member(
    archive: zipfile.ZipFile, info: zipfile.ZipInfo, archive_name: str, depth: int, tally: _Tally
) -> list[UploadItem]:
    parts = safe_member_path(info.filename)
    if parts is None:
        return [UploadItem(archive_name, None, f"unsafe path in archive: {info.filename!r}")]
    if info.is_dir() or _is_junk(parts):
        return []
    name = "/".join([archive_name, *parts])
    limits = tally.limits
    tally.members += 1
    if tally.members > limits.max_members:
        raise _ArchiveStopped(f"too many files in archive: more than {limits.max_members}; the rest were skipped")
    try:
        data = _read_member(archive, info, name, tally)
    except _MemberRefused as refusal:
        return [UploadItem(name, None, str(refusal))]
    if file_extension(name) != ".zip":
        return [UploadItem(name, data, None)]
    if depth >= limits.max_depth:
        return [UploadItem(name, None, f"nested archive refused: zips are expanded {limits.max_depth} level(s) deep")]
    return _expand(name, data, depth + 1, tally)


def _read_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, name: str, tally: _Tally) -> bytes:
    if info.flag_bits & 0x1:
        raise _MemberRefused(f"encrypted file in archive: {name} needs a password")
    _check_size(name, info.file_size, info, tally)
    chunks: list[bytes] = []
    size = 0
    try:
        with archive.open(info) as stream:
            while chunk := stream.read(_READ_CHUNK):
                size += len(chunk)
                _check_size(name, size, info, tally)  # headers can lie: count what really comes out
                chunks.append(chunk)
    except ZIP_ERRORS as error:
        raise _MemberRefused(f"corrupt file in archive: {name} ({describe_error(error)})") from None
    tally.total_bytes += size
    return b"".join(chunks)


def _check_size(name: str, size: int, info: zipfile.ZipInfo, tally: _Tally) -> None:
    limits = tally.limits
    if size > limits.max_member_bytes:
        raise _MemberRefused(f"zip bomb suspected: {name} expands to more than {limits.max_member_bytes:,} bytes")
    ratio = size / max(info.compress_size, 1)
    if size > RATIO_FLOOR_BYTES and ratio > limits.max_ratio:
        raise _MemberRefused(
            f"zip bomb suspected: {name} expands {ratio:,.0f} times its compressed size (limit {limits.max_ratio:g})"
        )
    if tally.total_bytes + size > limits.max_total_bytes:
        raise _ArchiveStopped(
            f"zip bomb suspected: the archive expands to more than {limits.max_total_bytes:,} bytes;"
            " the rest were skipped"
        )


def _is_junk(parts: list[str]) -> bool:
    """macOS leftovers: resource forks under __MACOSX/, ._ AppleDouble files and .DS_Store."""
    return any(part in _JUNK_NAMES for part in parts) or parts[-1].startswith("._")
