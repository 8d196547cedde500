"""expand_upload: zip members become files to parse; unsafe paths, zip bombs and broken members are refused."""

from __future__ import annotations

import zipfile

import pytest

from research.retrieval.parsing import ArchiveLimits, UploadItem, expand_upload
from tests.research.retrieval import samples


@pytest.fixture(scope="module")
def big_zeros_zip() -> bytes:
    """200 MiB of zeros in about 1 MB: refused from its headers, never decompressed."""
    return samples.zeros_zip("zeros.bin", 200)


def test_it_passes_a_non_zip_upload_through() -> None:
    assert expand_upload("notes.txt", b"hi") == [UploadItem("notes.txt", b"hi", None)]


def test_it_expands_nested_folders_and_skips_directories_and_macos_junk() -> None:
    data = samples.zip_file(
        {
            "docs/": b"",
            "docs/guide/intro.md": b"# Intro",
            "docs\\windows\\style.txt": b"backslashes",
            "top.txt": b"top",
            "__MACOSX/docs/._intro.md": b"\x00\x05\x16\x07",
            "docs/.DS_Store": b"\x00\x00\x00\x01Bud1",
            "docs/._resource": b"\x00",
        }
    )

    items = expand_upload("bundle.zip", data)

    assert items == [
        UploadItem("bundle.zip/docs/guide/intro.md", b"# Intro", None),
        UploadItem("bundle.zip/docs/windows/style.txt", b"backslashes", None),
        UploadItem("bundle.zip/top.txt", b"top", None),
    ]


@pytest.mark.parametrize(
    "member",
    [
        "../evil.txt",
        "docs/../../evil.txt",
        "/etc/passwd",
        "\\windows\\evil.txt",
        "..\\..\\evil.txt",
        "C:/evil.txt",
        "c:evil.txt",
    ],
)
def test_it_refuses_members_with_unsafe_paths_and_extracts_nothing_for_them(member: str) -> None:
    data = samples.zip_file({member: b"PAYLOAD", "fine.txt": b"ok"})

    items = expand_upload("upload.zip", data)

    assert items == [
        UploadItem("upload.zip", None, f"unsafe path in archive: {member!r}"),
        UploadItem("upload.zip/fine.txt", b"ok", None),
    ]


def test_it_refuses_a_zip_bomb_from_its_declared_size(big_zeros_zip: bytes) -> None:
    [item] = expand_upload("bomb.zip", big_zeros_zip + b"")

    assert item.data is None
    assert item.error == "zip bomb suspected: bomb.zip/zeros.bin expands to more than 52,428,800 bytes"


def test_it_refuses_a_member_with_a_suspicious_compression_ratio() -> None:
    data = samples.zeros_zip("dense.bin", 8, level=9)

    [item] = expand_upload("ratio.zip", data)

    assert item.data is None
    assert item.error is not None
    assert item.error.startswith("zip bomb suspected: ratio.zip/dense.bin expands ")
    assert item.error.endswith("times its compressed size (limit 200)")


def test_it_lets_small_highly_compressible_members_through() -> None:
    data = samples.zip_file({"spaces.txt": b" " * 100_000 + b"x"})

    [item] = expand_upload("ok.zip", data)

    assert item.error is None
    assert item.data is not None
    assert len(item.data) == 100_001


def test_it_does_not_trust_a_header_that_understates_the_size() -> None:
    honest = samples.zip_file({"big.txt": b"A" * 4096 + b"tail"}, compression=zipfile.ZIP_STORED)
    lying = samples.with_declared_size(honest, 10)

    [item] = expand_upload("liar.zip", lying)

    assert item.data is None
    assert item.error is not None
    assert item.error.startswith("corrupt file in archive: liar.zip/big.txt (BadZipFile: Bad CRC-32")


def test_it_stops_when_the_whole_archive_expands_past_the_total_limit() -> None:
    members = {f"part{n}.txt": bytes([65 + n]) * 4000 for n in range(5)}
    limits = ArchiveLimits(max_total_bytes=10_000)

    items = expand_upload("parts.zip", samples.zip_file(members), limits)

    assert [item.name for item in items if item.data is not None] == ["parts.zip/part0.txt", "parts.zip/part1.txt"]
    assert items[-1] == UploadItem(
        "parts.zip", None, "zip bomb suspected: the archive expands to more than 10,000 bytes; the rest were skipped"
    )
    assert len(items) == 3


def test_it_stops_after_the_member_limit() -> None:
    data = samples.zip_file({f"f{n}.txt": b"x" for n in range(5)})

    items = expand_upload("many.zip", data, ArchiveLimits(max_members=3))

    assert [item.name for item in items] == ["many.zip/f0.txt", "many.zip/f1.txt", "many.zip/f2.txt", "many.zip"]
    assert items[-1].error == "too many files in archive: more than 3; the rest were skipped"


def test_it_refuses_an_archive_declaring_far_too_many_entries_before_reading_them() -> None:
    data = samples.zip_file({f"f{n}.txt": b"x" for n in range(9)})

    items = expand_upload("flood.zip", data, ArchiveLimits(max_members=4))

    assert items == [UploadItem("flood.zip", None, "too many files in archive: more than 4")]


def test_it_refuses_an_encrypted_member_and_keeps_the_others() -> None:
    data = samples.with_encryption_flag(samples.zip_file({"secret.txt": b"hidden"}))

    [item] = expand_upload("locked.zip", data)

    assert item == UploadItem(
        "locked.zip/secret.txt", None, "encrypted file in archive: locked.zip/secret.txt needs a password"
    )


def test_it_refuses_a_corrupt_member_and_keeps_the_others() -> None:
    data = samples.zip_file({"bad.txt": b"hello corrupt world", "good.txt": b"fine"}, compression=zipfile.ZIP_STORED)
    damaged = data.replace(b"hello corrupt world", b"jello corrupt world")

    items = expand_upload("mixed.zip", damaged)

    assert items[0].data is None
    assert items[0].error == "corrupt file in archive: mixed.zip/bad.txt (BadZipFile: Bad CRC-32 for file 'bad.txt')"
    assert items[1] == UploadItem("mixed.zip/good.txt", b"fine", None)


@pytest.mark.parametrize(
    ("data", "error"),
    [
        (samples.zip_file({"a.txt": b"x"})[:40], "corrupt zip archive (BadZipFile: File is not a zip file)"),
        (b"PK" + bytes(200), "corrupt zip archive (BadZipFile: File is not a zip file)"),
        (samples.png(), "file says .zip but its content is a PNG image"),
        (samples.zip_file({}), "the zip archive holds no files"),
    ],
    ids=["truncated", "garbage", "png", "empty"],
)
def test_it_answers_a_broken_archive_with_a_single_error(data: bytes, error: str) -> None:
    assert expand_upload("broken.zip", data) == [UploadItem("broken.zip", None, error)]


def test_it_refuses_zips_inside_zips_beyond_the_depth_limit() -> None:
    inner = samples.zip_file({"deep.txt": b"deep"})
    data = samples.zip_file({"inner.zip": inner, "top.txt": b"top"})

    shallow = expand_upload("outer.zip", data)
    deeper = expand_upload("outer.zip", data, ArchiveLimits(max_depth=2))

    assert shallow[0] == UploadItem(
        "outer.zip/inner.zip", None, "nested archive refused: zips are expanded 1 level(s) deep"
    )
    assert deeper == [
        UploadItem("outer.zip/inner.zip/deep.txt", b"deep", None),
        UploadItem("outer.zip/top.txt", b"top", None),
    ]
