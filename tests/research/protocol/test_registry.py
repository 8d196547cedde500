"""The registry of pluggable implementations: names, lazy imports, and what an unknown name says."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from research.protocol.registry import Registry, UnknownName


def test_it_lists_its_names_in_order_and_imports_an_entry_only_when_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "registry_probe_module.py").write_text("VALUE = 42\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "registry_probe_module", raising=False)
    registry: Registry[int] = Registry("probe", {"b": "registry_probe_module:VALUE", "a": "json:dumps"})
    assert registry.names == ("b", "a")
    assert "registry_probe_module" not in sys.modules
    assert registry.load("b") == 42
    assert "registry_probe_module" in sys.modules


def test_an_unknown_name_is_refused_with_the_known_names() -> None:
    registry: Registry[object] = Registry("widget", {"one": "json:dumps", "two": "json:loads"})
    with pytest.raises(UnknownName, match=r"unknown widget 'three' \(known: one, two\)") as raised:
        registry.load("three")
    assert isinstance(raised.value, LookupError)
    assert isinstance(raised.value, ValueError)  # a bad setting or flag value: commands report ValueErrors


@pytest.mark.parametrize("path", ["json.dumps", ":dumps", "json:", "json:not an attribute"])
def test_a_malformed_path_is_refused_when_the_registry_is_defined(path: str) -> None:
    with pytest.raises(ValueError, match=r"package\.module:attribute"):
        Registry("widget", {"bad": path})


def test_its_entries_cannot_be_changed_after_definition() -> None:
    entries = {"one": "json:dumps"}
    registry: Registry[object] = Registry("widget", entries)
    entries["two"] = "json:loads"
    assert registry.names == ("one",)
    with pytest.raises(TypeError):
        registry.paths["two"] = "json:loads"  # type: ignore[index]
