"""Measuring helpers: a monotonic stopwatch, latency percentiles in milliseconds, the peak resident memory."""

from __future__ import annotations

import resource
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np


@dataclass
class Stopwatch:
    """Accumulates named durations (seconds): ``with watch.timing("upsert"): ...``."""

    seconds: dict[str, float] = field(default_factory=dict)

    def timing(self, name: str) -> _Lap:
        return _Lap(self, name)

    def total(self, *names: str) -> float:
        return sum(self.seconds.get(name, 0.0) for name in names)


class _Lap:
    def __init__(self, watch: Stopwatch, name: str) -> None:
        self._watch, self._name, self._start = watch, name, 0.0

    def __enter__(self) -> None:
        self._start = time.perf_counter()

    def __exit__(self, *_: object) -> None:
        elapsed = time.perf_counter() - self._start
        self._watch.seconds[self._name] = self._watch.seconds.get(self._name, 0.0) + elapsed


def percentile_ms(seconds: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (linear interpolation) of durations given in seconds, in milliseconds."""
    if not seconds:
        raise ValueError("no durations")
    return float(np.percentile(np.asarray(seconds) * 1000.0, q))


def peak_rss_mb() -> float:
    """The process's peak resident set size so far (``ru_maxrss``: KiB on Linux, bytes on macOS), in MiB."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (2**20 if sys.platform == "darwin" else 2**10), 1)
