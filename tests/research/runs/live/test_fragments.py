"""Run page fragments: every event kind renders, and a page rendered at any seq plus the later events'
fragments (applied as htmx applies them) equals the page rendered from every event."""

from __future__ import annotations

import json
from typing import Any

import lxml.html
import pytest
from django.template.loader import render_to_string

from research.protocol.events import EVENT_TYPES
from research.runs.journal import StoredEvent
from research.runs.live.fragments import HtmlRenderer, as_json, render, renderer, state_context, status_context
from research.runs.live.graph import run_graph
from research.runs.live.state import RunState, apply, dom_id, run_state

QUESTION = "Who sponsors Project Halyard and where did they work before?"


def chunk(chunk_id: str, title: str, new: bool = True, score: float = 1.0) -> dict[str, Any]:
    return {
        "chunk_id": chunk_id,
        "doc_id": chunk_id.split("#", maxsplit=1)[0],
        "title": title,
        "score": score,
        "new": new,
    }


def doc(doc_id: str, title: str, agreement: int = 1, score: float = 0.03) -> dict[str, Any]:
    return {"doc_id": doc_id, "title": title, "score": score, "chunk_ids": [f"{doc_id}#0"], "agreement": agreement}


def call(rollout: int, turn: int, call_id: str, tool: str, query: str) -> tuple[str, dict[str, Any]]:
    key = {"prune_chunks": "chunk_ids", "complete": "ranked_chunk_ids"}.get(tool)
    arguments = {key: query.split()} if key else {"query": query}
    return "tool_called", {
        "rollout": rollout,
        "turn": turn,
        "call_id": call_id,
        "tool": tool,
        "query": query,
        "arguments": json.dumps(arguments),
    }


def returned(rollout: int, turn: int, call_id: str, tool: str, chunks: list[Any], error: str | None = None) -> Any:
    return "tool_returned", {
        "rollout": rollout,
        "turn": turn,
        "call_id": call_id,
        "tool": tool,
        "chunks": chunks,
        "tokens": 40 * len(chunks),
        "omitted": 0,
        "error": error,
    }


def recorded(rollout: int, turn: int, context: int) -> tuple[str, dict[str, Any]]:
    return "turn_recorded", {
        "rollout": rollout,
        "turn": turn,
        "prompt_tokens": context,
        "completion_tokens": 20,
        "cached_tokens": None,
        "context_tokens": context,
        "exact": False,
    }


def items() -> list[tuple[str, dict[str, Any]]]:
    """A two-rollout run with a grep, an error, a soft budget level, a prune and a cancel request."""
    press, menu, bio = chunk("press#0", "Press release"), chunk("menu#0", "Menu"), chunk("bio#0", "Dana's bio")
    return [
        ("run_started", {"question": QUESTION, "rollouts": 2, "budget": 32768}),
        ("turn_started", {"rollout": 0, "turn": 1}),
        recorded(0, 1, 410),
        call(0, 1, "h0_1", "search_corpus", QUESTION),
        call(0, 1, "h0_2", "grep_corpus", "Halyard"),
        returned(0, 1, "h0_1", "search_corpus", [press, menu]),
        returned(0, 1, "h0_2", "grep_corpus", [{**press, "new": False}]),
        (
            "fused_ranking_updated",
            {"rollout": 0, "turn": 1, "documents": [doc("press", "Press release"), doc("menu", "Menu")]},
        ),
        ("turn_started", {"rollout": 1, "turn": 1}),
        recorded(1, 1, 398),
        call(1, 1, "h1_1", "search_corpus", "Project Halyard sponsor <b>"),
        returned(1, 1, "h1_1", "search_corpus", [press, bio]),
        (
            "fused_ranking_updated",
            {
                "rollout": 1,
                "turn": 1,
                "documents": [doc("press", "Press release", 2), doc("bio", "Dana's bio"), doc("menu", "Menu")],
            },
        ),
        ("turn_started", {"rollout": 0, "turn": 2}),
        recorded(0, 2, 17_001),
        ("budget_level_changed", {"rollout": 0, "turn": 2, "level": "soft", "used": 17_001, "limit": 32768}),
        call(0, 2, "h0_3", "prune_chunks", "menu#0"),
        call(0, 2, "h0_4", "grep_corpus", "(unclosed"),
        ("chunks_pruned", {"rollout": 0, "turn": 2, "chunk_ids": ["menu#0"], "freed_tokens": 95}),
        returned(0, 2, "h0_3", "prune_chunks", []),
        returned(0, 2, "h0_4", "grep_corpus", [], error="invalid regex: missing )"),
        ("cancel_requested", {"reason": "enough for today", "by": "ada"}),
        (
            "rollout_finished",
            {
                "rollout": 0,
                "turns": 2,
                "reason": "completed",
                "documents": [doc("press", "Press release")],
                "error": None,
            },
        ),
        (
            "rollout_finished",
            {"rollout": 1, "turns": 1, "reason": "failed", "documents": [], "error": "backend unavailable"},
        ),
        (
            "run_finished",
            {
                "documents": [doc("press", "Press release", 2), doc("bio", "Dana's bio")],
                "rollouts_ok": 1,
                "rollouts_failed": 1,
            },
        ),
        ("writing_started", {"writer": "extractive", "template": "question", "evidence": 2}),
        ("report_written", {"report": REPORT}),
    ]


QUOTE = "Dana Reyes <script>alert(1)</script> sponsors Project Halyard"
REPORT: dict[str, Any] = {
    "template": "question",
    "writer": "extractive",
    "subject": QUESTION,
    "summary": [
        {
            "text": QUOTE,
            "citations": [{"chunk_id": "press#0", "doc_id": "press", "quote": QUOTE, "source": "press.txt"}],
            "date": "2026-03-01",
            "stale": False,
        }
    ],
    "sections": [],
    "removed": [{"text": "Dana worked at Initech.", "reason": "its quotes do not contain 'initech'"}],
    "sources": [{"doc_id": "press", "title": "Press release", "source": "press.txt", "date": "2026-03-01"}],
    "notes": [],
}


def messages(stream: list[tuple[str, dict[str, Any]]] | None = None, attempt: int = 1) -> list[dict[str, Any]]:
    return [
        {
            "seq": seq,
            "type": kind,
            "payload": {"type": kind, **payload},
            "attempt": attempt,
            "at": f"2026-05-01T10:00:{seq:02d}+00:00",
        }
        for seq, (kind, payload) in enumerate(stream or items(), start=1)
    ]


def stored(stream: list[dict[str, Any]]) -> list[StoredEvent]:
    return [StoredEvent.from_message(message) for message in stream]


def state_of(stream: list[dict[str, Any]]) -> RunState:
    return run_state(stored(stream), question=QUESTION)


def html_renderer(seen: list[dict[str, Any]]) -> HtmlRenderer:
    """The socket's html renderer for a client that already has ``seen``."""
    return HtmlRenderer(state_of(seen))


def other_endings() -> list[dict[str, Any]]:
    return messages(
        [
            ("run_requeued", {"attempt": 1, "reason": "worker lost"}),
            ("run_restarted", {"attempt": 2, "max_attempts": 3, "superseded_through": 1, "reason": "worker lost"}),
            ("run_failed", {"error": "JournalError: not stored"}),
            ("run_cancelled", {"reason": "wrong corpus"}),
            ("writing_failed", {"error": "OperationalError: database is locked"}),
        ]
    )


# --- every kind renders --------------------------------------------------------------------------------
def test_the_streams_cover_every_harness_and_journal_event_kind() -> None:
    kinds = {m["type"] for m in messages()} | {m["type"] for m in other_endings()}
    assert kinds == set(EVENT_TYPES)


def _located(message: dict[str, Any]) -> tuple[list[dict[str, Any]], int]:
    """The stream ``message`` belongs to and its place in it."""
    for stream in (messages(), other_endings()):
        if message in stream:
            return stream, stream.index(message)
    raise AssertionError(message)


def fragments(message: dict[str, Any]) -> list[str]:
    """What the socket sends for ``message`` to a page that already has the events before it."""
    stream, index = _located(message)
    state = state_of(stream[:index])
    return [fragment for change in apply(state, stored([message])[0]) for fragment in render(change, state)]


def as_html(message: dict[str, Any]) -> str:
    return "".join(fragments(message))


def _one(kind: str) -> dict[str, Any]:
    return next(m for m in messages() + other_endings() if m["type"] == kind)


@pytest.mark.parametrize("kind", sorted(EVENT_TYPES))
def test_every_event_kind_starts_with_its_log_line(kind: str) -> None:
    message = _one(kind)
    html = as_html(message)
    assert html.startswith(f'<ol id="run-events" hx-swap-oob="beforeend"><li id="run-event-{message["seq"]}"')
    assert f'data-type="{kind}"' in html
    for element in lxml.html.fragments_fromstring(html):
        assert element.get("hx-swap-oob"), lxml.html.tostring(element)  # htmx's ws extension swaps oob only


def test_run_started_draws_a_rollout_per_rollout_with_gauges_marking_both_thresholds() -> None:
    html = as_html(_one("run_started"))
    assert html.count('class="rollout"') == 2
    assert "--limit: 32768; --soft: 50%; --hard: 85%" in html
    assert "Token budget 32,768 · soft threshold at 50 % (|), hard cutoff at 85 % (‖)" in html
    assert (
        '<div hx-swap-oob="innerHTML:#run-status"><span class="status-badge" data-status="running">Running</span>'
        in html
    )
    assert '<span id="run-start" data-at="2026-05-01T10:00:01+00:00" hx-swap-oob="true" hidden>' in html


def test_a_tool_call_is_appended_to_its_turn_and_its_result_replaces_the_placeholder() -> None:
    called = fragments(_one("tool_called"))[1]
    assert called.startswith('<ol id="r0-t1-items" hx-swap-oob="beforeend"><li class="call" data-tool="search_corpus">')
    assert '<span class="tool">search</span>' in called
    assert "waiting for results" in called
    result = fragments(next(m for m in messages() if m["type"] == "tool_returned"))[1]
    assert result.startswith('<div id="r0-call-h0_1-result" class="call-result" hx-swap-oob="true">')
    assert '<span class="result-count">2 results</span> <span class="muted">(2 new, 0 already seen)</span>' in result
    assert f'<li id="r0-c-{dom_id("press#0")}" class="chunk">' in result
    assert 'href="d/press/?highlight=press%230"' in result


def test_already_seen_chunks_say_so_in_words_and_get_no_id() -> None:
    grep = [m for m in messages() if m["type"] == "tool_returned"][1]
    html = as_html(grep)
    assert "(0 new, 1 already seen)" in html
    assert '<li class="chunk seen">' in html
    assert '<span class="tag">already seen</span>' in html


def test_a_query_is_escaped() -> None:
    html = as_html(next(m for m in messages() if m["payload"].get("call_id") == "h1_1"))
    assert "Project Halyard sponsor &lt;b&gt;" in html
    assert "<b>" not in html


def test_a_prune_is_struck_through_with_the_tokens_freed_and_marks_the_chunk() -> None:
    html = as_html(_one("chunks_pruned"))
    assert '<strong>95 tokens freed</strong>: <del class="chunk-name" title="menu#0">Menu</del>' in html
    assert (
        f'<span id="r0-c-{dom_id("menu#0")}" hx-swap-oob="beforeend"><span class="pruned-mark">pruned</span></span>'
        in html
    )


def test_budget_events_move_the_gauge_and_name_the_level_in_words() -> None:
    level = as_html(_one("budget_level_changed"))
    assert '<div id="r0-gauge-used" class="gauge-used" style="--used: 17001" hx-swap-oob="true">' in level
    assert "17,001 tokens in context" in level
    assert 'data-level="soft" hx-swap-oob="true">Past the soft threshold: pruning urged</span>' in level
    recorded_html = as_html(_one("turn_recorded"))
    assert 'style="--used: 410"' in recorded_html
    assert "gauge-level" not in recorded_html


def test_the_fused_ranking_is_replaced_whole_with_agreement_in_words_and_the_graph_refetched() -> None:
    html = as_html([m for m in messages() if m["type"] == "fused_ranking_updated"][1])
    ranking = lxml.html.fragments_fromstring(html)[1]
    assert ranking.get("id") == "fused-ranking"
    assert [li.get("data-doc") for li in ranking.iter("li")] == ["press", "bio", "menu"]
    assert "found by 2 rollouts" in ranking.text_content()
    assert 'hx-get="graph/" hx-trigger="load delay:400ms" hx-target="#run-graph"' in html


def test_the_end_of_a_run_shows_its_documents_stops_the_clock_and_removes_the_cancel_form() -> None:
    html = as_html(_one("run_finished"))
    assert '<span id="run-end" data-at="2026-05-01T10:00:25+00:00" hx-swap-oob="true" hidden>' in html
    assert '<div id="run-controls" hx-swap-oob="true"></div>' in html
    assert 'href="d/press/?highlight=press%230"' in html
    assert "Final documents" in html
    page = lxml.html.fromstring(f"<div>{html}</div>")
    ranked = [li.get("data-doc") for li in page.get_element_by_id("fused-ranking").iter("li")]
    assert ranked == ["press", "bio"]  # the fused ranking ends as the final fusion: the two lists agree
    assert state_of(messages()).ranking == state_of(messages()).final
    for kind, label in (("run_failed", "Failed"), ("run_cancelled", "Cancelled")):
        ending = as_html(_one(kind))
        assert f'data-status="{kind.removeprefix("run_")}">{label}</span>' in ending
        assert '<div id="run-controls" hx-swap-oob="true"></div>' in ending


def test_the_clock_stops_when_the_answer_is_written_as_the_run_row_says() -> None:
    """Run.finished_at is written after the answer: the live clock ends there too, not at run_finished."""
    written = _one("report_written")
    html = as_html(written)
    assert f'<span id="run-end" data-at="{written["at"]}" hx-swap-oob="true" hidden>' in html
    assert "run-controls" not in html  # removed once, at the run's end
    assert 'id="run-end"' not in as_html(_one("writing_started"))
    assert state_of(messages()).ended_at == written["at"]


def test_a_rollout_ending_says_why_and_shows_its_error() -> None:
    html = as_html([m for m in messages() if m["type"] == "rollout_finished"][1])
    assert 'data-status="failed">Ended: failed</span> after 1 turn, 0 documents' in html
    assert "backend unavailable" in html


def test_a_restart_clears_the_rollouts_and_a_requeue_says_queued() -> None:
    assert "Restarting: the earlier attempt's events are superseded." in as_html(_one("run_restarted"))
    assert 'data-status="queued">Queued</span> <span class="muted">— worker lost</span>' in as_html(
        _one("run_requeued")
    )
    assert 'data-status="cancelling">Cancelling</span>' in as_html(_one("cancel_requested"))


def test_json_stays_the_default_format() -> None:
    message = messages()[0]
    assert renderer(None, list) is as_json
    assert renderer("nonsense", list) is as_json
    assert isinstance(renderer("html", list), HtmlRenderer)
    assert json.loads(as_json(stored([message])[0])) == message


# --- the page and the stream agree ----------------------------------------------------------------------
def regions(state: RunState) -> lxml.html.HtmlElement:
    """What the run page renders of ``state`` (its live parts), as a document."""
    context = {**state_context(state), **status_context(state.status, state.reason), "graph": run_graph(state)}
    html = "".join(
        [
            f'<div id="run-status">{render_to_string("research/partials/run_parts.html#status", context)}</div>',
            render_to_string("research/partials/run_parts.html#final", {**context, "oob": False}),
            render_to_string("research/partials/run_parts.html#ranking", {**context, "oob": False}),
            render_to_string("research/partials/run_parts.html#rollouts", {**context, "oob": False}),
            '<ol id="run-events">',
            *(render_to_string("research/partials/run_parts.html#log_line", {"line": line}) for line in state.log),
            "</ol>",
        ]
    )
    return lxml.html.fromstring(f"<div>{html}</div>")


def apply_oob(page: lxml.html.HtmlElement, html: str) -> None:
    """Swap each top-level element of a frame into ``page`` as htmx's ws extension does (oobSwap)."""
    for element in lxml.html.fragments_fromstring(html):
        spec = element.attrib.pop("hx-swap-oob", "true")
        style, _, selector = spec.partition(":")
        if style == "true" or not selector:
            style, selector = ("outerHTML" if style == "true" else style), f"#{element.get('id')}"
        found = page.xpath(f'//*[@id="{selector[1:]}"]')
        if not found:
            continue  # htmx ignores a missing target (the graph refresh trigger, here)
        target = found[0]
        if style == "outerHTML":
            element.tail = target.tail
            target.getparent().replace(target, element)
            continue
        if style == "innerHTML":
            for child in list(target):
                target.remove(child)
            target.text = element.text
        else:
            assert style == "beforeend", spec
        target.extend(list(element))


def normalised(page: lxml.html.HtmlElement) -> str:
    return " ".join(lxml.html.tostring(page, encoding="unicode").replace(">", "> ").replace("<", " <").split())


@pytest.mark.parametrize("stream", ["run", "restart", "cancel"])
def test_a_page_rendered_at_any_seq_then_fed_the_rest_equals_the_page_rendered_at_the_end(stream: str) -> None:
    events = cancelled_stream() if stream == "cancel" else messages()
    if stream == "restart":
        second = messages([("run_restarted", {"attempt": 2, "reason": "lost"}), *items()], attempt=2)
        events = messages(items()[:9]) + [{**m, "seq": m["seq"] + 9} for m in second]
    final = normalised(regions(state_of(events)))
    assert "pruned-mark" in final or stream != "run"
    for split in range(len(events) + 1):
        page, socket = regions(state_of(events[:split])), html_renderer(events[:split])
        for event in stored(events[split:]):
            apply_oob(page, socket(event))
        assert normalised(page) == final, f"split at {split}"


def test_the_graph_links_question_sub_queries_and_documents_in_ranking_order() -> None:
    state = state_of(messages())
    graph = run_graph(state)
    assert [node.title for node in graph.queries] == [QUESTION, "Halyard", "(unclosed", "Project Halyard sponsor <b>"]
    assert [node.key for node in graph.documents] == ["d-press", "d-bio", "d-menu"]
    assert [rollout for rollout, _ in graph.groups] == [0, 1]
    # question -> each sub-query, and each sub-query -> each document it returned
    assert len(graph.edges) == 4 + 2 + 1 + 0 + 2
    svg = render_to_string("research/partials/run_parts.html#graph", {"graph": graph})
    assert "search: Project Halyard sponsor &lt;b&gt; · 2" in svg
    assert 'role="img"' in svg
    assert run_graph(state_of(messages())) == graph  # deterministic


def test_a_long_question_in_the_graph_says_it_goes_on_and_holds_it_whole_on_hover() -> None:
    question = (
        "Which of our competitors sells to mid-sized banks in the Nordics, what do they charge per seat to a bank"
        " of 500 people, and who leads their sales teams in Stockholm and Oslo?"
    )
    state = state_of(messages())
    state.question = question
    graph = run_graph(state)
    lines = [line for _, line in graph.question_lines]
    assert len(lines) == 6
    assert lines[-1].endswith(" \u2026")
    svg = render_to_string("research/partials/run_parts.html#graph", {"graph": graph})
    assert f"<title>{question}</title>" in svg


def cancelled_stream() -> list[dict[str, Any]]:
    """A one-rollout run that searched, completed with a chunk named by its title, then was cancelled."""
    press = chunk("press#0", "Press release")
    return messages(
        [
            ("run_started", {"question": QUESTION, "rollouts": 1, "budget": 32768}),
            ("turn_started", {"rollout": 0, "turn": 1}),
            call(0, 1, "c1", "search_corpus", QUESTION),
            returned(0, 1, "c1", "search_corpus", [press]),
            call(0, 1, "c3", "search_corpus", "x" * 1001),
            returned(
                0, 1, "c3", "search_corpus", [], error="Error: search_corpus.query is longer than 1000 characters."
            ),
            call(0, 1, "c2", "complete", "press#0 ghost#1"),
            ("cancel_requested", {"reason": "wrong corpus, sorry", "by": "ada"}),
            (
                "rollout_finished",
                {"rollout": 0, "turns": 1, "reason": "cancelled", "documents": [doc("press", "Press release")]},
            ),
            ("run_cancelled", {"reason": "wrong corpus, sorry", "documents": [doc("press", "Press release")]}),
        ]
    )


def html_of(state: RunState) -> str:
    return str(lxml.html.tostring(regions(state), encoding="unicode"))


def test_a_cancelled_run_says_why_marks_its_rollouts_cancelled_and_shows_what_it_found() -> None:
    page = html_of(state_of(cancelled_stream()))
    assert 'data-status="cancelled">Cancelled</span> <span class="muted">— wrong corpus, sorry</span>' in page
    assert 'data-status="cancelled">Stopped: cancelled</span>' in page
    assert "Ended: cancelled" not in page
    assert "What the rollouts had found when the run was cancelled:" in page
    assert 'data-doc="press"' in page.split('id="final-documents"')[1].split("</section>")[0]
    assert "appear here when the run finishes" not in page


def test_complete_names_its_chunks_by_title_with_the_id_on_hover() -> None:
    page = html_of(state_of(cancelled_stream()))
    assert '<span class="chunk-name" title="press#0">Press release</span>' in page
    assert '<span class="chunk-name" title="ghost#1">ghost#1</span>' in page  # never shown: its id stands in


def test_event_log_lines_say_what_happened() -> None:
    lines = [line.summary for line in state_of(messages()).log]
    assert f"rollout 1: search: {QUESTION}" in lines
    assert "rollout 1: search returned 2 chunks (2 new)" in lines
    assert "rollout 1: grep failed: invalid regex: missing )" in lines
    assert "rollout 1: pruned 1 chunk, 95 tokens freed" in lines
    assert "rollout 1: prune done" in lines
    assert "cancel requested by ada: enough for today" in lines
    assert "finished: 2 documents" in lines
    cancelled = [line.summary for line in state_of(cancelled_stream()).log]
    assert "rollout 1: complete: 2 chunks" in cancelled
    assert "cancelled (wrong corpus, sorry): 1 document found" in cancelled


def test_an_error_is_shown_once_prefixed() -> None:
    page = html_of(state_of(cancelled_stream()))
    assert "Error: search_corpus.query is longer than 1000 characters." in page
    assert "Error: Error:" not in page


def test_a_failed_run_says_it_failed_where_the_documents_would_be() -> None:
    events = messages([*items()[:9], ("run_failed", {"error": "every rollout failed: backend unavailable"})])
    page = html_of(state_of(events))
    assert "The run failed before it could rank documents; the fused ranking shows what its rollouts had found." in page
    assert "appear here when the run finishes" not in page


# --- the written answer ----------------------------------------------------------------------------------
def test_the_answer_shows_its_claims_with_citation_chips_sources_and_removed_claims() -> None:
    html = as_html(_one("report_written"))
    tree = lxml.html.fromstring(f"<div>{html}</div>")
    answer = tree.get_element_by_id("answer")
    assert answer.get("hx-swap-oob") == "true"
    claim = answer.xpath(".//li[@class='claim']")[0]
    assert "<script>" in claim.text_content()  # shown as text, never as markup
    assert not answer.xpath(".//script")
    chip = claim.xpath(".//a[@class='chip']")[0]
    assert chip.text_content() == "[1]"
    assert chip.get("href").startswith("d/press/?highlight=press%230&quote=Dana+Reyes")
    assert chip.get("href").endswith("#press%230")
    assert [a.text_content() for a in answer.xpath(".//ol[@class='sources']//a")] == ["Press release"]
    assert "1 claim removed by the citation check" in answer.xpath(".//details/summary")[0].text_content()
    assert answer.xpath(".//span[@class='writer-tag']")[0].text_content() == "extractive"


def test_while_writing_and_after_a_failure_the_answer_says_so() -> None:
    assert "Writing the answer (extractive writer) from 2 chunks" in as_html(_one("writing_started"))
    assert "The answer could not be written: OperationalError" in as_html(_one("writing_failed"))


# --- fragments shared by the sockets of a run ------------------------------------------------------------
def test_a_late_socket_renders_each_later_event_as_a_live_socket_does() -> None:
    """The premise of FragmentCache: a socket that joined at any seq renders every later event exactly as
    a socket that folded every event live, so one rendering can serve both."""
    events = stored(messages())
    live = HtmlRenderer(run_state([]))
    rendered = [live(event) for event in events]
    for joined in range(0, len(events), 3):
        late = HtmlRenderer(run_state(events[:joined]))
        assert [late(event) for event in events[joined:]] == rendered[joined:], joined


def test_sockets_of_one_run_render_each_event_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from research.runs.live import fragments

    calls: list[object] = []
    counting = lambda change, state: calls.append(change) or render(change, state)  # noqa: E731
    monkeypatch.setattr(fragments, "render", counting)
    shared, events = fragments.FragmentCache(), stored(messages())
    first, second = (HtmlRenderer(run_state([]), run_id=7, shared=shared) for _ in range(2))
    texts = [first(event) for event in events]
    renders = len(calls)
    assert renders >= len(events)
    assert [second(event) for event in events] == texts
    assert len(calls) == renders  # nothing rendered twice
    assert (shared.hits, shared.misses) == (len(events), len(events))
    other_run = HtmlRenderer(run_state([]), run_id=8, shared=shared)
    assert [other_run(event) for event in events] == texts
    assert len(calls) == 2 * renders  # another run's events are its own


def test_the_fragment_cache_keeps_only_its_size() -> None:
    from research.runs.live.fragments import FragmentCache

    shared, events = FragmentCache(size=5), stored(messages())
    renderer_ = HtmlRenderer(run_state([]), run_id=1, shared=shared)
    for event in events:
        renderer_(event)
    assert len(shared._items) == min(5, len(events))
    assert renderer("html", list, run_id=3).shared is not None  # type: ignore[attr-defined]
    assert renderer("html", list).shared is None  # type: ignore[attr-defined]


def test_a_socket_that_followed_another_renders_on_its_own_when_the_other_is_gone() -> None:
    """A follower folds what it kept unfolded before rendering its first own fragment: the same text as a
    socket that rendered everything itself."""
    from research.runs.live.fragments import FragmentCache

    events = stored(messages())
    solo = HtmlRenderer(run_state([]))
    expected = [solo(event) for event in events]
    shared = FragmentCache()
    leader, follower = (HtmlRenderer(run_state([]), run_id=5, shared=shared) for _ in range(2))
    half = len(events) // 2
    for event in events[:half]:
        leader(event)
    followed = [follower(event) for event in events[:half]]
    assert follower._pending  # it kept them unfolded
    shared._items.clear()  # the leader's fragments are gone (evicted, or it never rendered the rest)
    on_its_own = [follower(event) for event in events[half:]]
    assert followed + on_its_own == expected
    assert not follower._pending
