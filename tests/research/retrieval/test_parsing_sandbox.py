"""parse_in_sandbox: the real child process, its limits (memory, CPU, wall clock) and its failure reasons."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from research.retrieval.parsing import ParseError, ParseOptions, SandboxLimits, parse_bytes, parse_in_sandbox
from research.retrieval.parsing.sandbox import probe_sandbox
from research.retrieval.parsing.sandbox.wire import Probe, request_to_json
from tests.research.retrieval import samples

SMALL = SandboxLimits(timeout_s=2.0, memory_mb=512)
PROJECT_ROOT = Path(__file__).resolve().parents[3]


def test_it_returns_the_same_outcome_as_parsing_in_process() -> None:
    data = samples.eml_with_attachment()

    assert parse_in_sandbox("mail.eml", data, limits=SMALL) == parse_bytes("mail.eml", data)


def test_it_passes_options_and_per_item_errors_through() -> None:
    options = ParseOptions(json_title_field="heading", json_text_field="body", json_metadata_fields=("year",))

    outcome = parse_in_sandbox("records.jsonl", samples.jsonl_records(), options, SMALL)

    assert outcome == parse_bytes("records.jsonl", samples.jsonl_records(), options)
    assert outcome.errors == ["line 2: invalid JSON (Expecting property name enclosed in double quotes)"]


def test_it_raises_the_childs_parse_error_with_its_reason() -> None:
    with pytest.raises(ParseError) as caught:
        parse_in_sandbox("locked.pdf", samples.pdf(["secret"], user_password="pw"), limits=SMALL)

    assert caught.value.reason == "encrypted PDF: a password is needed"


def test_it_caps_the_text_by_the_sandbox_limit_as_well_as_the_options() -> None:
    limits = SandboxLimits(timeout_s=2.0, memory_mb=512, max_output_chars=50)

    with pytest.raises(ParseError, match="longer than the limit of 50 characters"):
        parse_in_sandbox("long.txt", b"y" * 51, limits=limits)


def test_it_kills_a_parse_that_needs_more_memory_than_allowed() -> None:
    limits = SandboxLimits(timeout_s=5.0, memory_mb=256)
    assert parse_in_sandbox("fine.txt", b"fits easily", limits=limits).documents[0].text == "fits easily"

    with pytest.raises(ParseError) as caught:
        probe_sandbox("memory", limits)

    assert caught.value.reason == "parsing needed more than 256 MB of memory"


@pytest.mark.parametrize("probe", ["cpu", "sleep"])
def test_it_kills_a_parse_that_runs_past_the_time_limit(probe: Probe) -> None:
    limits = SandboxLimits(timeout_s=1.0, memory_mb=512)

    with pytest.raises(ParseError) as caught:
        probe_sandbox(probe, limits)

    assert caught.value.reason == "parsing took longer than 1s"


@pytest.mark.parametrize(
    ("probe", "reason"),
    [
        ("segfault", "parser crashed: killed by SIGSEGV"),
        ("exception", "parser crashed: RuntimeError: probe: an unexpected exception in the parser"),
    ],
)
def test_it_reports_a_crashed_parser(probe: Probe, reason: str) -> None:
    with pytest.raises(ParseError) as caught:
        probe_sandbox(probe, SMALL)

    assert caught.value.reason == reason


def test_it_runs_a_child_that_imports_no_django() -> None:
    request = request_to_json("mail.eml", ParseOptions(), None)

    child = subprocess.run(
        [
            sys.executable,
            "-X",
            "importtime",
            "-m",
            "research.retrieval.parsing.sandbox",
            request,
            "2147483648,30,10000000",
        ],
        input=samples.eml_with_attachment(),
        capture_output=True,
        cwd=PROJECT_ROOT,
        timeout=30,
        check=True,
    )

    imported = [line.rsplit("|", 1)[-1].strip() for line in child.stderr.decode().splitlines() if "|" in line]
    assert "email.message" in imported
    assert not [name for name in imported if name.split(".")[0] in {"django", "celery", "channels"}]
    assert json.loads(child.stdout)["outcome"]["documents"][0]["title"] == "Quarterly numbers"
