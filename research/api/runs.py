"""Runs over the API: start one (202, with an ``Idempotency-Key`` a retried start returns the same run), read it
(status, answer with citations, sources, the queries it ran, the chunks it pruned, usage), list, cancel, its
report, and its events as server-sent events, resumable from any sequence number."""

from __future__ import annotations

from typing import Any, Literal

from asgiref.sync import sync_to_async
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.forms.models import model_to_dict
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.urls import reverse
from ninja import Header, Router, Status

from research.api import stream
from research.api.auth import require, same_workspace
from research.api.errors import Problem
from research.api.schemas import Answer, AnswerClaim, Citation, RunDetail, RunIn, RunList, RunOut, SourceOut, Usage
from research.api.tokens import Access
from research.edits.selectors import report_edited, report_shown_edited
from research.models import ApiScope, Corpus, Run, RunEvent, RunStatus
from research.protocol.report import Report
from research.reporting.exports import as_dict, export_response
from research.reporting.kinds import kind_of
from research.reporting.selectors import report_of
from research.runs import selectors, services
from research.webhooks.services import webhook_attach, webhook_shown, webhook_validate

router = Router(tags=["runs"])
DELIVERY_FIELDS = ("event", "status", "attempts", "response_status", "error", "last_attempt_at", "delivered_at")


def _corpora(access: Access, wanted: list[str] | None) -> list[Corpus]:
    corpora = list(Corpus.objects.filter(workspace=access.membership.workspace).order_by("name", "id"))
    if wanted is None:
        return corpora
    chosen, unknown = [], []
    for name in wanted:
        match = next((c for c in corpora if name.casefold() in {c.name.casefold(), c.slug}), None)
        (chosen.append(match) if match else unknown.append(name))
    if unknown:
        known = ", ".join(c.slug for c in corpora) or "none yet"
        raise Problem("invalid", f"No corpus {', '.join(map(repr, unknown))} in this workspace (its corpora: {known}).")
    return list(dict.fromkeys(chosen))


def run_out(run: Run, viewer_id: int) -> dict[str, Any]:
    """The run as ``viewer_id`` (a user) may see it: its webhook's whole address only if they set it."""
    return {
        "id": run.pk,
        "status": run.status,
        "status_reason": run.status_reason,
        "template": run.template,
        "question": run.question,
        "subject": run.subject,
        "corpora": [corpus.slug for corpus in run.corpora.all()],
        "url": reverse("run_page", kwargs={"slug": run.workspace.slug, "run_id": run.pk}),
        "created_at": run.created_at,
        "started_at": run.started_at,
        "finished_at": run.finished_at,
        "webhook_url": webhook_shown(run.webhook_url, full=run.created_by_id == viewer_id),
    }


def _same_request(run: Run, body: RunIn) -> bool:
    if run.template != body.template or run.subject != body.subject.strip():
        return False
    return kind_of(body.template).about_company or run.question == body.question.strip()


@router.post("/workspaces/{slug}/runs", response={200: RunOut, 202: RunOut}, summary="Start a run")
def run_create(
    request: HttpRequest,
    slug: str,
    body: RunIn,
    idempotency_key: str = Header(default="", alias="Idempotency-Key"),  # type: ignore[type-arg]
) -> Status[dict[str, Any]]:
    access = require(request, ApiScope.RUNS_WRITE)
    same_workspace(access, slug)
    key = idempotency_key.strip()[:200]
    if key and (earlier := _earlier(access, key, body)) is not None:
        return Status(200, run_out(earlier, access.membership.user_id))
    if errors := webhook_validate(url=body.webhook_url, secret=body.webhook_secret):
        raise ValidationError(errors)
    try:
        with transaction.atomic():
            run = services.run_start(
                actor=access.membership,
                question=body.question,
                corpora=_corpora(access, body.corpora),
                template=body.template,
                rollouts=body.rollouts,
                budget=body.context_window,
                max_turns=body.max_steps,
                company=body.subject,
                web=body.web,
                idempotency_key=key,
            )
            if body.webhook_url.strip():
                webhook_attach(owner=run, url=body.webhook_url, secret=body.webhook_secret)
    except IntegrityError:  # the same key's other request won the race: its run is the answer
        earlier = _earlier(access, key, body)
        if earlier is None:
            raise
        return Status(200, run_out(earlier, access.membership.user_id))
    return Status(202, run_out(run, access.membership.user_id))


def _earlier(access: Access, key: str, body: RunIn) -> Run | None:
    run = Run.objects.filter(created_by=access.membership.user, idempotency_key=key).first()
    if run is not None and not _same_request(run, body):
        raise Problem("conflict", f"The Idempotency-Key {key!r} was used for another request (run {run.pk}).")
    return run


@router.get("/runs", response=RunList, summary="The workspace's latest runs")
def run_list(request: HttpRequest, limit: int = 50) -> dict[str, Any]:
    access = require(request, ApiScope.RUNS_READ)
    runs = selectors.run_list(membership=access.membership, limit=max(1, min(limit, 200)))
    return {"runs": [run_out(run, access.membership.user_id) for run in runs]}


def _run(request: HttpRequest, run_id: int, scope: str) -> tuple[Access, Run]:
    access = require(request, scope)
    return access, selectors.run_get(membership=access.membership, run_id=run_id)


@router.get("/runs/{run_id}", response=RunDetail, summary="A run: status, answer, sources, usage")
def run_detail(request: HttpRequest, run_id: int) -> dict[str, Any]:
    access, run = _run(request, run_id, ApiScope.RUNS_READ)
    mine = run.created_by_id == access.membership.user_id
    events = RunEvent.objects.filter(run=run, attempt=max(1, run.attempts))
    calls = events.filter(type="tool_called")
    pruned = sum(
        len(payload.get("chunk_ids", ()))
        for payload in events.filter(type="chunks_pruned").values_list("payload", flat=True)
    )
    return {
        **run_out(run, access.membership.user_id),
        "answer": _answer(run),
        "sources": [
            SourceOut(doc_id=doc["doc_id"], title=doc.get("title", ""), score=float(doc.get("score", 0.0)))
            for doc in run.result or []
        ],
        "num_queries": calls.filter(payload__tool="search_corpus").count(),
        "pruned_docs": pruned,
        "usage": Usage(
            tokens=run.total_tokens, turns=events.filter(type="turn_started").count(), tool_calls=calls.count()
        ),
        "webhook_deliveries": [
            {**model_to_dict(delivery, fields=DELIVERY_FIELDS), "url": webhook_shown(delivery.url, full=mine)}
            for delivery in run.webhook_deliveries.all()
        ],
    }


def _answer(run: Run) -> Answer | None:
    report = report_edited(run, report_of(run))
    if report is None:
        return None
    claims = list(dict.fromkeys([*report.summary, *(claim for section in report.sections for claim in section.claims)]))
    shown = [
        AnswerClaim(
            text=claim.text,
            citations=[
                Citation(doc_id=c.doc_id, chunk_id=c.chunk_id, quote=c.quote, source=c.source) for c in claim.citations
            ],
        )
        for claim in claims
    ]
    return Answer(text=" ".join(claim.text for claim in claims), claims=shown)


@router.post("/runs/{run_id}/cancel", response=RunOut, summary="Cancel a run")
def run_cancel(request: HttpRequest, run_id: int) -> dict[str, Any]:
    access, run = _run(request, run_id, ApiScope.RUNS_WRITE)
    if run.status not in (RunStatus.QUEUED, RunStatus.RUNNING):
        raise Problem("conflict", f"The run has already {run.status}.")
    cancelled = services.run_cancel(actor=access.membership, run=run, reason="cancelled over the API")
    return run_out(cancelled, access.membership.user_id)


def _report(run: Run, internal: bool) -> Report:
    report = report_shown_edited(run, internal=internal)
    if report is None:
        raise Problem("not-found", f"Run {run.pk} has no report ({run.status}).")
    return report


@router.get("/runs/{run_id}/report", summary="The run's report (JSON)")
def run_report(request: HttpRequest, run_id: int, internal: bool = False) -> dict[str, Any]:
    """Without the claims only the workspace's own notes back, unless ``internal=true`` (as the page's exports)."""
    _, run = _run(request, run_id, ApiScope.REPORTS_READ)
    return as_dict(_report(run, internal))


@router.get("/runs/{run_id}/report/{fmt}", summary="The run's report as a file: md, docx, pdf or json")
def run_report_file(
    request: HttpRequest, run_id: int, fmt: Literal["md", "docx", "pdf", "json"], internal: bool = False
) -> HttpResponse:
    """The page's exports: Markdown, Word, PDF or JSON, with numbered notes and an evidence appendix."""
    access, run = _run(request, run_id, ApiScope.REPORTS_READ)
    workspace = access.membership.workspace.name
    return export_response(_report(run, internal), fmt, run_id=run.pk, workspace_name=workspace, internal=internal)


@router.get("/runs/{run_id}/events", summary="The run's events as server-sent events (resumable)")
async def run_events(request: HttpRequest, run_id: int, starting_after: int = 0) -> StreamingHttpResponse:
    """Each event once, in order: ``id:`` its sequence number, ``event:`` its type, ``data:`` the typed event as
    JSON (``seq``, ``type``, ``attempt``, ``at``, ``payload``). ``Last-Event-ID`` (a reconnecting client's) or
    ``?starting_after=N`` resumes after that event; the stream ends after the run's last event; a comment
    line keeps an idle connection open every 15 seconds."""
    access, run = await sync_to_async(_run)(request, run_id, ApiScope.RUNS_READ)
    resume = request.headers.get("Last-Event-ID", "").strip()
    after = int(resume) if resume.isdigit() else max(0, starting_after)
    response = StreamingHttpResponse(stream.events(run.pk, after, access.token.pk), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a proxy must pass each event on at once
    return response
