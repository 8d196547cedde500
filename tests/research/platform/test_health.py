"""/healthz: every service checked, each bounded by a timeout; public, so no software versions."""

from __future__ import annotations

import logging
import re
import threading
from pathlib import Path
from typing import Any
from unittest.mock import ANY

import pytest
from django.contrib.auth.models import User
from django.test import Client

from context1_web.backing_services import redis_config
from tests.support.http_stub import serve

MODELS = {"object": "list", "data": [{"id": "chromadb/context-1", "object": "model"}]}


def test_it_reports_every_service_ok_and_vllm_unconfigured(client: Client, db: None) -> None:
    response = client.get("/healthz")
    report = response.json()
    assert response.status_code == 200, report
    assert report["ok"] is True
    assert {name for name, check in report["checks"].items() if check["ok"]} == {"database", "redis", "chroma", "vllm"}
    assert report["checks"]["vllm"]["configured"] is False
    assert response["Cache-Control"].startswith("max-age=0")


def test_it_tells_an_anonymous_client_no_software_version(client: Client, db: None) -> None:
    """Issue 11 (17): the Redis check said ``redis 7.0.15 (external)``."""
    report = client.get("/healthz").json()
    assert report["checks"]["redis"]["detail"] in {"redis (embedded)", "redis (external)"}
    assert set(report) == {"ok", "checks"}
    assert set(report["checks"]["redis"]) == {"ok", "ms", "detail", "configured"}
    assert not re.search(r"\d+\.\d+\.\d+", client.get("/healthz").content.decode())


def test_it_checks_a_configured_vllm_serves_the_model(client: Client, db: None, settings: Any) -> None:
    with serve({"/v1/models": lambda: (200, MODELS)}) as url:
        settings.VLLM_BASE_URL = url
        report = client.get("/healthz").json()
    assert report["checks"]["vllm"] == {**report["checks"]["vllm"], "ok": True, "configured": True}
    assert "chromadb/context-1" in report["checks"]["vllm"]["detail"]


def test_it_fails_when_vllm_serves_another_model_naming_the_cause_to_staff_only(
    client: Client, db: None, settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 11 (17): a failure's text named the hosts, ports and models of the deployment to anyone."""
    other = {"data": [{"id": "some/other-model"}]}
    with serve({"/v1/models": lambda: (200, other)}) as url, caplog.at_level(logging.WARNING):
        settings.VLLM_BASE_URL = url
        anonymous = client.get("/healthz")
        client.force_login(User.objects.create_user("ops", is_staff=True))
        staff = client.get("/healthz")
    assert anonymous.status_code == staff.status_code == 503
    assert anonymous.json()["checks"]["vllm"] == {"ok": False, "ms": ANY, "detail": "failed", "configured": True}
    assert "other-model" not in anonymous.content.decode()
    assert url not in anonymous.content.decode()
    assert "not served (serving: some/other-model)" in staff.json()["checks"]["vllm"]["detail"]
    assert "health check vllm failed" in caplog.text
    assert "some/other-model" in caplog.text


def test_it_reports_a_hanging_vllm_within_the_timeout(client: Client, db: None, settings: Any) -> None:
    release = threading.Event()

    def hang() -> tuple[int, Any]:
        release.wait(10)
        return 200, MODELS

    with serve({"/v1/models": hang}) as url:
        settings.VLLM_BASE_URL = url
        settings.HEALTH_CHECK_TIMEOUT = 0.3
        response = client.get("/healthz")
        release.set()
    check = response.json()["checks"]["vllm"]
    assert response.status_code == 503
    assert check["ok"] is False
    assert check["detail"] == "timed out"


def test_it_reports_an_unreachable_redis(client: Client, db: None, settings: Any, tmp_path: Path) -> None:
    settings.REDIS = redis_config(url=None, data_dir=tmp_path, key_prefix="t")  # no server on that socket
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"]["redis"] == {"ok": False, "ms": ANY, "detail": "failed", "configured": True}
    assert str(tmp_path) not in response.content.decode()  # the socket's path stays in the log
    assert response.json()["checks"]["database"]["ok"] is True
