"""Limits on what one member or one workspace may make the product do at once (runs, invitations, storage,
embedding): the refusal they share, and how the web answers it.

``OverLimit`` is a ``ValidationError``, so every caller that already shows a service's errors on a form or in
JSON shows this one too; the views that can say when to come back answer 429 with ``Retry-After``
(``with_retry_after``), and a JSON view's answer carries ``retry_after`` in seconds.
"""

from __future__ import annotations

import math
from typing import TypeVar

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.http import HttpResponse

TOO_MANY_REQUESTS = 429
Response = TypeVar("Response", bound=HttpResponse)


class OverLimit(ValidationError):
    """A limit refused this; ``retry_after``: seconds until trying again may succeed (None: waiting will not help,
    something must be removed or the limit raised)."""

    def __init__(self, message: str, *, retry_after: int | None = None, field: str = NON_FIELD_ERRORS) -> None:
        super().__init__({field: [message]})
        self.message_text = message
        self.retry_after = None if retry_after is None else max(1, int(retry_after))


def wait_words(seconds: float) -> str:
    """'about 40 seconds', 'about 3 minutes', 'about 2 hours'."""
    if seconds < 90:
        return f"about {max(1, round(seconds))} seconds"
    if seconds < 90 * 60:
        return f"about {math.ceil(seconds / 60)} minutes"
    return f"about {math.ceil(seconds / 3600)} hours"


def with_retry_after(response: Response, error: ValidationError) -> Response:
    """``response`` as the answer to a limit: status 429 and ``Retry-After`` (when waiting helps); any other
    validation error leaves it as it is."""
    if isinstance(error, OverLimit):
        response.status_code = TOO_MANY_REQUESTS
        if error.retry_after is not None:
            response["Retry-After"] = str(error.retry_after)
    return response


def mebibytes(size: int) -> str:
    """A byte count as people read it on a quota line: '12.4 MB', '0.3 MB', '2,048 MB'."""
    value = size / 2**20
    return f"{value:,.1f} MB" if value < 100 else f"{value:,.0f} MB"
