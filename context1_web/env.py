"""Strict readers of environment variables: a bad value stops start-up with a clear message."""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


class Env:
    """Typed access to a mapping of environment variables (``os.environ`` by default)."""

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        self._environ = os.environ if environ is None else environ

    def _raw(self, name: str) -> str | None:
        value = self._environ.get(name)
        if value is None or value.strip() == "":
            return None
        return value.strip()

    def string(self, name: str, default: str) -> str:
        value = self._raw(name)
        return default if value is None else value

    def optional_string(self, name: str) -> str | None:
        return self._raw(name)

    def boolean(self, name: str, default: bool) -> bool:
        value = self._raw(name)
        if value is None:
            return default
        if value.lower() in _TRUE:
            return True
        if value.lower() in _FALSE:
            return False
        raise ImproperlyConfigured(f"{name}={value!r} is not a boolean (use true or false)")

    def integer(self, name: str, default: int, *, minimum: int | None = None, maximum: int | None = None) -> int:
        value = self._raw(name)
        if value is None:
            return default
        try:
            number = int(value)
        except ValueError:
            raise ImproperlyConfigured(f"{name}={value!r} is not a whole number") from None
        if minimum is not None and number < minimum:
            raise ImproperlyConfigured(f"{name}={number} is below the minimum {minimum}")
        if maximum is not None and number > maximum:
            raise ImproperlyConfigured(f"{name}={number} is above the maximum {maximum}")
        return number

    def number(self, name: str, default: float, *, minimum: float = 0.0) -> float:
        value = self._raw(name)
        if value is None:
            return default
        try:
            number = float(value)
        except ValueError:
            raise ImproperlyConfigured(f"{name}={value!r} is not a number") from None
        if number < minimum:
            raise ImproperlyConfigured(f"{name}={number} is below the minimum {minimum}")
        return number

    def strings(self, name: str, default: list[str]) -> list[str]:
        value = self._raw(name)
        if value is None:
            return list(default)
        return [item.strip() for item in value.split(",") if item.strip()]

    def networks(self, name: str) -> list[str]:
        """A comma-separated list of IP addresses or networks ("10.0.0.5, 172.16.0.0/12"); none by default."""
        entries = self.strings(name, [])
        for entry in entries:
            try:
                ipaddress.ip_network(entry, strict=False)
            except ValueError:
                raise ImproperlyConfigured(f"{name}: {entry!r} is no IP address or network") from None
        return entries

    def path(self, name: str, default: Path) -> Path:
        value = self._raw(name)
        return (Path(value).expanduser() if value is not None else default).resolve()

    def url(self, name: str, *, schemes: tuple[str, ...]) -> str | None:
        """An optional URL whose scheme must be one of ``schemes`` and which must name a host or path."""
        value = self._raw(name)
        if value is None:
            return None
        parts = urlsplit(value)
        if parts.scheme not in schemes:
            allowed = ", ".join(schemes)
            raise ImproperlyConfigured(f"{name}={value!r} must start with one of: {allowed}")
        if not (parts.netloc or parts.path.strip("/")):
            raise ImproperlyConfigured(f"{name}={value!r} names no host")
        return value.rstrip("/")

    def choice(self, name: str, default: str, *, choices: tuple[str, ...]) -> str:
        value = self.string(name, default)
        if value not in choices:
            raise ImproperlyConfigured(f"{name}={value!r} must be one of: {', '.join(choices)}")
        return value

    def header_match(self, name: str) -> tuple[str, str] | None:
        """An optional ``Header-Name: value`` pair, as Django's request.META key and value (for
        SECURE_PROXY_SSL_HEADER: ``X-Forwarded-Proto: https`` gives ``("HTTP_X_FORWARDED_PROTO", "https")``)."""
        value = self._raw(name)
        if value is None:
            return None
        header, separator, expected = (part.strip() for part in value.partition(":"))
        if not separator or not expected or not re.fullmatch(r"[A-Za-z0-9-]+", header):
            raise ImproperlyConfigured(f"{name}={value!r} must look like 'X-Forwarded-Proto: https'")
        return f"HTTP_{header.upper().replace('-', '_')}", expected
