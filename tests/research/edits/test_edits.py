"""Analysts' edits kept per investigation: made on a run's page, shown on a re-run's page, in its exports, and
respected by compare and digests; viewers and strangers cannot edit; a run in no investigation says why not."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.db.models import Q
from django.test import Client
from django.urls import reverse

from research.edits.services import NOT_SAVED
from research.investigations import services as investigations
from research.investigations.selectors import runs_compare
from research.models import Investigation, ReportEdit, Run
from research.protocol.events import ReportWritten
from research.protocol.report import Citation, Claim, CriterionResult, Report, Section, Source
from research.reporting.selectors import report_of
from research.reporting.services import report_save
from research.runs.journal import events_store
from research.schedules.digests import digest_build
from research.sharing.services import share_link_create
from research.writing.edits import claim_key
from tests.research.investigations.conftest import Team, claim, finished_run

pytestmark = pytest.mark.django_db

WRONG = "Halvorix opened a Berlin office."
RIGHT = "Halvorix raised EUR 12 million."
NEW = "Halvorix hired a CTO."
HTMX = {"HTTP_HX_REQUEST": "true"}


def shown(run: Run) -> Run:
    """The run with its report written as an event too (what the run page reads)."""
    report = report_of(run)
    assert report is not None
    events_store(run_id=run.pk, events=[ReportWritten(report=report)], attempt=1, guard=Q())
    return run


def saved(team: Team, claims: list[str]) -> tuple[Investigation, Run]:
    run = shown(finished_run(team, claims=claims))
    return investigations.investigation_create(actor=team.author, run=run, title="Halvorix watch"), run


def url(team: Team, name: str, run: Run, **extra: object) -> str:
    return reverse(name, kwargs={"slug": team.workspace.slug, "run_id": run.pk, **extra})


def strike(client: Client, team: Team, run: Run, text: str, reason: str = "Vienna, not Berlin") -> object:
    return client.post(url(team, "edit_strike", run), {"key": claim_key(claim(text)), "reason": reason}, **HTMX)


def test_a_struck_claim_stays_struck_on_the_re_run_its_exports_compare_and_digest(
    team: Team, login: Callable[[User], Client]
) -> None:
    investigation, first = saved(team, [WRONG, RIGHT])
    client = login(team.author.user)
    response = strike(client, team, first, WRONG)
    assert response.status_code == 204
    assert response["HX-Trigger"] == "report-edited"

    second = shown(finished_run(team, claims=[WRONG, RIGHT, NEW]))
    investigations.investigation_add_run(actor=team.author, investigation=investigation, run=second)
    page = client.get(url(team, "run_page", second)).content.decode()
    section = page.split('id="facet-news"')[1].split("</section>")[0]
    assert RIGHT in section
    assert NEW in section
    assert WRONG not in section
    assert "1 claim struck by analysts" in page
    assert "Vienna, not Berlin" in page
    part = client.get(url(team, "run_answer", second)).content.decode()
    assert "struck by analysts" in part
    assert 'hx-trigger="report-edited from:body"' in part

    markdown = client.get(url(team, "report_export", second, fmt="md")).content.decode()
    news, struck = markdown.split("## News")[1].split("## Struck by analysts")
    assert WRONG not in news
    assert WRONG in struck
    assert "struck by ada" in struck

    diff = runs_compare(older=first, newer=second)
    assert [change.claim.text for change in diff.added] == [NEW]
    assert not diff.no_longer_supported
    assert digest_build(second).body["counts"]["added"] == 1


def test_undo_brings_the_claim_back_and_a_note_shows_in_its_section(
    team: Team, login: Callable[[User], Client]
) -> None:
    investigation, run = saved(team, [WRONG, RIGHT])
    client = login(team.owner.user)  # the workspace's owner edits every investigation
    strike(client, team, run, WRONG)
    edit = ReportEdit.objects.get(investigation=investigation)
    assert client.post(url(team, "edit_undo", run, edit_id=edit.pk), **HTMX).status_code == 204
    client.post(url(team, "edit_note", run), {"facet": "news", "text": "Ask the partner about Berlin"}, **HTMX)
    page = client.get(url(team, "run_page", run)).content.decode()
    section = page.split('id="facet-news"')[1].split("</section>")[0]
    assert WRONG in section
    assert "Ask the partner about Berlin" in section
    assert "struck by analysts" not in page


def test_an_override_changes_the_verdict_and_the_fit_and_says_whose_it_is(
    team: Team, login: Callable[[User], Client]
) -> None:
    run = finished_run(team, claims=[RIGHT])  # its report replaced by an ICP check's
    judged = CriterionResult(name="Recent funding", verdict="unknown", reason="no dated quote")
    report_save(run, Report(template="icp", writer="rules", subject="Halvorix", criteria=(judged,), coverage=0.0))
    shown(run)
    investigations.investigation_create(actor=team.author, run=run, title="Halvorix fit")
    client = login(team.author.user)
    form = {"criterion": "Recent funding", "verdict": "match", "note": "Series A in the press release"}
    assert client.post(url(team, "edit_override", run), form, **HTMX).status_code == 204
    page = client.get(url(team, "run_page", run)).content.decode()
    assert 'data-verdict="match"' in page
    assert "overridden by ada" in page
    assert "Fit 100%" in page
    markdown = client.get(url(team, "report_export", run, fmt="md")).content.decode()
    assert (
        "Recent funding: Match (overridden by ada: Series A in the press release; the judge said Unknown)" in markdown
    )


@pytest.mark.parametrize(("who", "status"), [("viewer", 403), ("outsider", 404)])
def test_viewers_and_strangers_cannot_edit(team: Team, login: Callable[[User], Client], who: str, status: int) -> None:
    investigation, run = saved(team, [WRONG])
    investigations.investigation_share(
        actor=team.author, investigation=investigation, visibility="workspace", workspace_role="viewer"
    )
    response = strike(login(team.member(who).user), team, run, WRONG)
    assert response.status_code == status  # type: ignore[attr-defined]
    assert not ReportEdit.objects.exists()
    if who == "viewer":
        assert "Strike</button>" not in login(team.viewer.user).get(url(team, "run_page", run)).content.decode()


def test_a_bad_edit_says_why_where_the_form_is(team: Team, login: Callable[[User], Client]) -> None:
    alone = shown(finished_run(team, claims=[WRONG]))
    client = login(team.author.user)
    response = strike(client, team, alone, WRONG)
    assert response.status_code == 422
    assert NOT_SAVED in response.content.decode()
    assert "Save this run as an investigation" in client.get(url(team, "run_page", alone)).content.decode()
    _, run = saved(team, [WRONG])
    for form, message in [
        ({"key": claim_key(claim(WRONG)), "reason": " "}, "Write why the claim is wrong."),
        ({"key": "nope", "reason": "x"}, "That claim is not in this run"),
    ]:
        answer = client.post(url(team, "edit_strike", run), form, **HTMX)
        assert answer.status_code == 422
        assert message in answer.content.decode()
    pin = client.post(url(team, "edit_pin", run), {"key": claim_key(claim(WRONG)), "facet": "funding"}, **HTMX)
    assert pin.status_code == 422
    assert "Choose one of the report&#x27;s sections." in pin.content.decode()
    plain = client.post(url(team, "edit_strike", run), {"key": "nope", "reason": "x"})
    assert plain.status_code == 302
    assert plain["Location"].endswith("#answer")
    assert not ReportEdit.objects.exists()


def test_a_claim_backed_by_a_public_and_an_internal_document_stays_struck_in_the_shared_copies(
    team: Team, login: Callable[[User], Client]
) -> None:
    run = finished_run(team, claims=[RIGHT])
    mixed = Claim(
        text=WRONG,
        citations=(
            Citation(chunk_id="press#1", doc_id="press", quote=WRONG, source="press.md"),
            Citation(chunk_id="notes#0", doc_id="notes", quote="Berlin office opened", source="notes.md"),
        ),
    )
    sources = (
        Source(doc_id="press", title="Press release", source="press.md"),
        Source(doc_id="notes", title="Deal notes", source="notes.md", internal=True),
    )
    section = Section(facet="news", title="News", claims=(claim(RIGHT), mixed))
    report_save(
        run,
        Report(template="competitor", writer="extractive", subject="Halvorix", sections=(section,), sources=sources),
    )
    shown(run)
    investigation = investigations.investigation_create(actor=team.author, run=run, title="Halvorix watch")
    client = login(team.author.user)
    client.post(url(team, "edit_strike", run), {"key": claim_key(mixed), "reason": "Vienna"}, **HTMX)
    client.post(url(team, "edit_note", run), {"facet": "news", "text": "Call ada about Berlin"}, **HTMX)
    for internal in ("", "?internal=1"):
        exported = client.get(url(team, "report_export", run, fmt="md") + internal).content.decode()
        assert WRONG not in exported.split("## Struck by analysts")[0]
    # the struck claim quotes our notes: the copy without them does not list it
    assert "Vienna" not in client.get(url(team, "report_export", run, fmt="md")).content.decode()
    link = share_link_create(actor=team.author, investigation=investigation, run=run)
    public = Client().get(reverse("shared_page", kwargs={"token": link.token})).content.decode()
    assert RIGHT in public
    assert WRONG not in public
    assert "Call ada" not in public
    assert "Analyst's note" not in public


def test_a_private_investigations_run_cannot_be_edited_by_a_member_it_is_not_shared_with(
    team: Team, login: Callable[[User], Client]
) -> None:
    investigation, run = saved(team, [WRONG])
    investigations.investigation_share(actor=team.author, investigation=investigation, visibility="private")
    client = login(team.editor.user)  # a workspace editor the investigation is not shared with
    assert strike(client, team, run, WRONG).status_code == 404  # type: ignore[attr-defined]
    assert client.get(url(team, "run_answer", run)).status_code == 404
    login(team.author.user).post(url(team, "edit_note", run), {"facet": "", "text": "Checked"}, **HTMX)
    edit = ReportEdit.objects.get()
    assert client.post(url(team, "edit_undo", run, edit_id=edit.pk), **HTMX).status_code == 404
    _other, elsewhere = saved(team, [RIGHT])
    owner = login(team.author.user)
    assert owner.post(url(team, "edit_undo", elsewhere, edit_id=edit.pk), **HTMX).status_code == 422  # not its edit
    assert ReportEdit.objects.filter(pk=edit.pk).exists()


def test_a_claim_only_the_summary_states_cannot_be_pinned_and_an_emptied_section_says_why(
    team: Team, login: Callable[[User], Client]
) -> None:
    run = finished_run(team, claims=[RIGHT])
    summary_only = claim(NEW, doc="mail")
    section = Section(facet="news", title="News", claims=(claim(RIGHT),))
    report_save(
        run,
        Report(
            template="competitor", writer="extractive", subject="Halvorix", summary=(summary_only,), sections=(section,)
        ),
    )
    shown(run)
    investigations.investigation_create(actor=team.author, run=run, title="Halvorix watch")
    client = login(team.author.user)
    pin = client.post(url(team, "edit_pin", run), {"key": claim_key(summary_only), "facet": "news"}, **HTMX)
    assert pin.status_code == 422
    strike(client, team, run, RIGHT)
    page = client.get(url(team, "run_page", run)).content.decode()
    assert "Every claim here was struck or moved by analysts." in page
    exported = client.get(url(team, "report_export", run, fmt="md")).content.decode()
    news = exported.split("## News")[1].split("##")[0]
    assert "Every claim here was struck or moved by analysts." in news
    assert "No evidence found" not in news
