"""The production topology's application processes: what docker-compose.yml runs and what
tests/integration/test_production_topology.py starts, declared once (tests/test_docker_compose.py holds the
compose file to it)."""

from __future__ import annotations

# Each app service of the compose file: the arguments after ``python`` and the variables of its own.
PROCESSES: dict[str, tuple[tuple[str, ...], dict[str, str]]] = {
    "web": (("-m", "daphne"), {}),
    "worker": (("-m", "worker"), {"WORKER_QUEUES": "runs,reports,default"}),
    "worker-ingest": (("-m", "worker"), {"WORKER_QUEUES": "ingest"}),
    "beat": (("-m", "worker", "beat"), {}),
}
# The app environment both share, besides the addresses of PostgreSQL, Redis and Chroma.
SHARED = {"WORKER_POOL": "prefork", "WORKER_CONCURRENCY": "2"}
