"""The public API, ``/api/v1/``: django-ninja operations behind API tokens (``Authorization: Bearer``), errors as
problem documents, the OpenAPI document at ``/api/v1/openapi.json`` and its docs page at ``/api/v1/docs`` (Swagger
UI from django-ninja's own static files: nothing is loaded from elsewhere, so the Content-Security-Policy holds).

Operations that read or write the database are synchronous (Django's ORM is; under Daphne each runs in Django's
thread pool); the event stream is asynchronous, so an idle stream holds no thread."""

from __future__ import annotations

from ninja import NinjaAPI, Swagger

from research.api import corpora, errors, runs
from research.api.auth import TokenAuth

api = NinjaAPI(
    title="Context-1 Web API",
    version="1",
    description="Agentic search over a workspace's documents: corpora, runs, their events and reports.",
    auth=TokenAuth(),
    urls_namespace="api-v1",
    docs=Swagger(),
    docs_url="/docs",
    openapi_url="/openapi.json",
)
errors.install(api)
api.add_router("", corpora.router)
api.add_router("", runs.router)
