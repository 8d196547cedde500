"""The investigations' team (an owner, an author, an editor, a viewer and an outsider) and no queue, for the probe's
items that cross workspaces, links and members; the environment of real server processes."""

from tests.integration.conftest import process_env  # noqa: F401
from tests.research.investigations.conftest import _no_queue, team  # noqa: F401
