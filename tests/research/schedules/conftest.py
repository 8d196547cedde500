"""The investigations' team (it overrides tests/research's own ``team`` here) and no queue."""

from tests.research.investigations.conftest import _no_queue, team  # noqa: F401
