"""The public API's request and response bodies (Pydantic, through django-ninja): what the OpenAPI document
describes and the Python SDK reads."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from ninja import Schema
from pydantic import AwareDatetime, Field

Template = Literal["question", "competitor", "prospect", "icp"]


class CorpusIn(Schema):
    name: str = Field(min_length=1, max_length=200)
    description: str = Field(default="", max_length=2000)


class FileOut(Schema):
    id: int
    name: str
    stage: str
    error: str
    size: int
    documents_added: int
    chunks_added: int


class CorpusOut(Schema):
    slug: str
    name: str
    description: str
    documents: int
    chunks: int


class CorpusDetail(CorpusOut):
    files: list[FileOut]


class RunIn(Schema):
    """A question (``template`` question) or a report about ``subject`` (competitor, prospect, icp)."""

    question: str = Field(default="", max_length=4000)
    template: Template = "question"
    subject: str = Field(default="", max_length=200, description="the company a report is about")
    corpora: list[str] | None = Field(default=None, description="names or slugs; none: every corpus of the workspace")
    rollouts: int = Field(default=4, description="1-8; a report runs one per facet")
    max_steps: int = Field(default=16, description="turns a rollout may take (1-64)")
    context_window: int = Field(default=32768, description="a rollout's token budget (4,096-131,072)")
    web: bool = False
    webhook_url: str = Field(
        default="", max_length=2000, description="where to POST when the run finishes or fails (signed; public only)"
    )
    webhook_secret: str = Field(
        default="", max_length=200, description="16-200 characters the webhook is signed with (HMAC-SHA256)"
    )


class Citation(Schema):
    doc_id: str
    chunk_id: str
    quote: str
    source: str


class AnswerClaim(Schema):
    text: str
    citations: list[Citation]


class Answer(Schema):
    text: str
    claims: list[AnswerClaim]


class SourceOut(Schema):
    doc_id: str
    title: str
    score: float


class Usage(Schema):
    tokens: int
    turns: int
    tool_calls: int


class RunOut(Schema):
    id: int
    status: str
    status_reason: str
    template: str
    question: str
    subject: str
    corpora: list[str]
    url: str
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    webhook_url: str


class DeliveryOut(Schema):
    """One announcement of the run's end to its webhook: pending (being tried), delivered or failed."""

    event: str
    url: str
    status: str
    attempts: int
    response_status: int | None
    error: str
    last_attempt_at: datetime | None
    delivered_at: datetime | None


class RunDetail(RunOut):
    answer: Answer | None
    sources: list[SourceOut]
    num_queries: int
    pruned_docs: int
    usage: Usage
    webhook_deliveries: list[DeliveryOut]


class RunList(Schema):
    runs: list[RunOut]


class InvestigationIn(Schema):
    """Save a run (one not in an investigation yet) as a new investigation."""

    run_id: int
    title: str = Field(default="", max_length=200, description="default: from the run's question or company")


class ScheduleIn(Schema):
    """When the investigation runs again by itself: ``daily`` or ``weekly`` at ``time_of_day`` (``weekdays`` 0 =
    Monday .. 6), or ``cron`` (five fields), in ``timezone``; a webhook announces each of its runs' end."""

    frequency: Literal["daily", "weekly", "cron"]
    time_of_day: str = Field(default="", description="HH:MM, daily and weekly", max_length=5)
    weekdays: list[int] = Field(default_factory=list, max_length=7)
    cron: str = Field(default="", max_length=120)
    timezone: str = Field(default="UTC", max_length=64)
    notify: Literal["every", "changed"] = Field(default="changed", description="e-mail after every run, or on change")
    webhook_url: str = Field(default="", max_length=2000)
    webhook_secret: str = Field(default="", max_length=200)


class ScheduleOut(Schema):
    frequency: str
    time_of_day: str | None
    weekdays: list[int]
    cron: str
    timezone: str
    notify: str
    paused: bool
    paused_reason: str
    next_run_at: datetime | None
    last_fired_at: datetime | None
    webhook_url: str


class ShareLinkIn(Schema):
    run_id: int = Field(description="a finished run of the investigation")
    label: str = Field(default="", max_length=120)
    expires_at: AwareDatetime | None = Field(default=None, description="with its time zone, e.g. 2027-01-31T18:00:00Z")
    include_internal: bool = Field(default=False, description="also show claims only our own notes back")


class ShareLinkOut(Schema):
    id: int
    run_id: int
    label: str
    created_at: datetime
    expires_at: datetime | None
    revoked_at: datetime | None
    include_internal: bool
    access_count: int
    last_accessed_at: datetime | None


class NewShareLinkOut(ShareLinkOut):
    url: str = Field(description="the link itself: shown once, never stored")


class InvestigationOut(Schema):
    id: int
    title: str
    template: str
    notes: str
    tags: list[str]
    created_by: str | None
    created_at: datetime
    last_activity_at: datetime
    archived: bool
    scheduled: bool


class InvestigationDetail(InvestigationOut):
    runs: list[RunOut]
    schedule: ScheduleOut | None
