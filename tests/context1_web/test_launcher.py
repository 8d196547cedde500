from __future__ import annotations

import socket
from pathlib import Path

import pytest

from context1_web import launcher


def test_it_names_a_missing_dependency_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(launcher, "REQUIRED_MODULES", ("django", "surely_not_installed_pkg"))
    with pytest.raises(launcher.StartupError, match=r"^missing dependency surely_not_installed_pkg: run `make run`"):
        launcher.check_dependencies()


def test_it_refuses_a_port_in_use() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        with pytest.raises(launcher.StartupError, match=f"cannot listen on 127.0.0.1:{port}"):
            launcher.check_port_free("127.0.0.1", port)


def test_it_creates_a_private_secret_key_once(tmp_path: Path) -> None:
    launcher.ensure_secret_key({}, tmp_path)
    key = (tmp_path / "secret_key").read_text()
    launcher.ensure_secret_key({}, tmp_path)
    assert (tmp_path / "secret_key").read_text() == key
    assert len(key) > 40
    assert (tmp_path / "secret_key").stat().st_mode & 0o777 == 0o600
    launcher.ensure_secret_key({"SECRET_KEY": "given"}, tmp_path / "other")
    assert not (tmp_path / "other" / "secret_key").exists()
