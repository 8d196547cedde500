"""The run tests' fixtures (an ingested corpus, runs started without a queue), shared with the reporting tests."""

from tests.research.runs.conftest import _close_thread_connections, corpus, owner, start_run

__all__ = ["_close_thread_connections", "corpus", "owner", "start_run"]
