"""Bounded retries of transient failures: one rule for every client, sync and async (no dependencies).

``Retry(on=..., delays=...).call(operation)`` calls the operation; when it raises one of the ``on`` errors
and ``may_retry(error)`` allows, the optional ``before_retry(error, delay)`` hook runs (log, close a
connection), the next of ``delays`` seconds passes, and the operation is called again: ``attempts`` (the
delays plus one) calls at most. The last failure, or one not retried, propagates unchanged, so callers add
their own context (where, how many attempts) around it. ``call_async`` does the same without blocking the loop.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")
Errors = type[BaseException] | tuple[type[BaseException], ...]
RetryHook = Callable[[BaseException, float], None]  # (the failure, seconds until the next attempt)


def _always(error: BaseException) -> bool:
    return True


def exponential(retries: int, first: float) -> tuple[float, ...]:
    """``retries`` delays doubling from ``first`` seconds: ``first * 2**n`` before retry ``n + 1``."""
    if retries < 0 or first < 0:
        raise ValueError("retries and the first delay must not be negative")
    return tuple(first * 2**n for n in range(retries))


@dataclass(frozen=True)
class Retry:
    """Which errors to retry, the seconds to wait before each retry, when not to, and what to do before one."""

    on: Errors
    delays: tuple[float, ...]
    may_retry: Callable[[BaseException], bool] = _always
    before_retry: RetryHook | None = None

    @property
    def attempts(self) -> int:
        return len(self.delays) + 1

    def call(self, operation: Callable[[], T]) -> T:
        for delay in self.delays:
            try:
                return operation()
            except self.on as error:
                self._allow(error, delay)
            time.sleep(delay)
        return operation()

    async def call_async(self, operation: Callable[[], Awaitable[T]]) -> T:
        for delay in self.delays:
            try:
                return await operation()
            except self.on as error:
                self._allow(error, delay)
            await asyncio.sleep(delay)
        return await operation()

    def _allow(self, error: BaseException, delay: float) -> None:
        """Re-raise ``error`` unless it may be retried; else run the hook before the wait."""
        if not self.may_retry(error):
            raise error
        if self.before_retry is not None:
            self.before_retry(error, delay)
