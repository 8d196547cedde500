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
        ({"SECURE_PROXY_SSL_HEADER": "https"}, "SECURE_PROXY_SSL_HEADER='https' must look like"),
        ({"LOGIN_LOCKOUT_SECONDS": "0"}, "LOGIN_LOCKOUT_SECONDS=0 is below the minimum 1"),
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


def _run(argv: list[str], tmp_path: Path, **overrides: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATA_DIR": str(tmp_path), "DJANGO_SETTINGS_MODULE": "context1_web.settings", **overrides}
    return subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True, timeout=120, check=False)


KEY = "from django.conf import settings; print(settings.SECRET_KEY)"


def test_commands_that_serve_nothing_work_without_a_secret_key(tmp_path: Path) -> None:
    """Issue 11 (8): `manage.py evaluate`, `bench_*`, `migrate`, `check` failed on a fresh clone without one."""
    result = _run([sys.executable, "manage.py", "check"], tmp_path, SECRET_KEY="")
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout
    keys = [_run([sys.executable, "manage.py", "shell", "-c", KEY], tmp_path, SECRET_KEY="") for _ in range(2)]
    assert all(key.returncode == 0 for key in keys), keys[0].stderr
    first, second = (key.stdout.strip().splitlines()[-1] for key in keys)
    assert len(first) >= 50
    assert first != second  # random per process: never a fixed, known key


def test_a_server_or_worker_refuses_to_start_without_a_secret_key(tmp_path: Path) -> None:
    for argv in (
        [sys.executable, "-c", f"import django; django.setup(); {KEY}"],  # what Daphne and the worker do
        [sys.executable, "manage.py", "runserver", "--noreload", "127.0.0.1:0"],
    ):
        result = _run(argv, tmp_path, SECRET_KEY="")
        assert result.returncode != 0, argv
        assert "SECRET_KEY is not set" in result.stderr, argv


def test_the_key_make_run_keeps_is_used_by_every_command(tmp_path: Path) -> None:
    (tmp_path / "secret_key").write_text("kept-by-make-run-" + "x" * 40)
    result = _run([sys.executable, "manage.py", "shell", "-c", KEY], tmp_path, SECRET_KEY="")
    assert result.stdout.strip().splitlines()[-1] == "kept-by-make-run-" + "x" * 40
    server = _run([sys.executable, "-c", f"import django; django.setup(); {KEY}"], tmp_path, SECRET_KEY="")
    assert server.stdout.strip() == "kept-by-make-run-" + "x" * 40
