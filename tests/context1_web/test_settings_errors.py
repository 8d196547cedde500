"""Bad configuration stops start-up with a one-line reason naming the variable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.processes import REPO


def _check(env_overrides: dict[str, str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATA_DIR": str(tmp_path), "SECRET_KEY": "k", **env_overrides}
    return subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"REDIS_URL": "http://127.0.0.1:6379"}, "REDIS_URL='http://127.0.0.1:6379' must start with one of"),
        ({"WORKER_CONCURRENCY": "lots"}, "WORKER_CONCURRENCY='lots' is not a whole number"),
        ({"DEBUG": "perhaps"}, "DEBUG='perhaps' is not a boolean"),
        ({"CELERY_VISIBILITY_TIMEOUT": "60"}, "CELERY_VISIBILITY_TIMEOUT must exceed"),
        ({"SECRET_KEY": ""}, "SECRET_KEY is not set"),
        ({"INFERENCE_BACKEND": "openai", "VLLM_BASE_URL": ""}, "INFERENCE_BACKEND=openai needs VLLM_BASE_URL"),
        ({"INFERENCE_BACKEND": "scripted"}, "INFERENCE_BACKEND='scripted' must be one of"),
    ],
)
def test_it_fails_start_up_with_a_clear_configuration_error(
    overrides: dict[str, str], message: str, tmp_path: Path
) -> None:
    result = _check(overrides, tmp_path)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert message in result.stderr


def test_it_starts_with_a_valid_configuration(tmp_path: Path) -> None:
    result = _check({"WORKER_CONCURRENCY": "2"}, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout
