"""`manage.py seed_demo`: create the demo login and workspace (idempotent) and print the login."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from research.demo.seed import demo_corpus_seed, demo_seed


class Command(BaseCommand):
    help = "Create the demo user and workspace if missing, and print the login."

    def handle(self, *args: Any, **options: Any) -> None:
        login = demo_seed(login_file=settings.DATA_DIR / "demo_login.txt")
        password = login.password or "(unchanged; reset it with `manage.py changepassword demo`)"
        verb = "created" if login.created else "ready"
        self.stdout.write(f"Demo login {verb}: username {login.username}  password {password}")
        upload = demo_corpus_seed(workspace=login.workspace, marker=settings.DATA_DIR / "demo_corpus_seeded")
        if upload is not None:
            count = upload.files.count()
            self.stdout.write(
                f"Demo corpus: {count} files queued for ingestion; the worker's progress lines follow, "
                f"and the corpus page shows each file's stage live"
            )
