"""The run form sent twice (a double-click, a browser sending it again): one run, the second POST answered with
the first run's page; the form carries a fresh one-time token and disables its button while a request is out."""

from __future__ import annotations

import lxml.html
import pytest
from django.urls import reverse

from research.models import Run
from research.platform.submissions import submission_token

pytestmark = pytest.mark.django_db


def _form(client, workspace):  # type: ignore[no-untyped-def]
    page = lxml.html.fromstring(client.get(reverse("run_index", kwargs={"slug": workspace.slug})).content)
    return page.xpath('//section[@id="run-form"]//form')[0]


def _data(corpus, token):  # type: ignore[no-untyped-def]
    return {
        "question": "Who ships?",
        "corpora": [corpus.pk],
        "template": "question",
        "rollouts": 2,
        "budget": 32768,
        "max_turns": 6,
        "submission": token,
    }


def test_the_form_carries_a_fresh_token_and_disables_its_button_while_sending(team, login) -> None:  # type: ignore[no-untyped-def]
    workspace, _, ada, _, _ = team
    client = login(ada)
    form = _form(client, workspace)
    assert form.get("hx-disabled-elt") == "find button[type='submit']"
    token = form.xpath('.//input[@name="submission"]/@value')[0]
    assert token
    assert token != _form(client, workspace).xpath('.//input[@name="submission"]/@value')[0]


def test_the_same_submission_twice_starts_one_run(team, login) -> None:  # type: ignore[no-untyped-def]
    workspace, corpus, ada, _, _ = team
    client, token = login(ada), submission_token()
    url = reverse("run_index", kwargs={"slug": workspace.slug})
    first = client.post(url, _data(corpus, token))
    second = client.post(url, _data(corpus, token))
    run = Run.objects.get()
    page = reverse("run_page", kwargs={"slug": workspace.slug, "run_id": run.pk})
    assert (first.status_code, first["Location"]) == (302, page)
    assert (second.status_code, second["Location"]) == (302, page)
    again = client.post(url, _data(corpus, token), HTTP_HX_REQUEST="true")
    assert again["HX-Redirect"] == page
    assert Run.objects.count() == 1
    client.post(url, _data(corpus, submission_token()))
    assert Run.objects.count() == 2  # a new drawing of the form is a new submission


def test_a_refused_submission_can_be_corrected_and_sent_with_its_token(team, login) -> None:  # type: ignore[no-untyped-def]
    workspace, corpus, ada, _, _ = team
    client, token = login(ada), submission_token()
    url = reverse("run_index", kwargs={"slug": workspace.slug})
    refused = client.post(url, {**_data(corpus, token), "question": ""}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 422
    assert Run.objects.count() == 0
    assert client.post(url, _data(corpus, token)).status_code == 302  # the refused one claimed nothing
    assert Run.objects.count() == 1
