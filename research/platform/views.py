"""Public endpoints of the platform: health (no workspace data, no versions) and the favicon."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponsePermanentRedirect, JsonResponse
from django.templatetags.static import static
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from research.platform.health import health_report


@never_cache
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    report = health_report(details=request.user.is_staff)
    return JsonResponse(report, status=200 if report["ok"] else 503)


@require_GET
def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """``/favicon.ico``, which browsers and tools ask for whatever the page links: the site's SVG icon."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))
