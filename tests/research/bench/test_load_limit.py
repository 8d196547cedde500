"""bench_load's limit: the largest level that held the target with every smaller level holding it too."""

from __future__ import annotations

from typing import Any

from research.bench.load import holds, limit_of


def level(runs: int, viewers: int, p95: float | None, lost: int = 0, errors: tuple[str, ...] = ()) -> dict[str, Any]:
    return {
        "runs": runs,
        "viewers_per_run": viewers,
        "p95_ms": p95,
        "lost": lost,
        "errors": list(errors),
        "runs_finished": runs,
    }


def test_a_level_holds_only_under_the_latency_target_with_nothing_lost_and_no_error() -> None:
    assert holds(level(1, 1, 249.9))
    assert not holds(level(1, 1, 250.0))
    assert not holds(level(1, 1, 10.0, lost=1))
    assert not holds(level(1, 1, 10.0, errors=("socket closed",)))
    assert not holds(level(1, 1, None))
    assert not holds({**level(2, 1, 10.0), "runs_finished": 1})


def test_the_limit_is_not_a_lucky_level_above_a_failed_one() -> None:
    levels = [level(1, 1, 50), level(1, 4, 90), level(2, 1, 300), level(2, 4, 400), level(4, 1, 200)]
    assert limit_of(levels) == {"runs": 1, "viewers_per_run": 4}
    assert limit_of([level(1, 1, 300), level(2, 1, 100)]) is None
    assert limit_of([level(1, 1, 50), level(2, 1, 60), level(1, 2, 70)]) == {"runs": 2, "viewers_per_run": 1}
