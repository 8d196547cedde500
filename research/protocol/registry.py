"""Registries of pluggable implementations: a name mapped to a ``package.module:attribute`` path, imported on use."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Generic, TypeVar, cast

T = TypeVar("T")


class UnknownName(LookupError, ValueError):
    """A name no entry of the registry has (a bad setting or flag value); the message lists the names it knows."""


@dataclass(frozen=True)
class Registry(Generic[T]):
    """``kind`` says what the entries are ("embedder"), for messages; ``paths`` maps each name to what ``load``
    imports. Nothing is imported until ``load``, so a registry costs nothing to define or to list."""

    kind: str
    paths: Mapping[str, str]

    def __post_init__(self) -> None:
        for name, path in self.paths.items():
            module, _, attribute = path.partition(":")
            if not module or not attribute.isidentifier():
                raise ValueError(f"{self.kind} {name!r}: {path!r} is not of the form 'package.module:attribute'")
        object.__setattr__(self, "paths", MappingProxyType(dict(self.paths)))

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.paths)

    def load(self, name: str) -> T:
        """The object registered as ``name``, its module imported now if it was not yet."""
        path = self.paths.get(name)
        if path is None:
            raise UnknownName(f"unknown {self.kind} {name!r} (known: {', '.join(self.names)})")
        module, _, attribute = path.partition(":")
        return cast(T, getattr(importlib.import_module(module), attribute))
