"""Reachability checks of the services the product depends on, each bounded by a timeout, naming no versions.

The endpoint is public: a failure's cause (an exception's text names hosts, ports, paths, the models a server
serves) is logged and shown to staff only; anyone else reads ``failed`` or ``timed out``."""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import asdict, dataclass
from typing import Any

import httpx
import redis
from django.conf import settings
from django.db import connection

from research.platform.composition import chroma_client

log = logging.getLogger(__name__)
PUBLIC_FAILURE = "failed"
TIMED_OUT = "timed out"


@dataclass(frozen=True)
class CheckResult:
    ok: bool
    ms: float
    detail: str
    configured: bool = True


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        return connection.vendor
    finally:
        connection.close()  # this runs in a pool thread: do not leave its connection open


def _redis() -> str:
    timeout = settings.HEALTH_CHECK_TIMEOUT
    client = redis.Redis.from_url(settings.REDIS.client_url, socket_timeout=timeout, socket_connect_timeout=timeout)
    try:
        client.ping()
    finally:
        client.close()
    # No version (nor anything else a probe could match against advisories): the endpoint is public.
    return f"redis ({'embedded' if settings.REDIS.embedded else 'external'})"


def _chroma() -> str:
    if settings.CHROMA.url is not None:
        response = httpx.get(f"{settings.CHROMA.url}/api/v2/heartbeat", timeout=settings.HEALTH_CHECK_TIMEOUT)
        response.raise_for_status()
        return "chroma server"
    chroma_client().heartbeat()
    return "chroma embedded"


def _vllm() -> str:
    headers = {"Authorization": f"Bearer {settings.VLLM_API_KEY}"} if settings.VLLM_API_KEY else {}
    response = httpx.get(f"{settings.VLLM_BASE_URL}/v1/models", headers=headers, timeout=settings.HEALTH_CHECK_TIMEOUT)
    response.raise_for_status()
    served = [model.get("id") for model in response.json().get("data", [])]
    if settings.VLLM_MODEL not in served:
        raise LookupError(f"model {settings.VLLM_MODEL!r} not served (serving: {', '.join(map(str, served))})")
    return f"serving {settings.VLLM_MODEL}"


def _timed(check: Callable[[], str]) -> CheckResult:
    started = time.perf_counter()
    try:
        detail, ok = check(), True
    except Exception as error:  # every failure is reported, never raised
        detail, ok = f"{type(error).__name__}: {error}"[:300], False
    return CheckResult(ok=ok, ms=round((time.perf_counter() - started) * 1000, 1), detail=detail)


def _checks() -> dict[str, Callable[[], str] | None]:
    return {
        "database": _database,
        "redis": _redis,
        "chroma": _chroma,
        "vllm": _vllm if settings.VLLM_BASE_URL else None,
    }


def health_report(*, details: bool = False) -> dict[str, Any]:
    """Run every configured check concurrently; ``ok`` is true only if all configured checks pass. A failed
    check's cause is logged, and in the report only with ``details`` (staff)."""
    deadline = settings.HEALTH_CHECK_TIMEOUT + 1.0
    results: dict[str, CheckResult] = {}
    pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="health")
    try:
        futures = {name: pool.submit(_timed, check) for name, check in _checks().items() if check is not None}
        for name, future in futures.items():
            try:
                results[name] = future.result(timeout=deadline)
            except FutureTimeout:
                results[name] = CheckResult(ok=False, ms=deadline * 1000, detail=TIMED_OUT)
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
    if settings.VLLM_BASE_URL is None:
        results["vllm"] = CheckResult(
            ok=True, ms=0.0, detail="not configured: offline heuristic backend", configured=False
        )
    for name, result in results.items():
        if not result.ok:
            log.warning("health check %s failed after %.0f ms: %s", name, result.ms, result.detail)
    shown = results if details else {name: _public(result) for name, result in results.items()}
    return {"ok": all(result.ok for result in results.values()), "checks": {k: asdict(v) for k, v in shown.items()}}


def _public(result: CheckResult) -> CheckResult:
    """What an anonymous client may read of a check: a failure's cause is only ``failed`` or ``timed out``."""
    if result.ok:
        return result
    timed_out = result.detail == TIMED_OUT or "timeout" in result.detail.lower()
    return dataclasses.replace(result, detail=TIMED_OUT if timed_out else PUBLIC_FAILURE)
