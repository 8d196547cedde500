""".env.example documents every variable the settings and the launcher read."""

from __future__ import annotations

import re

from tests.support.processes import REPO


def _documented() -> set[str]:
    text = (REPO / ".env.example").read_text()
    return set(re.findall(r"^([A-Z][A-Z0-9_]+)=", text, flags=re.MULTILINE))


def _read_by(path: str, pattern: str) -> set[str]:
    return set(re.findall(pattern, (REPO / path).read_text()))


def test_every_setting_variable_is_documented() -> None:
    read = _read_by("context1_web/settings.py", r'env\.\w+\(\s*"([A-Z][A-Z0-9_]+)"')
    read |= _read_by("context1_web/launcher.py", r'env(?:\.get\(|\[)"([A-Z][A-Z0-9_]+)"')
    read -= {"DJANGO_SETTINGS_MODULE", "PYTHONUNBUFFERED"}
    assert len(read) > 20
    assert read - _documented() == set()
