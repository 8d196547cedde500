"""Typed errors: one class per kind of problem the API answers (its ``type``), so a caller can catch what it can
handle (a rate limit: wait ``retry_after`` seconds) and let the rest propagate."""

from __future__ import annotations

from typing import Any


class Context1Error(Exception):
    """An error the API answered (``status`` and its problem document), or a connection that kept failing."""

    def __init__(self, message: str, *, status: int | None = None, problem: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.problem = problem or {}


class AuthenticationError(Context1Error):
    """401: no token, or a malformed, unknown, revoked or expired one."""


class ForbiddenError(Context1Error):
    """403: the token's scopes or its member's role do not allow this."""


class NotFoundError(Context1Error):
    """404: missing, or outside the token's workspace."""


class ConflictError(Context1Error):
    """409: a finished run cancelled, an idempotency key reused for another request."""


class InvalidRequestError(Context1Error):
    """400 or 422: the request's values; ``errors`` holds them by field."""

    @property
    def errors(self) -> Any:
        return self.problem.get("errors")


class RateLimitError(Context1Error):
    """429: a limit; ``retry_after`` says in how many seconds to try again."""

    @property
    def retry_after(self) -> float | None:
        value = self.problem.get("retry_after")
        return float(value) if value is not None else None


class ServerError(Context1Error):
    """5xx, or no answer after the retries."""


BY_STATUS: dict[int, type[Context1Error]] = {
    400: InvalidRequestError,
    401: AuthenticationError,
    403: ForbiddenError,
    404: NotFoundError,
    409: ConflictError,
    422: InvalidRequestError,
    429: RateLimitError,
}


def error_for(status: int, problem: dict[str, Any]) -> Context1Error:
    kind = BY_STATUS.get(status, ServerError if status >= 500 else Context1Error)
    detail = problem.get("detail") or problem.get("title") or f"HTTP {status}"
    return kind(str(detail), status=status, problem=problem)
