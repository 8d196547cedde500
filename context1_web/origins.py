"""The WebSocket origin check: a socket is opened only by a page of the site itself, the same scheme, host and port
as the request (or an origin in ``CSRF_TRUSTED_ORIGINS``), on a host in ``ALLOWED_HOSTS``.

Channels' ``AllowedHostsOriginValidator`` compares the host alone, so a page served on another port of the same host
(another application, a developer's tool) could open a signed-in user's sockets; Django's CSRF check, which the
page's forms go through, compares the port too. Behind a TLS proxy the scheme is the one
``SECURE_PROXY_SSL_HEADER`` names, as Django reads it for HTTP.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

_DEFAULT_PORTS = {"http": "80", "https": "443"}


def _header(scope: dict[str, Any], name: bytes) -> str:
    for key, value in scope.get("headers", []):
        if key == name:
            return str(value.decode("latin1"))
    return ""


def _normalised(origin: str) -> str | None:
    """``scheme://host[:port]`` lower-cased without the scheme's default port; None when it is no origin."""
    try:
        parts = urlsplit(origin.strip().lower())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in _DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/"):
        return None
    shown = "" if port is None or str(port) == _DEFAULT_PORTS[parts.scheme] else f":{port}"
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{parts.scheme}://{host}{shown}"


def _scheme(scope: dict[str, Any]) -> str:
    if scope.get("scheme") in ("wss", "https"):
        return "https"
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy:
        name, value = proxy
        header = name.removeprefix("HTTP_").replace("_", "-").lower().encode()
        if _header(scope, header).split(",")[0].strip() == value:
            return "https"
    return "http"


def site_origins(scope: dict[str, Any]) -> set[str]:
    """The origins a socket of this request may be opened from."""
    trusted = {found for origin in settings.CSRF_TRUSTED_ORIGINS if (found := _normalised(origin))}
    host = _header(scope, b"host")
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return trusted
    own = _normalised(f"{_scheme(scope)}://{host}")
    return trusted | ({own} if own else set())


def same_origin(scope: dict[str, Any]) -> bool:
    origin = _normalised(_header(scope, b"origin"))
    return origin is not None and origin in site_origins(scope)


class SameOriginValidator:
    """ASGI middleware: a WebSocket whose Origin is not the site's own (``same_origin``) is refused before it is
    routed."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not same_origin(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
