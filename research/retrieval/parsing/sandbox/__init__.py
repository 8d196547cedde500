"""Parsing in a separate, resource-limited process: memory, CPU time, wall-clock time and output are capped."""

from __future__ import annotations

import contextlib
import dataclasses
import math
import os
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from research.retrieval.parsing.dispatch import DEFAULT_OPTIONS
from research.retrieval.parsing.sandbox.wire import MEMORY_EXIT_CODE, Probe, reply_from_json, request_to_json
from research.retrieval.parsing.types import ParseError, ParseOptions, ParseOutcome

_PROJECT_ROOT = Path(__file__).resolve().parents[4]
_CHILD_MODULE = "research.retrieval.parsing.sandbox"
_STDERR_TAIL_BYTES = 4096
_REPLY_OVERHEAD_BYTES = 64 * 2**20
_MEMORY_WORDS = ("MemoryError", "Cannot allocate memory", "out of memory", "bad_alloc")


@dataclass(frozen=True)
class SandboxLimits:
    """What one parse may use; over a limit, the child is killed and the parse fails with a clear reason."""

    timeout_s: float = 60.0
    memory_mb: int = 1024
    max_output_chars: int = 20_000_000


DEFAULT_LIMITS = SandboxLimits()


@dataclass(frozen=True)
class _Finished:
    returncode: int
    stdout: bytes
    stderr_tail: str


def parse_in_sandbox(
    name: str, data: bytes, options: ParseOptions = DEFAULT_OPTIONS, limits: SandboxLimits = DEFAULT_LIMITS
) -> ParseOutcome:
    """parse_bytes in a child process under the limits; every failure comes back as a ParseError."""
    chars = min(options.max_output_chars, limits.max_output_chars)
    request = request_to_json(name, dataclasses.replace(options, max_output_chars=chars), None)
    return _interpret(_run_child(request, data, limits), limits)


def probe_sandbox(probe: Probe, limits: SandboxLimits = DEFAULT_LIMITS) -> ParseOutcome:
    """Run a child that misbehaves on purpose ("memory", "cpu", ...): the ParseError shows which limit held."""
    return _interpret(_run_child(request_to_json("probe.txt", DEFAULT_OPTIONS, probe), b"", limits), limits)


def _run_child(request: str, data: bytes, limits: SandboxLimits) -> _Finished:
    output_cap = 6 * limits.max_output_chars + len(data) + _REPLY_OVERHEAD_BYTES
    with tempfile.TemporaryFile() as stdin, tempfile.TemporaryFile() as stdout, tempfile.TemporaryFile() as stderr:
        stdin.write(data)
        stdin.seek(0)
        process = subprocess.Popen(
            [sys.executable, "-m", _CHILD_MODULE, request, limit_argument(limits, output_cap)],
            stdin=stdin,
            stdout=stdout,
            stderr=stderr,
            cwd=_PROJECT_ROOT,
            start_new_session=True,
        )
        try:
            returncode = process.wait(timeout=limits.timeout_s)
        except subprocess.TimeoutExpired:
            raise ParseError(f"parsing took longer than {limits.timeout_s:g}s") from None
        finally:
            _kill(process)
        return _Finished(returncode, _read_all(stdout), _read_tail(stderr))


def limit_argument(limits: SandboxLimits, output_cap: int) -> str:
    """The child's resource limits, which it sets on itself before reading the file.

    (Setting them in ``preexec_fn`` would run Python between fork and exec, which can deadlock in a
    process with threads, such as a Celery worker with the threads pool.)
    """
    return f"{limits.memory_mb * 2**20},{max(1, math.ceil(limits.timeout_s))},{output_cap}"


def _interpret(finished: _Finished, limits: SandboxLimits) -> ParseOutcome:
    code = finished.returncode
    if code == 0:
        return reply_from_json(finished.stdout.decode("utf-8", "replace"))
    if code == MEMORY_EXIT_CODE or any(word in finished.stderr_tail for word in _MEMORY_WORDS):
        raise ParseError(f"parsing needed more than {limits.memory_mb} MB of memory")
    if code == -signal.SIGXCPU:
        raise ParseError(f"parsing took longer than {limits.timeout_s:g}s")
    if code == -signal.SIGXFSZ:
        raise ParseError(f"parsing produced more output than the limit of {limits.max_output_chars:,} characters")
    if code < 0:
        raise ParseError(f"parser crashed: killed by {signal.Signals(-code).name}")
    last_line = finished.stderr_tail.strip().splitlines()[-1:] or [f"exit status {code}"]
    raise ParseError(f"parser crashed: {last_line[0]}")


def _kill(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def _read_all(stream: IO[bytes]) -> bytes:
    stream.seek(0)
    return stream.read()


def _read_tail(stream: IO[bytes]) -> str:
    size = stream.seek(0, os.SEEK_END)
    stream.seek(max(0, size - _STDERR_TAIL_BYTES))
    return stream.read().decode("utf-8", "replace")
