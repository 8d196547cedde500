"""The health endpoint: public, no workspace data."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from research.platform.health import health_report


@never_cache
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    report = health_report()
    return JsonResponse(report, status=200 if report["ok"] else 503)
