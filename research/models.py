"""Database models: workspaces and who may see them."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower


class Role(models.TextChoices):
    OWNER = "owner", "Owner"
    EDITOR = "editor", "Editor"
    VIEWER = "viewer", "Viewer"


class Workspace(models.Model):
    """A team's space: its corpora, runs and reports are visible to its members only."""

    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=140, unique=True)
    description = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    members = models.ManyToManyField(  # type: ignore[var-annotated]
        settings.AUTH_USER_MODEL, through="Membership", related_name="workspaces"
    )
    # The ideal customer profile ICP checks judge against: [{"name", "description", "weight"}, ...]
    icp = models.JSONField(default=list, blank=True)
    web_default = models.BooleanField(default=False)  # the run form's "search the web too", ticked or not

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """One user's role in one workspace."""

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.VIEWER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["workspace", "user"], name="membership_unique_user")]
        ordering = ["workspace_id", "user_id"]

    def __str__(self) -> str:
        return f"{self.user} in {self.workspace} ({self.role})"

    @property
    def can_edit(self) -> bool:
        return self.role in (Role.OWNER, Role.EDITOR)

    @property
    def can_manage(self) -> bool:
        return self.role == Role.OWNER


def _new_index_key() -> str:
    return uuid.uuid4().hex


class CorpusKind(models.TextChoices):
    FILES = "files", "Documents"
    WEB = "web", "Web pages fetched by runs"


class Corpus(models.Model):
    """A searchable collection of documents in a workspace (one Chroma collection, one BM25 index)."""

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="corpora")
    # "web": the workspace's corpus of pages its runs fetched (one per workspace, made on first use)
    kind = models.CharField(max_length=10, choices=CorpusKind.choices, default=CorpusKind.FILES)
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=140)
    description = models.TextField(blank=True)
    chunk_tokens = models.PositiveIntegerField(default=512)
    parse_options = models.JSONField(default=dict, blank=True)  # csv_mode, json field mapping, ...
    # Names its Chroma collection and BM25 folder: never reused, even if a database restore reuses ids.
    index_key = models.CharField(max_length=32, unique=True, default=_new_index_key, editable=False)
    content_version = models.PositiveIntegerField(default=0)  # bumped by every change to its chunks
    sparse_version = models.PositiveIntegerField(default=0)  # content_version the BM25 index was built at
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["workspace", "slug"], name="corpus_unique_slug"),
            # Names are unique per workspace whatever their case (the CLI and the run form name corpora).
            models.UniqueConstraint("workspace", Lower("name"), name="corpus_unique_name_ci"),
            # One corpus of fetched web pages per workspace (two runs starting at once make one)
            models.UniqueConstraint(fields=["workspace"], condition=Q(kind="web"), name="corpus_one_web"),
        ]
        ordering = ["name", "id"]
        verbose_name_plural = "corpora"

    def __str__(self) -> str:
        return self.name

    @property
    def collection_name(self) -> str:
        return f"c1w-{self.index_key}"


class Stage(models.TextChoices):
    QUEUED = "queued", "Queued"
    STORED = "stored", "Stored"
    PARSED = "parsed", "Parsed"
    CHUNKED = "chunked", "Chunked"
    SEARCHABLE = "searchable", "Searchable by words"  # BM25 finds it; its vectors are being computed
    EMBEDDED = "embedded", "Embedded"
    INDEXED = "indexed", "Indexed"
    EXPANDED = "expanded", "Archive expanded"
    FAILED = "failed", "Failed"


TERMINAL_STAGES = (Stage.INDEXED, Stage.EXPANDED, Stage.FAILED)


class Upload(models.Model):
    """One upload action: a batch of files (archives included) sent to a corpus."""

    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="uploads")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"upload {self.pk} to {self.corpus_id}"


class UploadFile(models.Model):
    """One file of an upload (or one member of an uploaded archive) on its way through ingestion."""

    upload = models.ForeignKey(Upload, on_delete=models.CASCADE, related_name="files")
    parent = models.ForeignKey("self", null=True, blank=True, on_delete=models.CASCADE, related_name="members")
    name = models.CharField(max_length=1024)
    size = models.PositiveBigIntegerField(default=0)
    sha256 = models.CharField(max_length=64, blank=True)
    stored_path = models.CharField(max_length=1024, blank=True)  # relative to MEDIA_ROOT
    stage = models.CharField(max_length=10, choices=Stage.choices, default=Stage.QUEUED)
    error = models.TextField(blank=True)
    warnings = models.JSONField(default=list, blank=True)
    documents_added = models.PositiveIntegerField(default=0)
    documents_unchanged = models.PositiveIntegerField(default=0)
    chunks_added = models.PositiveIntegerField(default=0)
    attempts = models.PositiveIntegerField(default=0)
    claimed_until = models.DateTimeField(null=True, blank=True)  # lease of the worker processing it
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.name

    @property
    def done(self) -> bool:
        return self.stage in TERMINAL_STAGES


class Document(models.Model):
    """A document in a corpus; its identity is (source file, key within the file), its content a hash."""

    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="documents")
    doc_id = models.CharField(max_length=40)
    title = models.CharField(max_length=500, blank=True)
    source_name = models.CharField(max_length=1024)
    doc_key = models.CharField(max_length=300, blank=True)
    kind = models.CharField(max_length=20)
    content_hash = models.CharField(max_length=64)
    metadata = models.JSONField(default=dict, blank=True)
    chunk_count = models.PositiveIntegerField(default=0)
    # one of our own notes (deal review, battlecard, CRM export): left out of share links and exports unless
    # included on purpose; guessed at upload (research/corpora/internal.py), set by an editor on its page
    internal = models.BooleanField(default=False)
    upload_file = models.ForeignKey(UploadFile, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["corpus", "doc_id"], name="document_unique_doc_id")]
        ordering = ["title", "id"]

    def __str__(self) -> str:
        return self.title or self.source_name


class Chunk(models.Model):
    """The text of one indexed chunk, kept for the document viewer and for citations."""

    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    chunk_id = models.CharField(max_length=60)
    text = models.TextField()
    start = models.PositiveIntegerField(default=0)
    end = models.PositiveIntegerField(default=0)
    tokens = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["document", "index"], name="chunk_unique_index")]
        ordering = ["document_id", "index"]

    def __str__(self) -> str:
        return self.chunk_id


class RunStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    FINISHED = "finished", "Finished"
    FAILED = "failed", "Failed"
    CANCELLED = "cancelled", "Cancelled"


TERMINAL_RUN_STATUSES = (RunStatus.FINISHED, RunStatus.FAILED, RunStatus.CANCELLED)


class RunTemplate(models.TextChoices):
    QUESTION = "question", "Free question"
    COMPETITOR = "competitor", "Competitor report"
    PROSPECT = "prospect", "Prospect brief"
    ICP = "icp", "ICP check"


class Run(models.Model):
    """A research job: a question over one or several corpora of a workspace, run by a worker under a lease."""

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="runs")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    question = models.TextField()
    corpora = models.ManyToManyField(Corpus, related_name="runs")
    template = models.CharField(max_length=40, choices=RunTemplate.choices, default=RunTemplate.QUESTION)
    subject = models.CharField(max_length=200, blank=True)  # the company a report is about
    options = models.JSONField(default=dict, blank=True)  # a report's inputs besides the company (aspects, ...)
    rollouts = models.PositiveSmallIntegerField(default=4)
    budget = models.PositiveIntegerField(default=32_768)
    max_turns = models.PositiveSmallIntegerField(default=16)
    status = models.CharField(max_length=10, choices=RunStatus.choices, default=RunStatus.QUEUED)
    status_reason = models.TextField(blank=True)  # the error, the cancel reason, or why it was re-queued
    lease_owner = models.CharField(max_length=200, blank=True)  # the worker attempt holding the run
    claimed_until = models.DateTimeField(null=True, blank=True)  # the lease; renewed while the worker lives
    attempts = models.PositiveIntegerField(default=0)  # claims so far; the current attempt's number
    cancel_requested = models.BooleanField(default=False)
    cancel_reason = models.TextField(blank=True)
    last_seq = models.PositiveIntegerField(default=0)  # the sequence number of its latest stored event
    enqueued_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(default=list, blank=True)  # the final ranked documents
    total_tokens = models.PositiveBigIntegerField(default=0)  # prompt + completion tokens of every model call
    created_at = models.DateTimeField(auto_now_add=True)
    # The saved investigation it belongs to (research/investigations/): who may read it follows from there.
    investigation = models.ForeignKey(
        "Investigation", null=True, blank=True, on_delete=models.CASCADE, related_name="runs"
    )
    # The schedule that fired it (research/schedules/): its end becomes a digest.
    schedule = models.ForeignKey("Schedule", null=True, blank=True, on_delete=models.SET_NULL, related_name="runs")
    # The API's Idempotency-Key header (research/api/runs.py): a retried start returns this run, never a second one
    idempotency_key = models.CharField(max_length=200, blank=True)
    # Where its end is announced (research/webhooks/): a signed POST on finish or failure; the secret signs it
    webhook_url = models.CharField(max_length=2000, blank=True)
    webhook_secret = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["workspace", "-created_at"], name="run_workspace_recent"),
            models.Index(fields=["status", "claimed_until"], name="run_status_lease"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["created_by", "idempotency_key"],
                condition=~models.Q(idempotency_key=""),
                name="run_unique_idempotency_key",
            )
        ]

    def __str__(self) -> str:
        return f"run {self.pk}: {self.question[:60]}"

    @property
    def done(self) -> bool:
        return self.status in TERMINAL_RUN_STATUSES


class RunEvent(models.Model):
    """One stored event of a run; ``seq`` numbers a run's events 1, 2, 3, ... across all its attempts."""

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    attempt = models.PositiveIntegerField(default=1)  # the claim that produced it (a restart starts a new one)
    type = models.CharField(max_length=40)
    payload = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        # The unique constraint is also the (run, seq) index every replay reads through.
        constraints = [models.UniqueConstraint(fields=["run", "seq"], name="run_event_unique_seq")]
        ordering = ["run_id", "seq"]

    def __str__(self) -> str:
        return f"{self.run_id}#{self.seq} {self.type}"


class Report(models.Model):
    """A run's written answer or report, stored as written (research/protocol/report.py's JSON): reopening
    it or exporting it never recomputes it."""

    run = models.OneToOneField(Run, on_delete=models.CASCADE, related_name="report")
    template = models.CharField(max_length=40)
    writer = models.CharField(max_length=40)
    body = models.JSONField(default=dict)  # protocol.report.to_dict(report)
    claims = models.PositiveIntegerField(default=0)  # shown (verified) claims
    removed = models.PositiveIntegerField(default=0)  # claims the citation check removed
    # chunk id -> SHA-256 of its text when the report was written (or first shared): the cited chunks and their
    # neighbours. A share link shows a passage only while its text is still that (a re-upload reuses chunk ids).
    passages = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.template} report of run {self.run_id}"


class IcpBatch(models.Model):
    """An ICP check of many companies: a CSV's rows, one ICP check run each (research/batches)."""

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="icp_batches")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    file_name = models.CharField(max_length=255)
    criteria = models.JSONField(default=list)  # the profile as it was when the batch started
    rejected = models.JSONField(default=list, blank=True)  # [{"line", "text", "reason"}]: rows not checked
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"ICP batch {self.pk}: {self.file_name}"


class IcpBatchRow(models.Model):
    """One company of a batch and the ICP check run that judges it."""

    batch = models.ForeignKey(IcpBatch, on_delete=models.CASCADE, related_name="rows")
    line = models.PositiveIntegerField()  # its line in the CSV
    company = models.CharField(max_length=200)
    domain = models.CharField(max_length=253, blank=True)
    notes = models.TextField(blank=True)
    run = models.OneToOneField(Run, null=True, on_delete=models.SET_NULL, related_name="batch_row")

    class Meta:
        ordering = ["line", "id"]

    def __str__(self) -> str:
        return f"{self.company} (line {self.line})"


class Visibility(models.TextChoices):
    PRIVATE = "private", "Only me"
    WORKSPACE = "workspace", "Everyone in the workspace"
    MEMBERS = "members", "Chosen members"


class ShareRole(models.TextChoices):
    VIEWER = "viewer", "Viewer (reads)"
    EDITOR = "editor", "Editor (re-runs, edits notes and schedules)"


class Investigation(models.Model):
    """A saved piece of work: a template with its inputs, its runs over time, notes and tags, shared by rule."""

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="investigations")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    title = models.CharField(max_length=200)
    template = models.CharField(max_length=40, choices=RunTemplate.choices, default=RunTemplate.QUESTION)
    # What a re-run starts: question, company, aspects, criteria, corpus ids, rollouts, budget, max_turns.
    config = models.JSONField(default=dict)
    notes = models.TextField(blank=True)  # Markdown, rendered sanitised
    tags = models.JSONField(default=list, blank=True)  # lower-case words, sorted
    visibility = models.CharField(max_length=10, choices=Visibility.choices, default=Visibility.WORKSPACE)
    workspace_role = models.CharField(max_length=10, choices=ShareRole.choices, default=ShareRole.VIEWER)
    archived_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_activity_at = models.DateTimeField(auto_now_add=True)  # a run added, notes or title edited

    class Meta:
        ordering = ["-last_activity_at", "-id"]
        indexes = [models.Index(fields=["workspace", "-last_activity_at"], name="investigation_recent")]

    def __str__(self) -> str:
        return self.title


class EditKind(models.TextChoices):
    STRIKE = "strike", "Struck a claim"
    PIN = "pin", "Pinned a claim"
    NOTE = "note", "Added a note"
    OVERRIDE = "override", "Overrode a verdict"


class ReportEdit(models.Model):
    """An analyst's edit of an investigation's reports (research/writing/edits.py applies them to every run's
    report when it is read): a claim struck or pinned (known by ``claim_key``, its evidence), a note, a verdict
    overridden."""

    investigation = models.ForeignKey(Investigation, on_delete=models.CASCADE, related_name="edits")
    run = models.ForeignKey("Run", null=True, on_delete=models.SET_NULL, related_name="+")  # where it was made
    kind = models.CharField(max_length=10, choices=EditKind.choices)
    claim_key = models.CharField(max_length=64, blank=True)
    claim_text = models.TextField(blank=True)  # the claim as it read when edited (the edits list shows it)
    facet = models.CharField(max_length=80, blank=True)  # pin: its section; note: its section ("" the report)
    criterion = models.CharField(max_length=200, blank=True)  # override: the criterion's name
    verdict = models.CharField(max_length=10, blank=True)  # override: the analyst's verdict
    text = models.TextField(blank=True)  # strike: the reason; note and override: the note
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["investigation", "created_at"], name="report_edit_by_investigation")]

    def __str__(self) -> str:
        return f"{self.kind} on {self.investigation_id}"


class InvestigationMember(models.Model):
    """A member an investigation of visibility "members" is shared with, and their role in it."""

    investigation = models.ForeignKey(Investigation, on_delete=models.CASCADE, related_name="shares")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    role = models.CharField(max_length=10, choices=ShareRole.choices, default=ShareRole.VIEWER)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["investigation", "user"], name="investigation_share_unique")]
        ordering = ["investigation_id", "user_id"]

    def __str__(self) -> str:
        return f"{self.user} on {self.investigation} ({self.role})"


class ShareLink(models.Model):
    """A read-only link to one run of an investigation: ``/s/<token>/``. Only the token's SHA-256 is stored."""

    investigation = models.ForeignKey(Investigation, on_delete=models.CASCADE, related_name="share_links")
    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="share_links")
    token_sha256 = models.CharField(max_length=64, unique=True)
    label = models.CharField(max_length=120, blank=True)  # e.g. "for the board"
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    include_internal = models.BooleanField(default=False)  # shows claims from our own notes (Document.internal)
    access_count = models.PositiveIntegerField(default=0)
    last_accessed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"share link {self.pk} of run {self.run_id}"


class ShareLinkAccess(models.Model):
    """One request through a live share link: when, from where, what."""

    link = models.ForeignKey(ShareLink, on_delete=models.CASCADE, related_name="accesses")
    at = models.DateTimeField(auto_now_add=True)
    ip = models.GenericIPAddressField(null=True, blank=True)
    path = models.CharField(max_length=300)

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.ip} at {self.at:%Y-%m-%d %H:%M:%S}: {self.path}"


class Invitation(models.Model):
    """An owner's invitation of an e-mail address into a workspace with a role; the link in the e-mail (a token
    of which only the SHA-256 is stored) creates the account or joins an existing one, once, until it expires."""

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField()  # lower-cased
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.VIEWER)
    token_sha256 = models.CharField(max_length=64, unique=True)
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)
    mail_error = models.TextField(blank=True)  # why the e-mail could not be sent (the owner copies the link)
    # An existing account that asked to join: this link, sent to the invited address after it asked, joins that
    # account only (it shows that the account reads the address). None: the link creates a new account.
    for_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"invitation of {self.email} to {self.workspace} ({self.role})"


class Frequency(models.TextChoices):
    DAILY = "daily", "Every day"
    WEEKLY = "weekly", "Weekly, on chosen days"
    CRON = "cron", "Cron expression"


class NotifyMode(models.TextChoices):
    EVERY = "every", "After every run"
    CHANGED = "changed", "Only when something changed"


class Schedule(models.Model):
    """When an investigation runs again by itself (research/schedules/): daily, on chosen weekdays or by a cron
    expression, at a time of day in a time zone. ``next_run_at`` is the claim: a tick fires a due schedule by
    moving it forward with a conditional UPDATE, so two ticks never fire the same time twice."""

    investigation = models.OneToOneField(Investigation, on_delete=models.CASCADE, related_name="schedule")
    # Whose rights its runs use (the member who set it up or last resumed it)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    frequency = models.CharField(max_length=10, choices=Frequency.choices, default=Frequency.WEEKLY)
    time_of_day = models.TimeField(null=True, blank=True)  # daily and weekly
    weekdays = models.JSONField(default=list, blank=True)  # weekly: 0 (Monday) to 6
    cron = models.CharField(max_length=120, blank=True)  # cron: five fields
    timezone = models.CharField(max_length=64, default="UTC")
    notify = models.CharField(max_length=10, choices=NotifyMode.choices, default=NotifyMode.CHANGED)
    paused = models.BooleanField(default=False)
    paused_reason = models.TextField(blank=True)  # set when the product paused it (its owner lost access, ...)
    next_run_at = models.DateTimeField(null=True, blank=True)  # None while paused
    last_fired_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Where each of its runs' end is announced, unless the run names its own (research/webhooks/)
    webhook_url = models.CharField(max_length=2000, blank=True)
    webhook_secret = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["next_run_at", "id"]
        indexes = [models.Index(fields=["paused", "next_run_at"], name="schedule_due")]

    def __str__(self) -> str:
        return f"schedule of {self.investigation}"


class FireOutcome(models.TextChoices):
    STARTED = "started", "Started"
    SKIPPED = "skipped", "Skipped"
    FAILED = "failed", "Could not start"


class ScheduleFire(models.Model):
    """One due time of a schedule and what became of it: a run started, skipped (the last one still going), or
    not started (with the reason). Unique per due time, the second guard against firing twice."""

    schedule = models.ForeignKey(Schedule, on_delete=models.CASCADE, related_name="fires")
    due_at = models.DateTimeField()
    fired_at = models.DateTimeField(auto_now_add=True)
    outcome = models.CharField(max_length=10, choices=FireOutcome.choices)
    reason = models.TextField(blank=True)
    run = models.OneToOneField(Run, null=True, blank=True, on_delete=models.SET_NULL, related_name="fire")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["schedule", "due_at"], name="schedule_fire_once")]
        ordering = ["-due_at", "-id"]

    def __str__(self) -> str:
        return f"{self.schedule_id} at {self.due_at:%Y-%m-%d %H:%M}: {self.outcome}"


class ScheduleMute(models.Model):
    """A member who unsubscribed from a schedule's e-mails (the digests still show in the app)."""

    schedule = models.ForeignKey(Schedule, on_delete=models.CASCADE, related_name="mutes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["schedule", "user"], name="schedule_mute_unique")]

    def __str__(self) -> str:
        return f"{self.user} muted {self.schedule_id}"


class Digest(models.Model):
    """What a scheduled run changed since the investigation's previous finished run (research/writing/diff.py),
    stored as built; whether its readers were notified was decided in code from that diff."""

    investigation = models.ForeignKey(Investigation, on_delete=models.CASCADE, related_name="digests")
    schedule = models.ForeignKey(Schedule, null=True, blank=True, on_delete=models.SET_NULL, related_name="digests")
    run = models.OneToOneField(Run, on_delete=models.CASCADE, related_name="digest")
    previous_run = models.ForeignKey(Run, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    status = models.CharField(max_length=10)  # the run's end: finished, failed, cancelled
    changed = models.BooleanField(default=False)
    notified = models.BooleanField(default=False)  # the decision (mode and diff), made once
    body = models.JSONField(default=dict)  # research/schedules/digests.py: counts and items, with evidence
    emailed_to = models.JSONField(default=list, blank=True)  # user ids an e-mail went to (a retry skips them)
    sending_until = models.DateTimeField(null=True, blank=True)  # a worker sending its e-mails holds it until then
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"digest of run {self.run_id}"


class Notification(models.Model):
    """An in-app notice for one user: a digest, or a schedule the product had to pause."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="+")
    investigation = models.ForeignKey(Investigation, null=True, on_delete=models.CASCADE, related_name="+")
    digest = models.ForeignKey(Digest, null=True, blank=True, on_delete=models.CASCADE, related_name="notifications")
    title = models.CharField(max_length=300)
    text = models.TextField(blank=True)
    url = models.CharField(max_length=300)  # a path in the product
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "read_at"], name="notification_unread")]

    def __str__(self) -> str:
        return f"{self.user}: {self.title}"


class WebPage(models.Model):
    """A page fetched into a corpus (by a run's fetch_url or "Add a web page"): its address, what the site said
    about it (ETag, Last-Modified), when, what became of it, and the document it is."""

    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="web_pages")
    url = models.CharField(max_length=2000)  # as asked for (without its #fragment)
    final_url = models.CharField(max_length=2000, blank=True)  # after redirects
    etag = models.CharField(max_length=300, blank=True)
    last_modified = models.CharField(max_length=100, blank=True)
    content_sha256 = models.CharField(max_length=64, blank=True)
    outcome = models.CharField(max_length=10, blank=True)  # fetched, unchanged, refused, failed
    reason = models.TextField(blank=True)
    fetched_at = models.DateTimeField(null=True, blank=True)  # the last time the site was asked
    document = models.ForeignKey(Document, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # A fetch in progress holds the page until then (a conditional UPDATE claims it): one download at a time
    # across every worker process, and a claim whose worker died expires
    claimed_until = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["corpus", "url"], name="web_page_unique_url")]
        ordering = ["-fetched_at", "-id"]

    def __str__(self) -> str:
        return self.url


class ApiScope(models.TextChoices):
    """What an API token may do, within what its user may do in its workspace (never more)."""

    RUNS_WRITE = "runs:write", "start and cancel runs"
    RUNS_READ = "runs:read", "read runs and their events"
    CORPORA_WRITE = "corpora:write", "create corpora and upload files"
    CORPORA_READ = "corpora:read", "read corpora and their files"
    REPORTS_READ = "reports:read", "read reports and their exports"


class ApiToken(models.Model):
    """A user's key to the public API (research/api): one workspace, some scopes (none: the user's own rights there),
    an optional expiry. Only its SHA-256 is stored; it works while its user is active and still a member."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100)
    scopes = models.JSONField(default=list, blank=True)  # ApiScope values; empty: every scope
    token_sha256 = models.CharField(max_length=64, unique=True)
    hint = models.CharField(max_length=16)  # the token's first characters, shown to tell tokens apart
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.user}: {self.name} ({self.hint})"


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    DELIVERED = "delivered", "Delivered"
    FAILED = "failed", "Failed"


class WebhookDelivery(models.Model):
    """One announcement of a run's end to its webhook (research/webhooks/): the signed body, sent again with backoff
    until the receiver answers 2xx or the attempts run out; what each attempt got is kept for the member to see."""

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="webhook_deliveries")
    event = models.CharField(max_length=40)  # run.finished, run.failed
    url = models.CharField(max_length=2000)
    secret = models.CharField(max_length=200)  # the webhook's when the run ended: every attempt signs with it
    body = models.TextField()  # the JSON sent, signed as it is (a retry sends the same bytes)
    status = models.CharField(max_length=10, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    response_status = models.PositiveIntegerField(null=True, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    next_attempt_at = models.DateTimeField(null=True, blank=True)  # while pending: when it is due
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="webhook_delivery_due")]
        constraints = [models.UniqueConstraint(fields=["run", "event"], name="webhook_delivery_once")]

    def __str__(self) -> str:
        return f"{self.event} of run {self.run_id} to {self.url}"


class CorpusHealth(models.Model):
    """A check of how well the agent searches a corpus: tasks generated from its documents and verified
    (research/evaluation/generation.py), then the agent and a single-pass search run on them with one backend; the
    figures and the reward kept, so that the corpus's checks form a history."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        GENERATING = "generating", "Generating tasks"
        EVALUATING = "evaluating", "Running the agent"
        FINISHED = "finished", "Finished"
        FAILED = "failed", "Failed"

    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="health_checks")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    backend = models.CharField(max_length=20)
    count = models.PositiveIntegerField(default=20)  # tasks asked for
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.QUEUED)
    done = models.PositiveIntegerField(default=0)  # tasks evaluated so far
    total = models.PositiveIntegerField(default=0)  # tasks generated (what is evaluated)
    error = models.TextField(blank=True)
    generation = models.JSONField(default=dict, blank=True)  # candidates, drops by check, seconds
    figures = models.JSONField(default=dict, blank=True)  # {"agent": {...}, "baseline": {...}}: means and reward terms
    tasks = models.JSONField(default=list, blank=True)  # per task: question, hops, documents, both systems' figures
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)  # when a worker claimed it
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.corpus}: {self.backend} {self.created_at:%Y-%m-%d}"

    @property
    def active(self) -> bool:
        return self.status in {self.Status.QUEUED, self.Status.GENERATING, self.Status.EVALUATING}
