"""The Python SDK of Context-1 Web's public API (``/api/v1/``): ``SearchAgent`` and ``AsyncSearchAgent``."""

from context1_web_sdk.agent import AsyncSearchAgent, RunFailedError, SearchAgent
from context1_web_sdk.errors import (
    AuthenticationError,
    ConflictError,
    Context1Error,
    ForbiddenError,
    InvalidRequestError,
    NotFoundError,
    RateLimitError,
    ServerError,
)
from context1_web_sdk.http import AsyncClient, Client
from context1_web_sdk.models import Citation, Claim, Event, Run, SearchResult, Source, Usage
from context1_web_sdk.webhooks import WebhookError, verify_webhook

__all__ = [
    "AsyncClient",
    "AsyncSearchAgent",
    "AuthenticationError",
    "Citation",
    "Claim",
    "Client",
    "ConflictError",
    "Context1Error",
    "Event",
    "ForbiddenError",
    "InvalidRequestError",
    "NotFoundError",
    "RateLimitError",
    "Run",
    "RunFailedError",
    "SearchAgent",
    "SearchResult",
    "ServerError",
    "Source",
    "Usage",
    "WebhookError",
    "verify_webhook",
]
