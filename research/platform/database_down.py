"""A database that does not answer (PostgreSQL restarting, a network cut, SQLite locked too long) gets a clear
503 that says to try again, not a traceback or Django's bare 500; the next request opens a new connection, so
pages recover by themselves once the database is back. JSON clients get ``{"error": ...}``."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse

logger = logging.getLogger(__name__)
RETRY_AFTER_S = 5
MESSAGE = "The database is not answering right now; nothing you sent was lost. Try again in a few seconds."
PAGE = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Try again in a moment · Context-1 Web</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/static/css/app.css"></head>
<body><main><h1>Try again in a moment</h1><p>{MESSAGE}</p><p><a href="">Reload this page</a></p></main></body>
</html>
"""


def wants_json(request: HttpRequest) -> bool:
    return request.path.endswith(".json") or "application/json" in request.headers.get("Accept", "")


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        logger.warning("database unavailable for %s %s: %s", request.method, request.path, exception)
        headers = {"Retry-After": str(RETRY_AFTER_S), "Cache-Control": "no-store"}
        if wants_json(request):
            return JsonResponse({"error": MESSAGE}, status=503, headers=headers)
        return HttpResponse(PAGE, status=503, headers=headers)
