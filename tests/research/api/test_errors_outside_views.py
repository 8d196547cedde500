"""A request Django refuses before any view runs (an empty Host header) still gets the API's problem+json under
/api/ (found by the API fuzz test: Django's HTML 400 page), and the plain 400 page elsewhere."""

from __future__ import annotations

import json

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_an_empty_host_header_gets_a_problem_under_the_api_and_the_plain_page_elsewhere() -> None:
    client = Client()
    answer = client.post("/api/v1/workspaces/nowhere/corpora/none/files", HTTP_HOST="")
    assert answer.status_code == 400
    assert answer["Content-Type"] == "application/problem+json"
    assert json.loads(answer.content)["type"] == "/api/v1/problems/malformed"
    page = client.get("/accounts/login/", HTTP_HOST="")
    assert page.status_code == 400
    assert page["Content-Type"].startswith("text/html")
