"""`manage.py seed_demo`: create the demo login and workspace (idempotent) and say where the login is kept."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from research.demo.seed import demo_corpus_seed, demo_seed


class Command(BaseCommand):
    help = "Create the demo user and workspace if missing, and say where the login is kept."

    def handle(self, *args: Any, **options: Any) -> None:
        login_file = settings.DATA_DIR / "demo_login.txt"
        login = demo_seed(login_file=login_file)
        # The password itself is printed once, by the launcher at the first start (context1_web/launcher.py)
        verb = "created" if login.created else "exists"
        if login.password is None:
            where = "; its password is not on file (reset it with `manage.py changepassword demo`)"
        else:
            where = f", password kept in {login_file}"
        self.stdout.write(f"Demo login {verb}: username {login.username}{where}")
        upload = demo_corpus_seed(workspace=login.workspace, marker=settings.DATA_DIR / "demo_corpus_seeded")
        if upload is not None:
            count = upload.files.count()
            self.stdout.write(
                f"Demo corpus: {count} files queued for ingestion; the worker's progress lines follow, "
                f"and the corpus page shows each file's stage live"
            )
