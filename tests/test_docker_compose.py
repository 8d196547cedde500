"""docker-compose.yml is valid against the Compose specification and wires the services correctly."""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from tests.support import topology
from tests.support.processes import REPO
from worker.queues import QUEUE_NAMES

SCHEMA = Path(__file__).parent / "data" / "compose-spec.json"


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    document = yaml.safe_load((REPO / "docker-compose.yml").read_text())
    assert isinstance(document, dict)
    return document


def _validate(document: dict[str, Any]) -> None:
    jsonschema.Draft7Validator(json.loads(SCHEMA.read_text())).validate(document)


def test_it_validates_against_the_compose_spec_schema(compose: dict[str, Any]) -> None:
    _validate(compose)


def test_the_schema_rejects_a_broken_file(compose: dict[str, Any]) -> None:
    broken = {**compose, "services": {**compose["services"], "web": {**compose["services"]["web"], "prots": [1]}}}
    with pytest.raises(jsonschema.ValidationError):
        _validate(broken)


def test_it_has_every_service_with_a_health_check(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert {"web", "worker", "beat", "redis", "postgres", "chroma", "searxng", "vllm"} <= set(services)
    for name in ("web", "worker", "redis", "postgres", "chroma", "searxng", "vllm"):
        assert "healthcheck" in services[name], name


def test_dependencies_name_real_services_and_wait_for_health(compose: dict[str, Any]) -> None:
    services = compose["services"]
    for name, service in services.items():
        depends = service.get("depends_on", {})
        for dependency, condition in depends.items():
            assert dependency in services, f"{name} depends on unknown {dependency}"
            assert condition["condition"] in {"service_healthy", "service_completed_successfully"}
            if services[dependency].get("profiles"):
                assert condition.get("required") is False, f"{name} must not require profiled {dependency}"


def test_named_volumes_are_declared(compose: dict[str, Any]) -> None:
    declared = set(compose.get("volumes", {}))
    for service in compose["services"].values():
        for volume in service.get("volumes", []):
            source = volume.split(":", 1)[0] if isinstance(volume, str) else volume["source"]
            if not source.startswith((".", "/")):
                assert source in declared, source


def test_vllm_is_a_gpu_profile_serving_context1_with_tool_calls(compose: dict[str, Any]) -> None:
    vllm = compose["services"]["vllm"]
    assert vllm["profiles"] == ["gpu"]
    command = " ".join(vllm["command"])
    assert "chromadb/context-1" in command
    for flag in (
        "--enable-auto-tool-choice",
        "--tool-call-parser openai",
        "--enable-prefix-caching",
        "--enable-prompt-tokens-details",
    ):
        assert flag in command
    devices = vllm["deploy"]["resources"]["reservations"]["devices"]
    assert devices[0]["capabilities"] == ["gpu"]


def test_the_app_services_share_one_configuration(compose: dict[str, Any]) -> None:
    services = compose["services"]
    envs = [services[name]["environment"] for name in ("web", "worker", "beat")]
    for key in ("DATABASE_URL", "REDIS_URL", "CHROMA_URL", "SECRET_KEY"):
        assert len({str(env.get(key)) for env in envs}) == 1, key
        assert envs[0].get(key), key


def test_the_compose_file_runs_the_processes_the_topology_test_starts(compose: dict[str, Any]) -> None:
    services, shared = compose["services"], compose["x-app-environment"]
    for name, (arguments, own) in topology.PROCESSES.items():
        command = services[name]["command"]
        assert command[0] == "python", name
        assert tuple(command[1 : 1 + len(arguments)]) == arguments, name
        environment = services[name]["environment"]
        for key, value in {**topology.SHARED, **own}.items():
            assert _interpolate(str(environment.get(key, shared.get(key))), {}) == value, (name, key)
        assert environment.get("WORKER_QUEUES", "") == own.get("WORKER_QUEUES", ""), name
    assert shared["WORKER_POOL"] == topology.SHARED["WORKER_POOL"]
    workers = {name for name, service in services.items() if service.get("command", [])[1:3] == ["-m", "worker"]}
    assert workers - {"beat"} == {"worker", "worker-ingest"}  # every queue consumed, by the processes the test runs
    queues = {
        q for name in ("worker", "worker-ingest") for q in services[name]["environment"]["WORKER_QUEUES"].split(",")
    }
    assert queues == set(QUEUE_NAMES)


APP_SERVICES = ("migrate", "web", "worker", "worker-ingest", "beat")


def test_every_setting_an_operator_sets_in_env_reaches_the_app_processes(compose: dict[str, Any]) -> None:
    """Issue 32 (3): compose passes only the variables it names, so a limit or an e-mail setting put in .env never
    reached a container. The app services load .env under their own environment, and every variable the compose
    file sets is one the settings read (a misspelt name would be silently ignored)."""
    read = topology.settings_variables()
    for name in APP_SERVICES:
        service = compose["services"][name]
        assert {"path": ".env", "required": False} in service["env_file"], name
        assert set(service["environment"]) - read == set(), name
    assert set(topology.dotenv((REPO / ".env.example").read_text())) >= read  # what an operator can set


def test_env_example_leaves_the_compose_files_defaults_alone() -> None:
    """A .env made from .env.example must not turn the compose file's defaults (HTTPS redirect, HSTS, SearXNG, two
    worker processes) into `make run`'s: a variable compose defaults is empty there, so each keeps its own."""
    text = (REPO / "docker-compose.yml").read_text()
    defaulted = {name for name, default in re.findall(r"\$\{([A-Z_][A-Z0-9_]*):-([^}]*)\}", text) if default}
    example = topology.dotenv((REPO / ".env.example").read_text())
    assert len(defaulted) > 5
    assert {name: example[name] for name in defaulted if example.get(name)} == {}


def _interpolate(value: str, given: dict[str, str]) -> str:
    """Compose's ``${VAR:-default}`` and ``${VAR:?message}``, with ``given`` as the .env file."""

    def one(match: re.Match[str]) -> str:
        name, operator, rest = match.group(1), match.group(2), match.group(3)
        if given.get(name):  # both forms take an empty value for an unset one
            return given[name]
        assert operator == ":-", f"{name} must be given ({rest})"
        return rest

    return re.sub(r"\$\{([A-Z_][A-Z0-9_]*)(:-|:\?)([^}]*)\}", one, value)


def test_check_deploy_passes_with_the_compose_environment(compose: dict[str, Any], tmp_path: Path) -> None:
    """Issue 11 (17): `manage.py check --deploy` gave W004, W008, W012 and W016 with this environment. The
    operator's .env is .env.example with a secret key (and vLLM's address), loaded as compose loads it: under the
    service's own environment (issue 32 (3))."""
    given = {"SECRET_KEY": secrets.token_urlsafe(50), "VLLM_BASE_URL": "http://vllm:8000"}
    dotenv = {**topology.dotenv((REPO / ".env.example").read_text()), **given}
    own = {key: _interpolate(str(value), dotenv) for key, value in compose["services"]["web"]["environment"].items()}
    web = {**dotenv, **own}
    web["DATA_DIR"] = str(tmp_path)  # /data is the container's volume
    env = {key: value for key, value in os.environ.items() if key not in web and not key.startswith("PYTEST")}
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=REPO,
        env={**env, **web, "STATIC_ROOT": str(tmp_path / "static")},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout
    assert _setting(env | web | {"STATIC_ROOT": str(tmp_path / "static")}, "INFERENCE_BACKEND") == "openai"
    # a .env from an older .env.example (INFERENCE_BACKEND=heuristic) beside vLLM: check --deploy says so
    older = {**env, **web, "INFERENCE_BACKEND": "heuristic", "STATIC_ROOT": str(tmp_path / "static")}
    warned = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=REPO,
        env=older,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert warned.returncode == 1
    assert "research.W001" in warned.stderr + warned.stdout
    assert web["SECURE_PROXY_SSL_HEADER"] == "X-Forwarded-Proto: https"
    assert "--proxy-headers" not in compose["services"]["web"]["command"]  # X-Forwarded-For: TRUSTED_PROXIES only
    assert compose["services"]["web"]["ports"] == ["127.0.0.1:8000:8000"]  # reached through the proxy only


def _setting(env: dict[str, str], name: str) -> str:
    """One setting's value as a process with ``env`` reads it."""
    code = f"import django; django.setup(); from django.conf import settings; print(settings.{name})"
    environment = {**env, "DJANGO_SETTINGS_MODULE": "context1_web.settings"}
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=environment, capture_output=True, text=True, timeout=60, check=True
    )
    return result.stdout.strip().splitlines()[-1]


def test_searxng_serves_json_to_the_workers_only(compose: dict[str, Any]) -> None:
    searxng = compose["services"]["searxng"]
    assert "ports" not in searxng  # a metasearch front end on a host port would be an open relay
    assert ":" in searxng["image"]
    assert not searxng["image"].endswith(":latest")
    mounted = searxng["volumes"][0].split(":")[0]
    settings = yaml.safe_load((REPO / mounted).read_text())
    assert "json" in settings["search"]["formats"]
    app = compose["x-app-environment"]
    assert app["SEARXNG_URL"] == "http://searxng:8080"
    assert app["WEB_SEARCH_PROVIDER"].startswith("${WEB_SEARCH_PROVIDER:-searxng")
    assert compose["services"]["worker"]["depends_on"]["searxng"]["condition"] == "service_healthy"
