"""Entry point: `python -m worker` starts a worker on every queue; `python -m worker beat` starts beat."""

from __future__ import annotations

import os
import sys

from worker.queues import QUEUE_NAMES


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


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "context1_web.settings")
    import django

    django.setup()
    from django.conf import settings

    import worker.signals  # noqa: F401  (connects the handlers)
    from context1_web.celery import app

    if argv[:1] == ["beat"]:
        app.start(["beat", "--loglevel", settings.LOG_LEVEL, *argv[1:]])
        return
    app.worker_main([*worker_argv(pool=settings.WORKER_POOL, concurrency=settings.WORKER_CONCURRENCY), *argv])


if __name__ == "__main__":
    main(sys.argv[1:])
