"""Logging filters that keep the terminal to what is worth reading (LOGGING in settings.py; issue 34).

- ``django.request``: a refused request (``PermissionDenied``, answered 403) is one line naming the method, the path,
  the user and the reason, without Django's traceback; an invalid form answered 422 (how the product answers htmx
  forms with errors) is no line at all. Every other response Django logs (404s, 5xx with their tracebacks) stays.
- ``daphne.server``: "HTTP/2 support not enabled (install the http2 and tls Twisted extras)" reads like a fault at
  every start; it becomes what the server does serve.
"""

from __future__ import annotations

import logging
from http import HTTPStatus

from django.core.exceptions import PermissionDenied

DAPHNE_HTTP2_PREFIX = "HTTP/2 support not enabled"
DAPHNE_SERVES = "Serving HTTP/1.1 and WebSocket"


def _who(request: object) -> str:
    try:  # a lazy user read inside a logging filter must never turn a 403 into a 500 (a database away)
        user = getattr(request, "user", None)
        if user is None or not getattr(user, "is_authenticated", False):
            return "anonymous"
        return f"user {user.get_username()}"
    except Exception:
        return "unknown user"


class RequestNoise(logging.Filter):
    """On ``django.request``: refusals in one line, 422s not at all."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) == HTTPStatus.UNPROCESSABLE_ENTITY:
            return False
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, PermissionDenied):
            request = getattr(record, "request", None)
            method, path = getattr(request, "method", "?"), getattr(request, "path", "?")
            reason = str(error) or "permission denied"
            record.msg, record.args = "Forbidden: %s %s (%s: %s)", (method, path, _who(request), reason)
            record.exc_info, record.exc_text = None, None
        return True


class DaphneStartNoise(logging.Filter):
    """On ``daphne.server``: its HTTP/2 notice said as what is served."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and record.msg.startswith(DAPHNE_HTTP2_PREFIX):
            record.msg, record.args = DAPHNE_SERVES, ()
        return True
