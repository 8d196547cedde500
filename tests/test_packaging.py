"""pyproject.toml builds without deprecation warnings (issue 11 (10): `project.license` as a TOML table)."""

from __future__ import annotations

import re
import tomllib
import warnings

from setuptools.config.pyprojecttoml import apply_configuration
from setuptools.dist import Distribution

from tests.support.processes import REPO


def test_the_project_metadata_raises_no_warning(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(REPO)  # the readme is read relative to the project
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        distribution = apply_configuration(Distribution(), REPO / "pyproject.toml")
    assert [str(warning.message).splitlines()[0] for warning in caught] == []
    assert distribution.metadata.license_expression == "Apache-2.0"


def test_the_build_requirement_accepts_an_spdx_license() -> None:
    """A license string needs setuptools 77 (PEP 639); an older one refuses the file."""
    requires = tomllib.loads((REPO / "pyproject.toml").read_text())["build-system"]["requires"]
    (setuptools,) = [item for item in requires if item.startswith("setuptools")]
    minimum = re.fullmatch(r"setuptools>=(\d+)(\.\d+)*", setuptools)
    assert minimum is not None
    assert int(minimum.group(1)) >= 77
