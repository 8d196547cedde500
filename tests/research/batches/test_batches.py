"""ICP batches: one ICP check run per accepted row, rejected rows kept with reasons, the table sorted and
exported, members only."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from research.batches import selectors, services
from research.investigations import services as investigations
from research.models import IcpBatch, Membership, Report, Run, RunStatus, RunTemplate
from research.protocol.report import CriterionResult
from research.protocol.report import Report as WrittenReport
from research.reporting.services import report_save
from research.workspaces.services import workspace_icp_set

pytestmark = pytest.mark.django_db

CSV = (
    b"name,domain,notes\n"
    b"Halvorix,halvorix.com,met at a fair\n"
    b",nobody.com,\n"
    b'=HYPERLINK("http://evil"),,\n'
    b"Globex,globex.io,\n"
)


@pytest.fixture
def profiled(team):  # type: ignore[no-untyped-def]
    workspace, corpus, ada, vic, eve = team
    owner = Membership.objects.select_related("workspace", "user").get(user=ada, workspace=workspace)
    workspace_icp_set(actor=owner, text="Between 50 and 500 employees | 2\nHeadquartered in the EU")
    owner.workspace.refresh_from_db()
    return owner, corpus, vic, eve


def _judged(run: Run, verdicts: tuple[str, str], fit: float | None, coverage: float) -> None:
    criteria = tuple(
        CriterionResult(name=name, verdict=verdict, reason="r")  # type: ignore[arg-type]
        for name, verdict in zip(("Size", "EU"), verdicts, strict=True)
    )
    report = WrittenReport(
        template="icp", writer="rules", subject=run.subject, criteria=criteria, fit_score=fit, coverage=coverage
    )
    report_save(run, report)
    Run.objects.filter(pk=run.pk).update(status=RunStatus.FINISHED)


def test_a_batch_starts_one_icp_check_per_accepted_row(profiled) -> None:  # type: ignore[no-untyped-def]
    owner, corpus, _vic, _eve = profiled
    batch = services.batch_create(actor=owner, file_name="leads.csv", data=CSV, corpora=[corpus])
    rows = list(batch.rows.select_related("run"))
    assert [(row.line, row.company, row.domain) for row in rows] == [
        (2, "Halvorix", "halvorix.com"),
        (4, '=HYPERLINK("http://evil")', ""),
        (5, "Globex", "globex.io"),
    ]
    assert [item["line"] for item in batch.rejected] == [3]
    assert batch.rejected[0]["reason"] == "no company name"
    for row in rows:
        assert row.run is not None
        assert row.run.template == RunTemplate.ICP
        assert row.run.subject == row.company
        assert [c["description"] for c in row.run.options["criteria"]] == [
            "Between 50 and 500 employees",
            "Headquartered in the EU",
        ]


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        (b"company size\n120\n", "file", "the first line must name the columns"),
        (b"name,domain\n,nobody.com\n", "file", "no row can be checked (line 2: no company name)"),
    ],
)
def test_a_batch_that_cannot_start_says_why_and_starts_nothing(profiled, data, field, message) -> None:  # type: ignore[no-untyped-def]
    owner, corpus, _vic, _eve = profiled
    with pytest.raises(ValidationError) as raised:
        services.batch_create(actor=owner, file_name="leads.csv", data=data, corpora=[corpus])
    assert message in raised.value.message_dict[field][0]
    assert not IcpBatch.objects.exists()
    assert not Run.objects.exists()


def test_a_batch_needs_a_profile(team) -> None:  # type: ignore[no-untyped-def]
    workspace, corpus, ada, _vic, _eve = team
    owner = Membership.objects.get(user=ada, workspace=workspace)
    with pytest.raises(ValidationError) as raised:
        services.batch_create(actor=owner, file_name="leads.csv", data=CSV, corpora=[corpus])
    assert "ideal customer profile first" in raised.value.message_dict["file"][0]


def test_the_table_sorts_by_fit_and_the_export_is_safe_csv(profiled, login) -> None:  # type: ignore[no-untyped-def]
    owner, corpus, vic, eve = profiled
    batch = services.batch_create(actor=owner, file_name="leads.csv", data=CSV, corpora=[corpus])
    halvorix, _evil, globex = [row.run for row in batch.rows.order_by("line")]
    _judged(halvorix, ("match", "unknown"), 1.0, 0.5)
    _judged(globex, ("match", "no_match"), 2 / 3, 1.0)
    by_fit = selectors.batch_rows(membership=owner, batch=batch, sort="fit", descending=True)
    assert [row.company for row in by_fit] == ["Halvorix", "Globex", '=HYPERLINK("http://evil")']
    assert by_fit[1].verdicts == ("match", "no_match")
    assert selectors.batch_progress(by_fit) == (2, 3)
    # A check saved since in a private investigation of its author shows to others as private, verdicts hidden.
    saved = investigations.investigation_create(actor=owner, run=globex, title="Globex fit")
    investigations.investigation_share(actor=owner, investigation=saved, visibility="private")
    vic_sees = selectors.batch_rows(membership=Membership.objects.get(user=vic, workspace=owner.workspace), batch=batch)
    assert [(row.company, row.status, row.fit) for row in vic_sees if row.company == "Globex"] == [
        ("Globex", "private", None)
    ]
    assert (
        next(row for row in selectors.batch_rows(membership=owner, batch=batch) if row.company == "Globex").fit == 2 / 3
    )
    investigations.investigation_share(actor=owner, investigation=saved, visibility="workspace")
    client = login(vic)  # a viewer reads batches
    kwargs = {"slug": owner.workspace.slug, "batch_id": batch.pk}
    page = client.get(reverse("batch_page", kwargs=kwargs)).content.decode()
    assert "2 of 3 checks ended" in page
    assert 'hx-trigger="every 2s"' in page  # still running: the table polls
    assert 'Line 3: <span class="error">no company name</span>' in page
    table = client.get(reverse("batch_table", kwargs=kwargs), {"sort": "fit", "desc": "1"}).content.decode()
    assert table.index("Halvorix") < table.index("Globex")
    exported = client.get(reverse("batch_export", kwargs=kwargs))
    assert exported["Content-Disposition"] == f'attachment; filename="icp-batch-{batch.pk}.csv"'
    lines = list(csv.reader(io.StringIO(exported.content.decode())))
    assert lines[0] == [
        "line",
        "company",
        "domain",
        "notes",
        "status",
        "fit_score",
        "coverage",
        "Between 50 and 500 employees",
        "Headquartered in the EU",
        "report",
    ]
    assert lines[1][:9] == [
        "2",
        "Halvorix",
        "halvorix.com",
        "met at a fair",
        "finished",
        "1.000",
        "0.500",
        "match",
        "unknown",
    ]
    assert lines[1][9].endswith(f"/runs/{halvorix.pk}/")
    assert lines[2][1] == '\'=HYPERLINK("http://evil")'  # never a formula in a spreadsheet
    assert lines[4][:5] == ["3", ", nobody.com, ", "", "", "rejected: no company name"]
    assert login(eve).get(reverse("batch_page", kwargs=kwargs)).status_code == 404
    assert Report.objects.count() == 2


def test_the_form_shows_errors_in_the_icp_card(profiled, login) -> None:  # type: ignore[no-untyped-def]
    owner, corpus, vic, _eve = profiled
    client = login(owner.user)
    url = reverse("batch_create", kwargs={"slug": owner.workspace.slug})
    upload = SimpleUploadedFile("leads.csv", b"company size\n120\n", content_type="text/csv")
    response = client.post(url, {"file": upload, "corpora": [corpus.pk]}, headers={"HX-Request": "true"})
    assert response.status_code == 422
    assert 'id="batch-file-error"' in response.content.decode()
    assert "the first line must name the columns" in response.content.decode()
    good = SimpleUploadedFile("leads.csv", CSV, content_type="text/csv")
    response = client.post(url, {"file": good, "corpora": [corpus.pk]}, headers={"HX-Request": "true"})
    batch = IcpBatch.objects.get()
    assert response["HX-Redirect"] == reverse("batch_page", kwargs={"slug": owner.workspace.slug, "batch_id": batch.pk})
    viewer = login(vic).post(url, {"file": SimpleUploadedFile("l.csv", CSV), "corpora": [corpus.pk]})
    assert viewer.status_code == 403
