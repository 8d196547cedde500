"""The demo account and workspace that the embedded default creates on first start."""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from pathlib import Path

from django.contrib.auth import get_user_model
from django.db import transaction

from research.corpora.services import IncomingFile, corpus_create, upload_create
from research.demo.files import DEMO_QUESTIONS, demo_corpus_files
from research.models import Corpus, Membership, Role, Upload, Workspace
from research.workspaces.services import workspace_create

DEMO_USERNAME = "demo"
DEMO_WORKSPACE = "Demo workspace"
DEMO_WORKSPACE_SLUG = "demo-workspace"
DEMO_CORPUS = "Demo corpus"
DEMO_EMAIL = "demo@example.com"


@dataclass(frozen=True)
class DemoLogin:
    username: str
    password: str | None  # None when the account existed before and its password is not on file
    workspace: Workspace
    created: bool


@transaction.atomic
def demo_seed(*, login_file: Path) -> DemoLogin:
    """Create the demo user (random password, kept in ``login_file``) and its workspace; idempotent."""
    user_model = get_user_model()
    user = user_model.objects.filter(username=DEMO_USERNAME).first()
    created = user is None
    password: str | None
    if user is None:
        password = secrets.token_urlsafe(12)
        # An address at a reserved domain: schedules' digests and test e-mails of the demo land in DATA_DIR/mail
        user = user_model.objects.create_user(username=DEMO_USERNAME, password=password, email=DEMO_EMAIL)
        login_file.parent.mkdir(parents=True, exist_ok=True)
        login_file.write_text(f"{DEMO_USERNAME}\n{password}\n")
        login_file.chmod(0o600)
    else:
        lines = login_file.read_text().splitlines() if login_file.is_file() else []
        password = lines[1] if len(lines) > 1 else None
    workspace = Workspace.objects.filter(memberships__user=user, name=DEMO_WORKSPACE).first()
    if workspace is None:
        free = not Workspace.objects.filter(slug=DEMO_WORKSPACE_SLUG).exists()
        workspace = workspace_create(
            name=DEMO_WORKSPACE,
            owner=user,
            description="Fictional companies to try research runs on.",
            slug=DEMO_WORKSPACE_SLUG if free else None,  # the address the docs name (docs/features.md)
        )
    return DemoLogin(username=DEMO_USERNAME, password=password, workspace=workspace, created=created)


def demo_corpus_seed(*, workspace: Workspace, marker: Path | None = None, enqueue: bool = True) -> Upload | None:
    """Create the demo corpus and upload the demo files into it, once; None when it exists or was seeded before
    (``marker``, a file written after seeding: a demo corpus the user deleted or renamed stays so)."""
    if (marker is not None and marker.exists()) or workspace_has_demo_corpus(workspace):
        return None
    owner = Membership.objects.select_related("workspace", "user").get(
        workspace=workspace, role=Role.OWNER, user__username=DEMO_USERNAME
    )
    corpus = corpus_create(actor=owner, name=DEMO_CORPUS, description="Fictional vendors, customers and analysts.")
    files = [IncomingFile(name=path.name, chunks=[path.read_bytes()]) for path in demo_corpus_files()]
    upload = upload_create(actor=owner, corpus=corpus, files=files, enqueue=enqueue)
    if marker is not None:
        marker.write_text(f"demo corpus {corpus.pk} seeded\n")
    return upload


def demo_questions(*, limit: int = 4) -> list[str]:
    """The first questions of the demo question bank, offered on the demo workspace's empty run form."""
    lines = DEMO_QUESTIONS.read_text(encoding="utf-8").splitlines()
    return [str(json.loads(line)["question"]) for line in lines if line.strip()][:limit]


def workspace_has_demo_corpus(workspace: Workspace) -> bool:
    return Corpus.objects.filter(workspace=workspace, name__iexact=DEMO_CORPUS).exists()
