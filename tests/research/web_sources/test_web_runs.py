"""A research run with web sources, end to end in this process (the worker's code path, the heuristic agent):
its corpora lack the answer, so it searches the web (the loopback SearXNG), fetches the first results into the
workspace's web corpus, ranks them, and its answer cites the page by address and fetch date. A page's injected
instructions change nothing; without web sources the run never touches the web."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import ValidationError

from research.models import Corpus, CorpusKind, Document, Run, RunEvent, RunStatus
from research.platform import composition
from research.platform.composition import web_search_provider
from research.reporting.selectors import report_of
from research.runs import services as runs
from research.runs.execution import run_execute
from research.web_sources.port import RunWeb
from research.web_sources.services import web_corpus
from tests.research.runs.conftest import ingest
from tests.research.web_sources.conftest import Owner
from tests.support.processes import REPO
from tests.support.web_site import Site, demo_web

pytestmark = pytest.mark.django_db(transaction=True)
QUESTION = "Where did Halvorix open its first European office?"


def _corpus(owner: Owner) -> Corpus:
    return ingest(owner.membership, "CRM notes", {"globex.txt": b"Globex raised its Team plan to 59 dollars in May."})


def test_a_run_with_web_sources_fetches_what_its_corpora_lack_and_cites_it(owner: Owner, web_settings: Site) -> None:
    run = runs.run_start(actor=owner.membership, question=QUESTION, corpora=[_corpus(owner)], web=True, enqueue=False)
    web = run.corpora.get(kind=CorpusKind.WEB)
    assert run.options["web"] is True
    assert run_execute(run_id=run.pk) == "finished"
    run.refresh_from_db()
    assert run.status == RunStatus.FINISHED
    searches = RunEvent.objects.filter(run=run, type="tool_returned", payload__tool="web_search")
    fetches = RunEvent.objects.filter(run=run, type="tool_returned", payload__tool="fetch_url")
    assert searches.exists()
    assert fetches.exists()
    outcomes = {(e.payload["page"]["url"], e.payload["page"]["outcome"]) for e in fetches}
    assert (web_settings.url("/news/berlin.html"), "fetched") in outcomes
    assert web_settings.fetched("/news/berlin.html") == 1  # four rollouts, one download (then cached)
    berlin = Document.objects.get(corpus=web, source_name="127.0.0.1/news/berlin.html")
    assert run.result[0]["doc_id"] == berlin.doc_id
    report = report_of(run)
    assert report is not None
    cited = [c for claim in report.summary for c in claim.citations if c.doc_id == berlin.doc_id]
    assert cited
    assert cited[0].source.startswith(web_settings.url("/news/berlin.html") + " (fetched 20")
    assert any("Berlin" in claim.text for claim in report.summary)


def test_a_page_cannot_steer_the_agent_and_no_run_without_web_sources_touches_the_web(
    owner: Owner, web_settings: Site
) -> None:
    corpus = _corpus(owner)
    quiet = runs.run_start(actor=owner.membership, question=QUESTION, corpora=[corpus], enqueue=False)
    before = len(web_settings.requests)
    assert run_execute(run_id=quiet.pk) == "finished"
    assert len(web_settings.requests) == before  # no search, no fetch
    assert not RunEvent.objects.filter(run=quiet, payload__tool__in=["web_search", "fetch_url"]).exists()
    noisy = runs.run_start(
        actor=owner.membership,
        question="What does Halvorix's Standard plan cost?",
        corpora=[corpus],
        web=True,
        enqueue=False,
    )
    assert run_execute(run_id=noisy.pk) == "finished"
    asked = [e.payload.get("query", "") for e in RunEvent.objects.filter(run=noisy, type="tool_called")]
    assert not any("169.254" in query or "other-workspace" in query for query in asked)  # the injected orders
    assert Run.objects.get(pk=noisy.pk).corpora.count() == 2  # its corpus and the web corpus, nothing else


def test_web_sources_need_a_provider(owner: Owner, settings) -> None:  # type: ignore[no-untyped-def]
    settings.WEB_SEARCH_PROVIDER = "none"
    with pytest.raises(ValidationError, match="Web sources are not configured"):
        runs.run_start(actor=owner.membership, question=QUESTION, corpora=[_corpus(owner)], web=True, enqueue=False)


def test_the_demo_questions_find_their_answers_on_the_web(owner: Owner, settings) -> None:  # type: ignore[no-untyped-def]
    """The demo corpus's web pages as the web, a corpus of unrelated notes: the README's demo questions are
    answered from fetched pages, cited by address."""
    with demo_web() as site:
        settings.WEB_SEARCH_PROVIDER, settings.SEARXNG_URL = "searxng", site.base
        settings.WEB_FETCH_ALLOWED_HOSTS, settings.WEB_FETCH_INTERVAL = [f"127.0.0.1:{site.port}"], 0.0
        composition.web_reset()
        corpus = _corpus(owner)
        for line in (REPO / "research/demo/corpus/questions.jsonl").read_text().splitlines()[:2]:
            question = json.loads(line)["question"]
            run = runs.run_start(actor=owner.membership, question=question, corpora=[corpus], web=True, enqueue=False)
            assert run_execute(run_id=run.pk) == "finished"
            report = report_of(Run.objects.get(pk=run.pk))
            assert report is not None
            cited = {c.source for claim in report.summary for c in claim.citations}
            assert any(source.startswith(site.url("/halvorix-")) for source in cited), (question, cited)
        composition.web_reset()


def test_fetch_url_takes_only_addresses_the_run_was_given(owner: Owner, web_settings: Site) -> None:
    """A page (or a model it misled) cannot make the run send data to an address of its choosing."""
    question = f"What does {web_settings.url('/pricing-notes.html')} say about Halvorix?"
    port = RunWeb(
        provider=web_search_provider(),  # type: ignore[arg-type]
        corpus=web_corpus(actor=owner.membership),
        user=owner.membership.user,
        question=question,
    )
    before = web_settings.fetched("/news/berlin.html")
    leak = port.fetch(
        web_settings.url("/news/berlin.html?q=secret-corpus-text"), query="q", exclude=frozenset(), budget=2000
    )
    assert leak.page.outcome == "refused"
    assert "web search results" in leak.page.reason
    assert web_settings.fetched("/news/berlin.html") == before  # never asked
    named = port.fetch(web_settings.url("/pricing-notes.html"), query="q", exclude=frozenset(), budget=2000)
    assert named.page.outcome == "fetched"  # the question names it
    port.search("Halvorix Berlin office")
    found = port.fetch(web_settings.url("/news/berlin.html"), query="q", exclude=frozenset(), budget=2000)
    assert found.page.outcome == "fetched"  # a search result
