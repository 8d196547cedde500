"""The public API, ``/api/v1/``: django-ninja operations behind API tokens (``Authorization: Bearer``), errors as
problem documents, the OpenAPI document at ``/api/v1/openapi.json`` and its docs page at ``/api/v1/docs`` (Swagger
UI from django-ninja's own static files: nothing is loaded from elsewhere, so the Content-Security-Policy holds).

Operations that read or write the database are synchronous (Django's ORM is; under Daphne each runs in Django's
thread pool); the event stream is asynchronous, so an idle stream holds no thread."""

from __future__ import annotations

from typing import Any

from ninja import NinjaAPI, Swagger
from ninja.openapi.schema import OpenAPISchema

from research.api import corpora, errors, investigations, runs
from research.api.auth import TokenAuth
from research.reporting.exports import MEDIA_TYPES


class Api(NinjaAPI):
    """django-ninja's API, whose OpenAPI document also describes the problems each operation may answer and the
    event stream's media type."""

    def get_openapi_schema(self, *, path_prefix: str | None = None, path_params: Any = None) -> OpenAPISchema:
        schema = super().get_openapi_schema(path_prefix=path_prefix, path_params=path_params)
        for path, item in schema["paths"].items():
            if path.endswith("/runs/{run_id}/events"):
                item["get"]["responses"][200] = {
                    "description": "the run's events as server-sent events, to its last",
                    "content": {"text/event-stream": {"schema": {"type": "string"}}},
                }
            if path.endswith("/runs/{run_id}/report/{fmt}"):
                binary = {"schema": {"type": "string", "format": "binary"}}
                item["get"]["responses"][200] = {
                    "description": "the report as a file (Content-Disposition: attachment)",
                    "content": {media.split(";")[0]: binary for media in MEDIA_TYPES.values()},
                }
            for operation in item.values():  # an upload takes its files and nothing else, one file at least
                form = operation.get("requestBody", {}).get("content", {}).get("multipart/form-data", {})
                if "schema" in form:
                    form["schema"]["additionalProperties"] = False
                for name in form.get("schema", {}).get("required", []):
                    field = form["schema"]["properties"][name]
                    if field.get("type") == "array":
                        field["minItems"] = 1
        errors.document_problems(schema)
        return schema


api = Api(
    title="Context-1 Web API",
    version="1",
    description=(
        "Agentic search over a workspace's documents: corpora, runs, their events and reports; investigations, their"
        " schedules and share links."
    ),
    auth=TokenAuth(),
    urls_namespace="api-v1",
    docs=Swagger(),
    docs_url="/docs",
    openapi_url="/openapi.json",
)
errors.install(api)
api.add_router("", corpora.router)
api.add_router("", runs.router)
api.add_router("", investigations.router)
