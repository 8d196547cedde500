"""Content-Security-Policy on every response: scripts and styles from this site only, sockets to this host.

The pages need no inline script (htmx, its ws extension and our scripts are static files; htmx's own
indicator <style> is turned off in base.html's htmx-config) and no eval. What they do need: inline
``style`` *attributes* (the run page's gauges set ``--used`` and friends), hence ``style-src-attr
'unsafe-inline'`` while style elements and sheets stay ``'self'``; inline SVG, which CSP does not
restrict; and WebSockets to the same host, named explicitly (``ws://`` and ``wss://`` of the request's
host) since older browsers do not count them as ``'self'``. A small middleware rather than django-csp:
the policy is one fixed string plus the host, nothing per view, no nonces (Django 6.0 ships its own
CSP middleware, the natural replacement when the project moves to it).
"""

from __future__ import annotations

from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponseBase
from django.utils.deprecation import MiddlewareMixin

HEADER = "Content-Security-Policy"
DIRECTIVES = (
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
)


def policy(host: str | None) -> str:
    sockets = f" ws://{host} wss://{host}" if host else ""
    return "; ".join((*DIRECTIVES, f"connect-src 'self'{sockets}"))


class ContentSecurityPolicyMiddleware(MiddlewareMixin):
    """Adds the policy to every response that does not already carry one."""

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if HEADER not in response:
            try:
                host: str | None = request.get_host()
            except DisallowedHost:
                host = None
            response[HEADER] = policy(host)
        return response
