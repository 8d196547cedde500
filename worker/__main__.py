"""Entry point: `python -m worker` starts a worker on every queue; `python -m worker beat` starts beat. ``--quiet``
(anywhere) leaves out Celery's start-up banner: `make run` prints its own summary, and the worker's readiness line
("celery@... ready.") and its task lines still come."""

from __future__ import annotations

import os
import sys
import warnings

from worker.queues import QUEUE_NAMES

# Celery warns on every start as root (uid 0), which is how these development machines run everything. It is
# safe to silence here: this worker accepts JSON only (settings.CELERY_ACCEPT_CONTENT), and the dangerous case,
# root with pickle, is not a warning but an error that Celery still raises; the Docker image runs as a user.
ROOT_WARNING = r"You're running the worker with superuser privileges"


def worker_argv(*, pool: str, concurrency: int, queues: tuple[str, ...] = QUEUE_NAMES) -> list[str]:
    return [
        "worker",
        "--pool",
        pool,
        "--concurrency",
        str(concurrency),
        "--queues",
        ",".join(queues),
        "--without-gossip",
        "--without-mingle",
        "--loglevel",
        os.environ.get("LOG_LEVEL", "INFO"),
    ]


def quiet_start() -> None:
    """Keep warnings that are not news out of the console: Celery's root warning, and the embedding model's
    "Loading weights" progress bars (transformers/huggingface_hub write them to stderr, which Celery logs as
    WARNING); read at import, so set before anything imports them."""
    warnings.filterwarnings("ignore", message=ROOT_WARNING)
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "context1_web.settings")
    quiet_start()
    import django

    django.setup()
    from django.conf import settings

    import worker.signals  # noqa: F401  (connects the handlers)
    from context1_web.celery import app
    from worker import broker

    broker.install()  # a Redis restart must not shut the worker down (worker/broker.py)

    quiet = ["--quiet"] if "--quiet" in argv else []  # a global option of Celery's: it goes before the command
    argv = [arg for arg in argv if arg != "--quiet"]
    if argv[:1] == ["beat"]:
        app.start([*quiet, "beat", "--loglevel", settings.LOG_LEVEL, *argv[1:]])
        return
    command = worker_argv(
        pool=settings.WORKER_POOL, concurrency=settings.WORKER_CONCURRENCY, queues=tuple(settings.WORKER_QUEUES)
    )
    app.worker_main([*quiet, *command, *argv])


if __name__ == "__main__":
    main(sys.argv[1:])
