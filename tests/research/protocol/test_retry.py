"""The one retry rule: bounded attempts on given errors, a predicate that can stop early, a hook per retry."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from research.protocol.retry import Retry, exponential


class Transient(RuntimeError):
    pass


class Permanent(RuntimeError):
    pass


def flaky(failures: list[Exception]) -> tuple[Callable[[], str], list[int]]:
    """An operation that raises ``failures`` in turn, then answers "ok"; and the list of its attempts."""
    attempts: list[int] = []

    def operation() -> str:
        attempts.append(len(attempts) + 1)
        if failures:
            raise failures.pop(0)
        return "ok"

    return operation, attempts


def flaky_async(failures: list[Exception]) -> tuple[Callable[[], Awaitable[str]], list[int]]:
    operation, attempts = flaky(failures)

    async def call() -> str:
        return operation()

    return call, attempts


def test_exponential_delays_double_from_the_first() -> None:
    assert exponential(3, 0.5) == (0.5, 1.0, 2.0)
    assert exponential(0, 0.5) == ()
    with pytest.raises(ValueError, match="negative"):
        exponential(-1, 0.5)


def test_it_retries_then_succeeds_calling_the_hook_with_each_delay() -> None:
    operation, attempts = flaky([Transient("a"), Transient("b")])
    seen: list[tuple[str, float]] = []
    retry = Retry(on=Transient, delays=(0.0, 0.001, 0.002), before_retry=lambda e, d: seen.append((str(e), d)))
    assert retry.call(operation) == "ok"
    assert attempts == [1, 2, 3]
    assert seen == [("a", 0.0), ("b", 0.001)]


def test_it_gives_up_after_one_attempt_more_than_there_are_delays() -> None:
    operation, attempts = flaky([Transient(str(n)) for n in range(5)])
    retry = Retry(on=Transient, delays=(0.0, 0.0))
    with pytest.raises(Transient, match=r"^2$"):
        retry.call(operation)
    assert attempts == [1, 2, 3]
    assert retry.attempts == 3


def test_it_does_not_retry_other_errors() -> None:
    operation, attempts = flaky([Permanent("no")])
    with pytest.raises(Permanent):
        Retry(on=(Transient, KeyError), delays=(0.0, 0.0)).call(operation)
    assert attempts == [1]


def test_it_stops_as_soon_as_the_predicate_refuses() -> None:
    operation, attempts = flaky([Transient("retry me"), Transient("not me"), Transient("never")])
    hooked: list[str] = []
    retry = Retry(
        on=Transient,
        delays=(0.0, 0.0, 0.0),
        may_retry=lambda error: str(error) == "retry me",
        before_retry=lambda error, delay: hooked.append(str(error)),
    )
    with pytest.raises(Transient, match="not me"):
        retry.call(operation)
    assert attempts == [1, 2]
    assert hooked == ["retry me"]


async def test_the_async_form_retries_then_succeeds_or_gives_up() -> None:
    succeeding, attempts = flaky_async([Transient("a")])
    assert await Retry(on=Transient, delays=(0.0,)).call_async(succeeding) == "ok"
    assert attempts == [1, 2]
    failing, attempts = flaky_async([Transient("a"), Transient("b")])
    with pytest.raises(Transient, match="b"):
        await Retry(on=Transient, delays=(0.0,)).call_async(failing)
    assert attempts == [1, 2]


async def test_the_async_form_respects_the_predicate() -> None:
    refused, attempts = flaky_async([Transient("a")])
    with pytest.raises(Transient, match="a"):
        await Retry(on=Transient, delays=(0.0,), may_retry=lambda error: False).call_async(refused)
    assert attempts == [1]
