"""Every error of the public API as ``application/problem+json`` (RFC 9457) with a stable ``type``:

- ``unauthenticated`` 401: no token, or one that is malformed, unknown, revoked or expired;
- ``not-found`` 404: anything outside the token's workspace as well as anything missing (never 403 there, so a
  token cannot learn what exists elsewhere);
- ``missing-scope`` 403: the token (or its member's role) does not allow this inside its workspace;
- ``malformed`` 400: a body that cannot be read (not JSON, not multipart);
- ``invalid`` 422: the request's values, each under its field in ``errors``;
- ``conflict`` 409: the request contradicts the state (a finished run cancelled, an idempotency key reused);
- ``rate-limited`` 429: a limit (the token's requests a minute, a member's or workspace's runs), with
  ``Retry-After`` and ``retry_after``.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS, PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError
from ninja.errors import ValidationError as RequestInvalid

from research.platform.quotas import OverLimit

PROBLEM_TYPE = "application/problem+json"
TYPE_BASE = "/api/v1/problems/"
TITLES = {
    "unauthenticated": "A valid API token is needed",
    "not-found": "Not found",
    "missing-scope": "The token may not do this",
    "malformed": "The request cannot be read",
    "invalid": "The request is not valid",
    "conflict": "The request conflicts with the current state",
    "rate-limited": "Too many requests",
}
STATUSES = {"unauthenticated": 401, "not-found": 404, "missing-scope": 403, "invalid": 422, "conflict": 409}
STATUSES |= {"rate-limited": 429, "malformed": 400}


class Problem(Exception):
    """An API error of one of the ``TITLES`` kinds; ``extra`` goes into the body, ``retry_after`` into a header."""

    def __init__(self, kind: str, detail: str, *, retry_after: int | None = None, **extra: Any) -> None:
        super().__init__(detail)
        self.kind, self.detail, self.retry_after, self.extra = kind, detail, retry_after, extra


def problem(kind: str, detail: str, *, retry_after: int | None = None, **extra: Any) -> HttpResponse:
    body = {"type": f"{TYPE_BASE}{kind}", "title": TITLES[kind], "status": STATUSES[kind], "detail": detail, **extra}
    if retry_after is not None:
        body["retry_after"] = retry_after
    response = HttpResponse(json.dumps(body), status=STATUSES[kind], content_type=PROBLEM_TYPE)
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    if kind == "unauthenticated":
        response["WWW-Authenticate"] = 'Bearer realm="api"'
    return response


def _fields(error: ValidationError) -> dict[str, list[str]]:
    if not hasattr(error, "error_dict"):
        return {NON_FIELD_ERRORS: [str(message) for message in error.messages]}
    return {field: [str(m) for m in messages] for field, messages in error.message_dict.items()}


def _on_problem(request: HttpRequest, error: Problem) -> HttpResponse:
    return problem(error.kind, error.detail, retry_after=error.retry_after, **error.extra)


def _on_unauthenticated(request: HttpRequest, error: Exception) -> HttpResponse:
    detail = "Send 'Authorization: Bearer <token>' with a token made on your account page (or manage.py api_token)."
    return problem("unauthenticated", detail)


def _on_missing(request: HttpRequest, error: Exception) -> HttpResponse:
    return problem("not-found", "Nothing here, or nothing this token may see.")


def _on_refused(request: HttpRequest, error: Exception) -> HttpResponse:
    return problem("missing-scope", str(error) or "The token may not do this.")


def _on_invalid(request: HttpRequest, error: ValidationError) -> HttpResponse:
    if isinstance(error, OverLimit):
        return problem("rate-limited", error.message_text, retry_after=error.retry_after)
    fields = _fields(error)
    return problem("invalid", " ".join(m for messages in fields.values() for m in messages), errors=fields)


def _on_request_invalid(request: HttpRequest, error: RequestInvalid) -> HttpResponse:
    errors = [{"loc": list(item.get("loc", ())), "msg": str(item.get("msg", ""))} for item in error.errors]
    detail = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in errors)
    return problem("invalid", detail, errors=errors)


def _on_http_error(request: HttpRequest, error: HttpError) -> HttpResponse:
    """django-ninja's own errors (a body it cannot parse)."""
    kinds = {status: kind for kind, status in STATUSES.items()}
    return problem(kinds.get(error.status_code, "malformed"), error.message)


HANDLERS: tuple[tuple[type[Exception], Any], ...] = (
    (Problem, _on_problem),
    (HttpError, _on_http_error),
    (AuthenticationError, _on_unauthenticated),
    (Http404, _on_missing),
    (PermissionDenied, _on_refused),
    (ValidationError, _on_invalid),
    (RequestInvalid, _on_request_invalid),
)


def install(api: NinjaAPI) -> None:
    """Answer every error the operations raise as a problem."""
    for error, handler in HANDLERS:
        api.add_exception_handler(error, handler)


PROBLEM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "title": "Problem",
    "description": "An error (RFC 9457): its stable type, a title, the status, what went wrong.",
    "required": ["type", "title", "status", "detail"],
    "properties": {
        "type": {"type": "string", "examples": [f"{TYPE_BASE}not-found"]},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
        "errors": {"description": "invalid: what is wrong, by field"},
        "retry_after": {"type": "integer", "description": "rate-limited: seconds until trying again may succeed"},
    },
}


def document_problems(schema: dict[str, Any]) -> dict[str, Any]:
    """The OpenAPI document with the problems every operation may answer (``application/problem+json``)."""
    schema.setdefault("components", {}).setdefault("schemas", {})["Problem"] = PROBLEM_SCHEMA
    reference = {PROBLEM_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}}
    for item in schema.get("paths", {}).values():
        for method, operation in item.items():
            kinds = ["unauthenticated", "missing-scope", "not-found", "invalid", "rate-limited"]
            if method in ("post", "put"):
                kinds += ["malformed", "conflict"]
            elif method == "delete":
                kinds += ["conflict"]
            for kind in kinds:
                operation["responses"].setdefault(STATUSES[kind], {"description": TITLES[kind], "content": reference})
    return schema
