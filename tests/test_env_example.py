""".env.example documents every variable the settings and the launcher read."""

from __future__ import annotations

from tests.support import topology
from tests.support.processes import REPO


def test_every_setting_variable_is_documented() -> None:
    read = topology.settings_variables()
    assert len(read) > 20
    assert read - set(topology.dotenv((REPO / ".env.example").read_text())) == set()
