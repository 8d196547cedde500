"""Building the tiny model and running vLLM's OpenAI-compatible server from ``.venv-vllm``, by PID, bounded."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx

from research.inference.openai_compat import OpenAICompatBackend
from tests.support.processes import free_port, start
from tests.vllm.tiny_model import MAX_LEN, SERVED_NAME

TIER = Path(__file__).resolve().parent
REPO = TIER.parents[1]
VLLM_VENV = REPO / ".venv-vllm"
VLLM_PYTHON = VLLM_VENV / "bin" / "python"
BLOCK_SIZE = 32  # the CPU attention backend needs a multiple of 32; prefix hits count whole blocks
BUILD_TIMEOUT = 300.0
START_TIMEOUT = 180.0
STOP_TIMEOUT = 30.0
SERVER_FLAGS = [
    "--dtype",
    "bfloat16",
    "--max-model-len",
    str(MAX_LEN),
    "--enforce-eager",  # torch.compile would add about 30 s of warm-up and gain nothing for this model
    "--enable-prefix-caching",
    "--block-size",
    str(BLOCK_SIZE),
    "--enable-prompt-tokens-details",  # usage.prompt_tokens_details.cached_tokens
    "--enable-auto-tool-choice",
    "--tool-call-parser",
    "hermes",
    "--tool-strict-level",
    "parameter",  # arguments pinned to each tool's JSON schema
    "--exclude-tools-when-tool-choice-none",
]
NOISE = ("nanobind: leaked", " - leaked ", "skipped remainder")  # triton's exit chatter would hide the error
RAISED = re.compile(r"\b[A-Z]\w*(?:Error|Exception): ")  # "ValueError: ...": the cause, often far above the end


MakeBackend = Callable[..., OpenAICompatBackend]  # the make_backend fixture: OpenAICompatBackend(**overrides)


class TierFailure(RuntimeError):
    """The tier cannot run: no virtualenv, no model, or no server. The message says why."""


@dataclass(frozen=True)
class VllmServer:
    base_url: str
    model: str
    pid: int
    log: Path
    block_size: int
    max_model_len: int
    built_by: str
    build_seconds: float
    start_seconds: float


def tail(text: str, lines: int = 60) -> str:
    kept = [line for line in text.splitlines() if not any(noise in line for noise in NOISE)]
    return "\n".join(kept[-lines:])


def log_tail(log: Path) -> str:
    """The exceptions the log reports (a worker's cause comes long before the server's last words), then its end."""
    if not log.exists():
        return "(no log)"
    text = log.read_text(errors="replace")
    raised = dict.fromkeys(line for line in text.splitlines() if RAISED.search(line) and " WARNING " not in line)
    causes = "exceptions in the log:\n" + "\n".join(list(raised)[:8]) + "\n...\n" if raised else ""
    return causes + tail(text)


def builder_python() -> str:
    """This interpreter when it has what the builder needs (torch, tokenizers, transformers), else the tier's."""
    if all(importlib.util.find_spec(name) is not None for name in ("torch", "tokenizers", "transformers")):
        return sys.executable
    return str(VLLM_PYTHON)


def offline_env(root: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST")}
    env.update(
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
        HF_HOME=str(root / "hf-home"),
        VLLM_NO_USAGE_STATS="1",
        DO_NOT_TRACK="1",
        PYTHONUNBUFFERED="1",
    )
    return env


def build_model(out: Path, env: dict[str, str]) -> str:
    """Run tiny_model.py in a child process; returns the interpreter that built it."""
    python = builder_python()
    argv = [python, str(TIER / "tiny_model.py"), str(out)]
    try:
        done = subprocess.run(
            argv, check=False, cwd=REPO, env=env, capture_output=True, text=True, timeout=BUILD_TIMEOUT
        )
    except subprocess.TimeoutExpired:
        raise TierFailure(f"building the tiny model with {python} took over {BUILD_TIMEOUT:.0f}s") from None
    if done.returncode != 0:
        output = tail(done.stdout + done.stderr)
        raise TierFailure(f"building the tiny model with {python} failed (exit {done.returncode}):\n{output}")
    return python


def serves(base_url: str) -> bool:
    try:
        response = httpx.get(f"{base_url}/v1/models", timeout=2.0)
    except httpx.HTTPError:
        return False
    return response.status_code == 200 and SERVED_NAME in {model["id"] for model in response.json()["data"]}


def wait_until_serving(base_url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise TierFailure(
                f"the vLLM server (pid {process.pid}) exited with {process.returncode} before serving "
                f"{base_url}/v1/models; its log ({log}) ends:\n{log_tail(log)}"
            )
        if serves(base_url):
            return
        time.sleep(0.5)
    raise TierFailure(
        f"the vLLM server (pid {process.pid}) did not serve {base_url}/v1/models within {START_TIMEOUT:.0f}s; "
        f"its log ({log}) ends:\n{log_tail(log)}"
    )


def stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM to the server's PID (vLLM stops its engine and worker itself); SIGKILL to its group if it hangs."""
    if process.poll() is None:
        os.kill(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
    with contextlib.suppress(ProcessLookupError):  # an engine or worker process that outlived the server
        os.killpg(process.pid, signal.SIGKILL)


@contextlib.contextmanager
def serving(root: Path) -> Iterator[VllmServer]:
    """Build the tiny model under ``root`` and serve it on a free loopback port until the block exits."""
    if not VLLM_PYTHON.exists():
        raise TierFailure(f"{VLLM_PYTHON} is missing: run `bash scripts/vllm_tier.sh` first (`make test-vllm` does)")
    env = offline_env(root)
    began = time.monotonic()
    built_by = build_model(root / "model", env)
    built = time.monotonic()
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    env.update(
        VLLM_CPU_KVCACHE_SPACE="1",  # GiB
        VLLM_CACHE_ROOT=str(root / "vllm-cache"),
        VIRTUAL_ENV=str(VLLM_VENV),
        PATH=f"{VLLM_PYTHON.parent}{os.pathsep}{env.get('PATH', '')}",
    )
    argv = [
        str(VLLM_PYTHON),
        "-m",
        "vllm.entrypoints.openai.api_server",
        "--model",
        str(root / "model"),
        "--served-model-name",
        SERVED_NAME,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        *SERVER_FLAGS,
    ]
    log = root / "server.log"
    process = start(argv, env=env, log=log)
    try:
        wait_until_serving(base_url, process, log)
        yield VllmServer(
            base_url=base_url,
            model=SERVED_NAME,
            pid=process.pid,
            log=log,
            block_size=BLOCK_SIZE,
            max_model_len=MAX_LEN,
            built_by=built_by,
            build_seconds=round(built - began, 1),
            start_seconds=round(time.monotonic() - built, 1),
        )
    finally:
        stop(process)
