"""The demo account and workspace that the embedded default creates on first start."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from pathlib import Path

from django.contrib.auth import get_user_model
from django.db import transaction

from research.models import Workspace
from research.services import workspace_create

DEMO_USERNAME = "demo"
DEMO_WORKSPACE = "Demo workspace"


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
        user = user_model.objects.create_user(username=DEMO_USERNAME, password=password)
        login_file.parent.mkdir(parents=True, exist_ok=True)
        login_file.write_text(f"{DEMO_USERNAME}\n{password}\n")
        login_file.chmod(0o600)
    else:
        lines = login_file.read_text().splitlines() if login_file.is_file() else []
        password = lines[1] if len(lines) > 1 else None
    workspace = Workspace.objects.filter(memberships__user=user, name=DEMO_WORKSPACE).first()
    if workspace is None:
        workspace = workspace_create(
            name=DEMO_WORKSPACE, owner=user, description="Fictional companies to try research runs on."
        )
    return DemoLogin(username=DEMO_USERNAME, password=password, workspace=workspace, created=created)
