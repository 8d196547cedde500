"""The demo gold file for reports stays usable: every fact's terms are in its sentence, the sentence names the
company and comes from a corpus file; every ICP criterion is one the offline judge reads; and
``evaluate_reports`` runs end to end on the demo corpus (citations all verified, its workspace removed)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from django.core.management import call_command

from research.demo.files import DEMO_CORPUS_DIR
from research.evaluation.reports import gold_from
from research.models import Workspace
from research.writing.company import COMPETITOR_FACETS
from research.writing.criteria import Criterion, rule_for
from research.writing.names import Company
from research.writing.text import fold

GOLD = json.loads((DEMO_CORPUS_DIR / "reports_gold.json").read_text(encoding="utf-8"))


def test_every_fact_is_a_sentence_of_the_corpus_about_its_company() -> None:
    gold = gold_from(GOLD)
    assert sum(len(facts) for facts in gold.facts.values()) >= 30
    for company in GOLD["competitors"]:
        for fact in company["facts"]:
            source = DEMO_CORPUS_DIR / fact["source"]
            assert source.is_file(), fact["source"]
            assert Company.plain(company["company"]).named_in(fact["sentence"]), fact
            assert all(f" {fold(term)} " in f" {fold(fact['sentence'])} " for term in fact["all"]), fact
            words = fold(fact["sentence"]).split()[:6]
            text = html.unescape(re.sub(r"<[^>]+>", " ", source.read_text(encoding="utf-8", errors="replace")))
            assert " ".join(words) in fold(text), fact


def test_facts_name_report_facets_and_each_company_has_key_facts() -> None:
    facets = {facet.key for facet in COMPETITOR_FACETS}
    for company in GOLD["competitors"]:
        for fact in company["facts"]:
            assert {fact["facet"], *fact.get("also", ())} <= facets, fact
            assert fact["facet"] not in fact.get("also", ()), fact
        assert set(company.get("absent", ())) <= facets
        assert any(fact.get("key") for fact in company["facts"]), company["company"]


def test_every_icp_criterion_is_read_by_the_offline_judge() -> None:
    for item in GOLD["icp"]:
        assert rule_for(Criterion(item["name"], item["description"])) is not None, item
    names = {item["name"] for item in GOLD["icp"]}
    for prospect in GOLD["prospects"]:
        assert set(prospect["icp"]) == names, prospect["company"]


@pytest.mark.django_db(transaction=True)
def test_evaluate_reports_runs_on_the_demo_corpus(tmp_path: Path) -> None:
    target = tmp_path / "reports.json"
    call_command("evaluate_reports", json=target, max_turns=3, corpus=["demo"])
    body = json.loads(target.read_text())
    assert set(body["splits"]) == {"dev"}
    figures = body["corpora"]["demo"]
    assert figures["citations_verified"] == 1.0
    assert figures["counts"]["gold_facts"] == sum(len(c["facts"]) for c in GOLD["competitors"])
    assert figures["counts"]["criteria_judged"] == len(GOLD["icp"]) * len(GOLD["prospects"])
    assert figures["counts"]["key_facts"] == sum(f.get("key", False) for c in GOLD["competitors"] for f in c["facts"])
    assert 0.0 <= figures["fact_recall"] <= figures["fact_recall_any_section"] <= 1.0
    assert figures["icp_decided_accuracy"] is not None
    assert not Workspace.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_evaluate_reports_runs_a_benchmark_corpus_with_its_questions(tmp_path: Path) -> None:
    target = tmp_path / "reports.json"
    call_command("evaluate_reports", json=target, max_turns=3, corpus=["payments-nl"])
    body = json.loads(target.read_text())
    figures = body["corpora"]["payments-nl"]
    assert figures["citations_verified"] == 1.0
    assert figures["counts"]["key_facts"] >= 10
    assert figures["answer_parts_found"] is not None
    assert figures["paraphrase_agreement"] is not None
    assert body["splits"]["dev"]["fact_recall"] == figures["fact_recall"]
    assert not Workspace.objects.exists()
