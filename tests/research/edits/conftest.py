from tests.research.investigations.conftest import _no_queue, team  # noqa: F401  (the same team and runs)
