"""``evaluate_reports --writer openai``: the report benchmark measured with the language-model writer, here against
a loopback OpenAI-compatible server whose replies are scripted (tests/support/openai_server.py). The model's
claims quote the passages it was shown, one lies about its quote (the citation check removes it), one facet's
replies fail twice (the extractive writer stands in, and the figures say so); without a server it is refused."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import override_settings

from research.models import Membership, Report, RunTemplate, Workspace
from research.platform import composition
from research.runs.trial import TRIAL_USER, trial_clean
from tests.support.openai_server import Reply, serve_openai

pytestmark = pytest.mark.django_db(transaction=True)

CORPUS = "agritech-au"
SUBJECT = "Quellbrae"  # the subject's short name (research/evaluation/report_corpora/agritech-au/gold.json)
LIE = "Quellbrae raised AUD 900 million in a Series D round."  # no passage says so
PASSAGE = re.compile(r'<passage id="(P\d+)"[^>]*>(.*?)</passage>', re.DOTALL)


class Script:
    """The model: each claims request is answered with up to two sentences of its passages that name the subject,
    each quoting itself; the funding facet's reply adds ``LIE``; the pricing facet's replies are not JSON. Judge
    requests are answered "unknown"."""

    def __init__(self) -> None:
        self.claims: list[str] = []  # every claim text the model sent, but the lie
        self.lied = self.broke = 0

    def __call__(self, request: dict[str, Any]) -> Reply:
        if request["response_format"]["json_schema"]["name"] == "verdict":
            return Reply(content=json.dumps({"verdict": "unknown", "reason": "not in the passages", "citations": []}))
        question = request["messages"][1]["content"]
        if question.startswith(f"Question: What does {SUBJECT}") and "charge" in question.split("\n")[0]:
            self.broke += 1
            return Reply(content="not json")
        quoted: list[tuple[str, str]] = []  # (passage id, a sentence of it), each claim quoting itself
        for label, text in PASSAGE.findall(question):
            for piece in re.split(r"(?<=[.!?])\s+", html.unescape(text)):
                sentence = " ".join(piece.split())
                if SUBJECT in sentence and 30 <= len(sentence) <= 240 and len(quoted) < 2:
                    quoted.append((label, sentence))
        self.claims += [sentence for _, sentence in quoted]
        if question.startswith("Question: What funding") and quoted:
            self.lied += 1
            quoted.append((quoted[0][0], LIE))  # a passage it was shown, which does not say so
        claims = [{"text": text, "citations": [{"id": label, "quote": text.rstrip(".")}]} for label, text in quoted]
        return Reply(content=json.dumps({"claims": claims}))


@pytest.fixture
def fresh_writer() -> Iterator[None]:
    """The process builds its writer once (research/platform/composition.py): build it from this test's settings."""
    composition._writer.cache_clear()
    yield
    composition._writer.cache_clear()


def test_the_benchmark_measures_the_openai_writer_against_a_scripted_server(tmp_path: Path, fresh_writer: None) -> None:
    script = Script()
    target = tmp_path / "reports.json"
    with (
        serve_openai(script) as server,
        override_settings(WRITER_BASE_URL=server.base_url, WRITER_MODEL="writer", WRITER_TIMEOUT=10.0),
    ):
        try:
            call_command(
                *("evaluate_reports", "--split", "dev", "--corpus", CORPUS, "--no-questions"),
                *("--writer", "openai", "--max-turns", "2", "--keep", "--json", str(target)),
            )
            reports = {report.template: report.body for report in Report.objects.all()}
        finally:
            for owner in Membership.objects.filter(user__username=TRIAL_USER):
                trial_clean(owner)
    assert not Workspace.objects.exists()
    assert server.requests
    assert all(request["model"] == "writer" for request in server.requests)
    assert (script.lied, script.broke) == (1, 2)  # the pricing facet's reply failed, then its retry

    body = json.loads(target.read_text())
    assert body["writer"] == "openai"
    figures = body["corpora"][CORPUS]
    # the report names both writers: the extractive writer stood in for one facet
    assert figures["writer"]["reports"] == {"openai + extractive": 1, "rules + openai": 1}
    (stood_in,) = figures["writer"]["stood_in"]  # the pricing facet, written by the extractive writer instead
    assert stood_in.startswith("competitor Quellbrae AgSystems Pty Ltd: The openai writer failed twice")
    assert body["splits"]["dev"]["writer"] == figures["writer"]

    assert figures["citations_verified"] == 1.0
    assert all(LIE not in item for item in figures["claims_not_in_gold"])  # not counted as a claim either
    assert figures["counts"]["criteria_judged"] == 6
    assert body["splits"]["dev"]["fact_recall"] == figures["fact_recall"]

    competitor = reports[RunTemplate.COMPETITOR]
    assert competitor["writer"] == "openai + extractive"
    shown = [claim["text"] for section in competitor["sections"] for claim in section["claims"]]
    assert any(text in script.claims for text in shown)  # the model's claims were measured
    (removed,) = [item for item in competitor["removed"] if item["text"] == LIE]
    assert "its quote is not in" in removed["reason"]  # the citation check took the lie out
    assert LIE not in shown
    assert 0 < figures["counts"]["claims_shown"] == len(shown)  # the figures count what the report shows


@override_settings(WRITER_BASE_URL=None)
def test_the_openai_writer_without_a_server_is_refused_before_anything_runs(tmp_path: Path) -> None:
    target = tmp_path / "reports.json"
    with pytest.raises(CommandError, match="--writer openai needs WRITER_BASE_URL") as refused:
        call_command("evaluate_reports", "--corpus", CORPUS, "--writer", "openai", "--json", str(target))
    assert "WRITER_MODEL" in str(refused.value)
    assert not target.exists()
    assert not Workspace.objects.exists()
