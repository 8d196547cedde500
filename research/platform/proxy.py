"""The client's address behind a proxy: ``X-Forwarded-For`` is believed only from a proxy named in
``TRUSTED_PROXIES`` (addresses or networks), never from the client itself.

Daphne's ``--proxy-headers`` believed the header from anyone, so a client that reached the web port without the proxy
chose its own address and walked past the per-address login limit. Here the request's ``REMOTE_ADDR`` (the peer that
connected) is replaced only when that peer is a trusted proxy, by the right-most address of ``X-Forwarded-For`` that
is not a trusted proxy itself (the proxies append, so what the client wrote stands to the left of it).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Sequence
from functools import cache

from django.conf import settings
from django.http import HttpRequest, HttpResponse

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@cache
def _trusted(entries: tuple[str, ...]) -> tuple[Network, ...]:
    """``TRUSTED_PROXIES`` as networks ("10.0.0.5", "172.16.0.0/12", "::1"; checked at start-up by the settings)."""
    return tuple(ipaddress.ip_network(entry.strip(), strict=False) for entry in entries)


def _is_trusted(address: str, trusted: Sequence[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return False
    return any(ip.version == net.version and ip in net for net in trusted)


def client_address(peer: str, forwarded_for: str, trusted: Sequence[Network]) -> str:
    """The client's address: the peer, unless it is a trusted proxy; then the right-most forwarded address that is
    not one (the peer when the header names none)."""
    if not trusted or not _is_trusted(peer, trusted):
        return peer
    for hop in reversed([part.strip() for part in forwarded_for.split(",") if part.strip()]):
        if not _is_trusted(hop, trusted):
            try:
                return str(ipaddress.ip_address(hop))
            except ValueError:
                return peer  # a forged or broken entry: the proxy's own address is all that is known
    return peer


class TrustedProxyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        trusted = _trusted(tuple(getattr(settings, "TRUSTED_PROXIES", ())))
        peer = str(request.META.get("REMOTE_ADDR") or "")
        request.META["REMOTE_ADDR"] = client_address(peer, str(request.META.get("HTTP_X_FORWARDED_FOR", "")), trusted)
        return self.get_response(request)
