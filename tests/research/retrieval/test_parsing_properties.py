"""Property tests: text round-trips, archive paths stay inside, and hostile bytes only ever raise ParseError."""

from __future__ import annotations

import json
import warnings

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from research.retrieval.parsing import ParseError, ParseOptions, ParseOutcome, expand_upload, parse_bytes
from research.retrieval.parsing.detect import KINDS_BY_EXTENSION, describe_content
from tests.research.retrieval import samples

# Text files may hold tabs and line breaks but (past 1% of their characters) no other control characters.
readable_characters = st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\ufeff") | st.sampled_from(
    "\n\t\r"
)
readable_text = st.text(alphabet=readable_characters, min_size=1, max_size=300).filter(
    lambda text: bool(text.strip()) and describe_content(text.encode()) is None
)


@given(text=readable_text)
def test_it_round_trips_any_text_through_the_text_parser(text: str) -> None:
    [document] = parse_bytes("sample.txt", text.encode()).documents

    assert document.text == text


@given(
    records=st.lists(
        st.tuples(st.text(alphabet=readable_characters, max_size=40), readable_text), min_size=1, max_size=8
    )
)
def test_it_round_trips_titles_and_texts_through_json_lines(records: list[tuple[str, str]]) -> None:
    lines = "\n".join(json.dumps({"title": title, "text": text}, ensure_ascii=False) for title, text in records)

    outcome = parse_bytes("records.jsonl", lines.encode())

    assert [document.text for document in outcome.documents] == [text for _, text in records]
    assert [document.doc_key for document in outcome.documents] == [f"item-{n}" for n in range(1, len(records) + 1)]
    assert [d.title for d in outcome.documents] == [
        title.strip() or f"records item {n}" for n, (title, _) in enumerate(records, 1)
    ]


path_parts = st.sampled_from(
    ["a", "b.txt", "..", ".", "", "C:", "c:x", " ", "...", "__MACOSX", "d\\..\\e", "\\", "x.md"]
)
member_names = st.lists(path_parts, min_size=1, max_size=5).map("/".join).filter(bool)


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(names=st.lists(member_names, min_size=1, max_size=6, unique=True))
def test_it_never_yields_a_path_outside_the_archive(names: list[str]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns about names it thinks odd; writing them is the point
        data = samples.zip_file(dict.fromkeys(names, b"content"))

    for item in expand_upload("up.zip", data):
        assert item.name == "up.zip" or item.name.startswith("up.zip/")
        inner = item.name.removeprefix("up.zip").removeprefix("/")
        components = inner.split("/") if inner else []
        assert ".." not in components
        assert "\\" not in inner
        assert not inner.startswith("/")
        assert not (len(inner) > 1 and inner[1] == ":")
        assert (item.data is None) != (item.error is None)


SEEDS = {
    "seed.pdf": samples.pdf(["Hello page one", "page two"], title="T"),
    "seed.docx": samples.docx_file(),
    "seed.eml": samples.eml_with_attachment(),
    "seed.mbox": samples.three_message_mbox(),
    "seed.html": samples.html_page(),
    "seed.csv": samples.csv_file(samples.SALES),
    "seed.json": samples.json_records(),
    "seed.jsonl": samples.jsonl_records(),
    "seed.md": b"# Title\n\nSome *text* here\n",
    "seed.zip": samples.zip_file({"x/a.txt": b"hello", "b.md": b"# hi"}),
}
edits = st.lists(st.tuples(st.floats(0, 1), st.integers(0, 16), st.binary(max_size=8)), min_size=1, max_size=8)


def damaged(data: bytes, changes: list[tuple[float, int, bytes]]) -> bytes:
    """The data with each change applied: at a relative position, drop some bytes and insert others."""
    buffer = bytearray(data)
    for where, drop, insert in changes:
        at = int(where * len(buffer))
        buffer[at : at + drop] = insert
    return bytes(buffer)


def outcome_or_reason(name: str, data: bytes) -> ParseOutcome | str:
    try:
        return parse_bytes(name, data, ParseOptions(csv_mode="table"))
    except ParseError as error:
        return error.reason


def assert_handled(result: ParseOutcome | str) -> None:
    if isinstance(result, str):
        assert result
        assert "\n" not in result
    else:
        assert result.documents
        assert all(isinstance(value, str) for d in result.documents for value in d.metadata.values())


@settings(max_examples=60, deadline=None)
@given(extension=st.sampled_from(sorted(KINDS_BY_EXTENSION)), data=st.binary(min_size=0, max_size=2000))
def test_it_answers_arbitrary_bytes_with_an_outcome_or_a_parse_error(extension: str, data: bytes) -> None:
    assert_handled(outcome_or_reason(f"fuzz{extension}", data))


@settings(max_examples=200, deadline=None)
@given(seed=st.sampled_from(sorted(SEEDS)), changes=edits)
def test_it_answers_damaged_files_with_an_outcome_or_a_parse_error(
    seed: str, changes: list[tuple[float, int, bytes]]
) -> None:
    data = damaged(SEEDS[seed], changes)

    if seed.endswith(".zip"):
        assert all((item.data is None) != (item.error is None) for item in expand_upload(seed, data))
    else:
        assert_handled(outcome_or_reason(seed, data))
