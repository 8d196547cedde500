"""A switch that makes model requests to anything but loopback impossible, for test suites."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit

ALLOW_NETWORK = True
"""Whether backends may reach a model server that is not on this machine.

True in production. A test suite sets it to False (``forbid_real_requests()``), after which building or
calling a backend whose URL is not loopback (127.0.0.0/8, ::1, localhost) raises ``RealRequestsForbidden``.
Modelled on pydantic-ai's ``ALLOW_MODEL_REQUESTS`` (``pydantic_ai_slim/pydantic_ai/models/__init__.py``).
"""


class RealRequestsForbidden(RuntimeError):
    """A backend was pointed at a non-loopback model server while ``ALLOW_NETWORK`` is False."""


def forbid_real_requests() -> None:
    """Refuse non-loopback model servers from now on (call it once when a test session starts)."""
    global ALLOW_NETWORK  # noqa: PLW0603 - the switch is module state by design, like pydantic-ai's
    ALLOW_NETWORK = False


@contextmanager
def override_allow_network(allow: bool) -> Iterator[None]:
    """Set ``ALLOW_NETWORK`` for the duration of a ``with`` block, then restore it."""
    global ALLOW_NETWORK  # noqa: PLW0603
    previous, ALLOW_NETWORK = ALLOW_NETWORK, allow
    try:
        yield
    finally:
        ALLOW_NETWORK = previous


def is_loopback(url: str) -> bool:
    host = (urlsplit(url).hostname or "").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_allowed(url: str) -> None:
    """Raise ``RealRequestsForbidden`` when ``url`` leaves this machine and the network is switched off."""
    if not ALLOW_NETWORK and not is_loopback(url):
        raise RealRequestsForbidden(
            f"model requests to {url} are not allowed: ALLOW_NETWORK is False (tests may only reach loopback "
            "servers; wrap the code in override_allow_network(True) to allow it deliberately)"
        )
