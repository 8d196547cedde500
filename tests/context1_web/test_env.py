from __future__ import annotations

from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from context1_web.env import Env


def test_it_returns_defaults_for_missing_and_blank_values() -> None:
    env = Env({"BLANK": "  "})
    assert env.string("MISSING", "x") == "x"
    assert env.integer("BLANK", 7) == 7
    assert env.boolean("MISSING", True) is True
    assert env.optional_string("BLANK") is None


@pytest.mark.parametrize(("raw", "expected"), [("1", True), ("TRUE", True), ("no", False), ("off", False)])
def test_it_parses_booleans(raw: str, expected: bool) -> None:
    assert Env({"FLAG": raw}).boolean("FLAG", not expected) is expected


def test_it_rejects_a_bad_boolean_with_the_variable_name() -> None:
    with pytest.raises(ImproperlyConfigured, match=r"DEBUG='maybe' is not a boolean"):
        Env({"DEBUG": "maybe"}).boolean("DEBUG", False)


def test_it_rejects_non_numbers_and_out_of_range_integers() -> None:
    with pytest.raises(ImproperlyConfigured, match="not a whole number"):
        Env({"N": "4.5"}).integer("N", 1)
    with pytest.raises(ImproperlyConfigured, match="below the minimum 1"):
        Env({"N": "0"}).integer("N", 1, minimum=1)
    with pytest.raises(ImproperlyConfigured, match="above the maximum 8"):
        Env({"N": "9"}).integer("N", 1, maximum=8)
    with pytest.raises(ImproperlyConfigured, match="not a number"):
        Env({"T": "soon"}).number("T", 1.0)


def test_it_validates_url_schemes_and_hosts() -> None:
    env = Env({"GOOD": "redis://127.0.0.1:6379/0/", "BAD": "http://x", "EMPTY": "redis://"})
    assert env.url("GOOD", schemes=("redis",)) == "redis://127.0.0.1:6379/0"
    with pytest.raises(ImproperlyConfigured, match="must start with one of: redis"):
        env.url("BAD", schemes=("redis",))
    with pytest.raises(ImproperlyConfigured, match="names no host"):
        env.url("EMPTY", schemes=("redis",))
    assert env.url("UNSET", schemes=("redis",)) is None


def test_it_splits_lists_and_resolves_paths(tmp_path: Path) -> None:
    env = Env({"HOSTS": "a, b,,c", "DIR": str(tmp_path / "x" / ".." / "y")})
    assert env.strings("HOSTS", []) == ["a", "b", "c"]
    assert env.path("DIR", Path("/nope")) == tmp_path / "y"


def test_it_restricts_choices() -> None:
    with pytest.raises(ImproperlyConfigured, match="must be one of: threads, prefork"):
        Env({"POOL": "gevent"}).choice("POOL", "threads", choices=("threads", "prefork"))


def test_a_header_match_reads_name_and_value() -> None:
    env = Env({"PROXY": "X-Forwarded-Proto: https", "BAD": "https", "ODD": "X Forwarded: https"})
    assert env.header_match("PROXY") == ("HTTP_X_FORWARDED_PROTO", "https")
    assert env.header_match("UNSET") is None
    for name in ("BAD", "ODD"):
        with pytest.raises(ImproperlyConfigured, match="must look like 'X-Forwarded-Proto: https'"):
            env.header_match(name)
