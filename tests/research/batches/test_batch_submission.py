"""The batch form sent twice (a double-click on "Check companies"): one batch, the second POST answered with the
first batch's page."""

from __future__ import annotations

import lxml.html
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from research.models import IcpBatch, Membership
from research.platform.submissions import submission_token
from research.workspaces.services import workspace_icp_set

pytestmark = pytest.mark.django_db
CSV = b"name,domain\nHalvorix,halvorix.com\nGlobex,globex.io\n"


def test_the_same_batch_submission_twice_starts_one_batch(team, login) -> None:  # type: ignore[no-untyped-def]
    workspace, corpus, ada, _, _ = team
    owner = Membership.objects.select_related("workspace", "user").get(user=ada, workspace=workspace)
    workspace_icp_set(actor=owner, text="Between 50 and 500 employees\nHeadquartered in the EU")
    client, token = login(ada), submission_token()
    url = reverse("batch_create", kwargs={"slug": workspace.slug})

    def post(**headers: str):  # type: ignore[no-untyped-def]
        upload = SimpleUploadedFile("leads.csv", CSV, content_type="text/csv")
        return client.post(url, {"file": upload, "corpora": [corpus.pk], "submission": token}, **headers)

    first, second = post(), post(HTTP_HX_REQUEST="true")
    batch = IcpBatch.objects.get()
    target = reverse("batch_page", kwargs={"slug": workspace.slug, "batch_id": batch.pk})
    assert (first.status_code, first["Location"]) == (302, target)
    assert second["HX-Redirect"] == target
    assert IcpBatch.objects.count() == 1
    assert batch.rows.count() == 2
    page = lxml.html.fromstring(client.get(reverse("workspace_detail", kwargs={"slug": workspace.slug})).content)
    form = page.xpath('//form[.//button[normalize-space()="Check companies"]]')[0]
    assert form.get("hx-disabled-elt") == "find button[type='submit']"  # the button is off while it is sent
    assert len(form.xpath('.//input[@name="submission"]/@value')[0]) >= 16
