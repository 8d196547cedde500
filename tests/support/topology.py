"""The production topology's application processes: what docker-compose.yml runs and what
tests/integration/test_production_topology.py starts, declared once (tests/test_docker_compose.py holds the
compose file to it)."""

from __future__ import annotations

import re

from tests.support.processes import REPO

# Each app service of the compose file: the arguments after ``python`` and the variables of its own.
PROCESSES: dict[str, tuple[tuple[str, ...], dict[str, str]]] = {
    "web": (("-m", "daphne"), {}),
    "worker": (("-m", "worker"), {"WORKER_QUEUES": "runs,reports,default"}),
    "worker-ingest": (("-m", "worker"), {"WORKER_QUEUES": "ingest"}),
    "beat": (("-m", "worker", "beat"), {}),
}
# The app environment both share, besides the addresses of PostgreSQL, Redis and Chroma.
SHARED = {"WORKER_POOL": "prefork", "WORKER_CONCURRENCY": "2"}


def _read_by(path: str, pattern: str) -> set[str]:
    return set(re.findall(pattern, (REPO / path).read_text()))


def settings_variables() -> set[str]:
    """Every environment variable the settings and the launcher read."""
    read = _read_by("context1_web/settings.py", r'env\.\w+\(\s*"([A-Z][A-Z0-9_]+)"')
    read |= _read_by("context1_web/launcher.py", r'env(?:\.get\(|\[)"([A-Z][A-Z0-9_]+)"')
    return read - {"DJANGO_SETTINGS_MODULE", "PYTHONUNBUFFERED"}


def dotenv(text: str) -> dict[str, str]:
    """A .env file's ``NAME=value`` lines (comments and blank lines skipped), as Compose reads .env.example."""
    pairs = (line.split("=", 1) for line in text.splitlines() if re.match(r"[A-Z][A-Z0-9_]*=", line))
    return dict(pairs)
