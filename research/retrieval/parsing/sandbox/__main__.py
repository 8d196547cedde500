"""The sandboxed child: reads one file on stdin, parses it, writes the outcome as JSON on stdout."""

from __future__ import annotations

import os
import resource
import signal
import sys
import time

from research.retrieval.parsing.dispatch import parse_bytes
from research.retrieval.parsing.sandbox.wire import (
    MEMORY_EXIT_CODE,
    Probe,
    failure_to_json,
    outcome_to_json,
    request_from_json,
)
from research.retrieval.parsing.types import ParseError


def apply_limits(argument: str) -> None:
    """Address space, CPU seconds, file size (its stdout) and no core files, before any untrusted input."""
    memory, cpu, output_cap = (int(part) for part in argument.split(","))
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    resource.setrlimit(resource.RLIMIT_FSIZE, (output_cap, output_cap))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def main(argv: list[str]) -> int:
    apply_limits(argv[2])
    name, options, probe = request_from_json(argv[1])
    if probe is not None:
        _run_probe(probe)
    data = sys.stdin.buffer.read()
    try:
        reply = outcome_to_json(parse_bytes(name, data, options))
    except ParseError as error:
        reply = failure_to_json(error)
    del data
    sys.stdout.write(reply)
    sys.stdout.flush()
    return 0


def _run_probe(probe: Probe) -> None:
    """Misbehave on purpose, so tests and deployment checks can see that the limits hold."""
    if probe == "memory":
        hoard = [bytearray(64 * 2**20) for _ in range(2**12)]
        raise SystemExit(f"allocated {len(hoard)} blocks: the memory limit did not hold")
    if probe == "cpu":
        while True:
            pass
    if probe == "sleep":
        time.sleep(3600)
    if probe == "segfault":
        os.kill(os.getpid(), signal.SIGSEGV)
    if probe == "exception":
        raise RuntimeError("probe: an unexpected exception in the parser")


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except MemoryError:
        os._exit(MEMORY_EXIT_CODE)
