"""Run pages: the form with its estimate, history, the live page rendered from storage, graph, cancel, documents;
members only (404 otherwise), viewers read, editors start and cancel."""

from __future__ import annotations

from datetime import timedelta

import lxml.html
import pytest
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from research.models import Chunk, Corpus, Document, Membership, Run, RunEvent, RunStatus
from research.protocol.events import from_dict
from research.runs import journal
from research.runs import services as runs
from tests.research.runs.live.test_fragments import QUESTION, apply_oob, html_renderer, messages, normalised, stored

pytestmark = pytest.mark.django_db


def _run(workspace, corpus, ada, **fields):  # type: ignore[no-untyped-def]
    run = runs.run_start(
        actor=Membership.objects.get(user=ada, workspace=workspace), question=QUESTION, corpora=[corpus], rollouts=2
    )
    if fields:
        Run.objects.filter(pk=run.pk).update(**fields)
        run.refresh_from_db()
    return run


def _store(run, events) -> None:  # type: ignore[no-untyped-def]
    typed = [from_dict(m["payload"]) for m in events]
    assert journal.events_store(run_id=run.pk, events=typed, attempt=1, guard=Q()) is not None


def _url(name, workspace, run=None, **kwargs):  # type: ignore[no-untyped-def]
    return reverse(name, kwargs={"slug": workspace.slug, **({"run_id": run.pk} if run else {}), **kwargs})


def test_it_shows_editors_the_form_with_an_estimate_and_viewers_no_form(team, login) -> None:  # type: ignore[no-untyped-def]
    workspace, corpus, ada, vic, _ = team
    page = login(ada).get(_url("run_index", workspace)).content.decode()
    assert '<label for="id_question">Question</label>' in page
    assert "<legend>Corpora to search" in page
    assert "Market" in page
    assert 'hx-get="/w/' in page
    assert "about 24 model calls" in page  # 4 rollouts x 6 turns: the estimate of the initial values
    boxes = lxml.html.fromstring(page).xpath('//input[@name="corpora"]')
    checked = [(box.get("value"), box.get("checked") is not None) for box in boxes]
    assert checked == [(str(corpus.pk), True)]  # a new run searches every corpus unless unticked
    viewer = login(vic).get(_url("run_index", workspace)).content.decode()
    assert "id_question" not in viewer
    assert "you can watch runs" in viewer


def test_it_answers_404_to_non_members_everywhere(team, login) -> None:  # type: ignore[no-untyped-def]
    workspace, corpus, ada, _, eve = team
    run = _run(workspace, corpus, ada)
    stranger = login(eve)
    for url in (
        _url("run_index", workspace),
        _url("run_form_estimate", workspace),
        _url("run_page", workspace, run),
        _url("run_graph", workspace, run),
        _url("run_document", workspace, run, doc_id="x"),
    ):
        assert stranger.get(url).status_code == 404, url
    assert stranger.post(_url("run_index", workspace), {"question": "q"}).status_code == 404
    assert stranger.post(_url("run_stop", workspace, run)).status_code == 404


def test_a_viewer_cannot_start_or_cancel(team, login) -> None:  # type: ignore[no-untyped-def]
    workspace, corpus, ada, vic, _ = team
    run = _run(workspace, corpus, ada)
    viewer = login(vic)
    data = {
        "question": "q",
        "corpora": [corpus.pk],
        "template": "question",
        "rollouts": 1,
        "budget": 32768,
        "max_turns": 4,
    }
    assert viewer.post(_url("run_index", workspace), data).status_code == 403
    assert viewer.post(_url("run_stop", workspace, run), {"reason": "no"}).status_code == 403
    page = viewer.get(_url("run_page", workspace, run)).content.decode()
    assert "Cancel run" not in page
    assert 'id="run-status"' in page
    assert Run.objects.count() == 1
    assert not Run.objects.get().cancel_requested


def test_an_editor_starts_a_run_and_lands_on_its_page(team, login) -> None:  # type: ignore[no-untyped-def]
    workspace, corpus, ada, _, _ = team
    data = {
        "question": "Who ships?",
        "corpora": [corpus.pk],
        "template": "question",
        "rollouts": 3,
        "budget": 32768,
        "max_turns": 6,
    }
    response = login(ada).post(_url("run_index", workspace), data)
    run = Run.objects.get()
    assert response.status_code == 302
    assert response["Location"] == _url("run_page", workspace, run)
    assert run.rollouts == 3
    assert list(run.corpora.all()) == [corpus]
    htmx = login(ada).post(_url("run_index", workspace), data, HTTP_HX_REQUEST="true")
    assert htmx.status_code == 200  # django-htmx's HttpResponseClientRedirect
    assert htmx["HX-Redirect"].startswith(f"/w/{workspace.slug}/runs/")


def test_validation_errors_re_render_the_form_partial_with_422(team, login) -> None:  # type: ignore[no-untyped-def]
    workspace, _, ada, _, _ = team
    data = {"question": "", "corpora": [], "template": "question", "rollouts": 9, "budget": 32768, "max_turns": 6}
    response = login(ada).post(_url("run_index", workspace), data, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 422
    assert body.lstrip().startswith('<section id="run-form"')
    assert "<h1>" not in body
    assert body.count('role="alert"') == 3  # question, corpora, rollouts
    assert "Ensure this value is less than or equal to 8." in body
    assert not Run.objects.exists()
    plain = login(ada).post(_url("run_index", workspace), data)
    assert plain.status_code == 422
    assert "<h1>Research runs</h1>" in plain.content.decode()


def test_the_estimate_follows_the_form_and_scales_with_rollouts(team, login) -> None:  # type: ignore[no-untyped-def]
    workspace, _, ada, _, _ = team
    client = login(ada)

    def estimate(**values: object) -> str:
        return client.get(
            _url("run_form_estimate", workspace), {"budget": 32768, "max_turns": 16, **values}
        ).content.decode()

    one, eight = estimate(rollouts=1), estimate(rollouts=8)
    assert "about 6 model calls" in one
    assert "for 1 rollout;" in one
    assert "about 48 model calls" in eight
    assert "for 8 rollouts;" in eight
    assert "Rollouts must be between 1 and 8." in estimate(rollouts=0)
    assert "enter a whole number" in estimate(rollouts="many")
    report = estimate(rollouts=4, template="competitor", aspects="EU data\n\nSOC 2")
    assert "about 66 model calls" in report  # nine facets and two aspects: one rollout each, 6 calls a rollout
    assert "for 11 rollouts (one per facet, all at once);" in report


def test_a_finished_run_is_replayed_from_storage_without_a_socket(team, login) -> None:  # type: ignore[no-untyped-def]
    workspace, corpus, ada, _, _ = team
    now = timezone.now()
    run = _run(
        workspace, corpus, ada, status=RunStatus.FINISHED, started_at=now - timedelta(seconds=75), finished_at=now
    )
    _store(run, messages())
    events = RunEvent.objects.filter(run=run)
    events.update(created_at=now)
    events.filter(seq=1).update(created_at=now - timedelta(seconds=75))  # the clock the live page kept
    page = login(ada).get(_url("run_page", workspace, run)).content.decode()
    assert "ws-connect" not in page
    assert "Cancel run" not in page
    assert 'data-status="finished">Finished</span>' in page
    assert "1 min 15 s" in page
    assert page.count('class="call"') == 5
    assert "<strong>95 tokens freed</strong>" in page
    assert '<span class="pruned-mark">pruned</span>' in page
    final = lxml.html.fromstring(page).get_element_by_id("final-documents")
    assert [a.get("href") for a in final.iter("a")] == ["d/press/?highlight=press%230", "d/bio/?highlight=bio%230"]
    assert len(lxml.html.fromstring(page).get_element_by_id("run-events")) == len(messages())
    assert "<svg" in page
    assert "grep: Halyard · 1" in page


def test_a_running_run_tails_the_socket_after_the_last_rendered_event(team, login) -> None:  # type: ignore[no-untyped-def]
    workspace, corpus, ada, _, _ = team
    run = _run(workspace, corpus, ada, status=RunStatus.RUNNING, started_at=timezone.now())
    _store(run, messages()[:7])
    page = login(ada).get(_url("run_page", workspace, run)).content.decode()
    assert f'ws-connect="/ws/runs/{run.pk}/?after=7&amp;format=html"' in page
    assert "Cancel run" in page
    assert 'aria-live="polite"' in page


@pytest.mark.parametrize("split", [0, 1, 9, 18, 24])
def test_a_page_loaded_mid_run_and_fed_the_rest_matches_a_later_load(team, login, split: int) -> None:  # type: ignore[no-untyped-def]
    workspace, corpus, ada, _, _ = team
    run = _run(workspace, corpus, ada, status=RunStatus.RUNNING)
    client, events = login(ada), messages()
    _store(run, events[:split])
    early = lxml.html.fromstring(client.get(_url("run_page", workspace, run)).content.decode())
    socket = html_renderer(events[:split])
    for event in stored(events[split:]):
        apply_oob(early, socket(event))
    _store(run, events[split:])
    later = lxml.html.fromstring(client.get(_url("run_page", workspace, run)).content.decode())
    for region in ("rollouts", "fused-ranking", "final-documents", "run-events"):
        assert normalised(early.get_element_by_id(region)) == normalised(later.get_element_by_id(region)), region


def test_the_graph_part_is_the_graph_section_alone(team, login) -> None:  # type: ignore[no-untyped-def]
    workspace, corpus, ada, vic, _ = team
    run = _run(workspace, corpus, ada)
    _store(run, messages())
    body = login(vic).get(_url("run_graph", workspace, run)).content.decode()
    assert body.startswith('<section id="run-graph"')
    assert "hx-swap-oob" not in body
    assert body.count('class="node query') == 4
    assert body.count('class="node doc"') == 3


def test_an_editor_cancels_with_a_reason(team, login) -> None:  # type: ignore[no-untyped-def]
    workspace, corpus, ada, _, _ = team
    run = _run(workspace, corpus, ada, status=RunStatus.RUNNING, attempts=1)
    response = login(ada).post(_url("run_stop", workspace, run), {"reason": "wrong corpus"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "Cancel requested" in response.content.decode()
    run.refresh_from_db()
    assert run.cancel_requested
    assert run.cancel_reason == "wrong corpus"
    queued = _run(workspace, corpus, ada)
    assert login(ada).post(_url("run_stop", workspace, queued)).status_code == 302
    assert Run.objects.get(pk=queued.pk).status == RunStatus.CANCELLED
    again = login(ada).post(_url("run_stop", workspace, queued), HTTP_HX_REQUEST="true")
    assert again.status_code == 409
    assert "already cancelled" in again.content.decode()


def test_the_document_viewer_highlights_the_retrieved_chunks(team, login, make_workspace) -> None:  # type: ignore[no-untyped-def]
    workspace, corpus, ada, vic, _ = team
    document = Document.objects.create(
        corpus=corpus, doc_id="press", title="Press release", source_name="press.txt", kind="text", content_hash="x"
    )
    for index, text in enumerate(["Halvorix announced Project Halyard.", "Dana Okonkwo sponsors it."]):
        Chunk.objects.create(document=document, index=index, chunk_id=f"press#{index}", text=text)
    run = _run(workspace, corpus, ada)
    url = _url("run_document", workspace, run, doc_id="press") + "?highlight=press%231"
    page = lxml.html.fromstring(login(vic).get(url).content.decode())
    assert page.get_element_by_id("press#1").get("class") == "card chunk highlighted"
    assert page.get_element_by_id("press#0").get("class") == "card chunk"
    assert "Retrieved by the run" in page.get_element_by_id("press#1").text_content()
    other = Corpus.objects.create(workspace=workspace, name="Other", slug="other")
    Document.objects.create(corpus=other, doc_id="elsewhere", source_name="e.txt", kind="text", content_hash="y")
    assert login(vic).get(_url("run_document", workspace, run, doc_id="elsewhere")).status_code == 404


def test_history_lists_status_duration_rollouts_tokens_and_results(team, login) -> None:  # type: ignore[no-untyped-def]
    workspace, corpus, ada, vic, _ = team
    now = timezone.now()
    _run(
        workspace,
        corpus,
        ada,
        status=RunStatus.FINISHED,
        started_at=now - timedelta(seconds=42),
        finished_at=now,
        total_tokens=51_234,
        result=[{"doc_id": "a"}, {"doc_id": "b"}],
    )
    _run(workspace, corpus, ada)
    page = lxml.html.fromstring(login(vic).get(_url("run_index", workspace)).content.decode())
    rows = [[" ".join(td.text_content().split()) for td in tr.iter("td")] for tr in page.iter("tr")][1:]
    assert [row[1:] for row in rows] == [
        ["Queued", rows[0][2], "\u2013", "2", "0", "\u2013"],
        ["Finished", rows[1][2], "42 s", "2", "51,234", "2"],
    ]
    workspace_page = login(vic).get(reverse("workspace_detail", kwargs={"slug": workspace.slug})).content.decode()
    assert f'href="/w/{workspace.slug}/runs/"' in workspace_page
