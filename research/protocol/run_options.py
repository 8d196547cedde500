"""What a run keeps besides its question and limits (``Run.options``, a JSON object), typed and read in one
place. Reading is lenient: a value of the wrong type (an older row, a hand edit) reads as its default, so a
run never fails on its own options; writing keeps the stored shape (a key only when it says something)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True)
class RunOptions:
    writer: str = ""  # who writes its answer or report ("extractive", "openai"); a re-run keeps it
    web: bool = False  # its rollouts search the web too
    aspects: tuple[str, ...] = ()  # a report's extra facets, asked by the member
    criteria: tuple[dict[str, Any], ...] = ()  # an ICP check's profile, as it was when the run started
    as_of: str = ""  # an ISO date an ICP check's time windows end on (evaluations set it; else today)

    @classmethod
    def of(cls, stored: object) -> RunOptions:
        raw: Mapping[str, Any] = stored if isinstance(stored, Mapping) else {}
        aspects, criteria = raw.get("aspects"), raw.get("criteria")
        return cls(
            writer=raw["writer"] if isinstance(raw.get("writer"), str) else "",
            web=raw.get("web") is True,
            aspects=tuple(a for a in aspects if isinstance(a, str)) if isinstance(aspects, list) else (),
            criteria=tuple(c for c in criteria if isinstance(c, dict)) if isinstance(criteria, list) else (),
            as_of=raw["as_of"] if isinstance(raw.get("as_of"), str) else "",
        )

    def with_as_of(self, as_of: str) -> RunOptions:
        return replace(self, as_of=as_of)

    def as_json(self) -> dict[str, Any]:
        stored: dict[str, Any] = {"writer": self.writer}
        if self.aspects:
            stored["aspects"] = list(self.aspects)
        if self.web:
            stored["web"] = True
        if self.criteria:
            stored["criteria"] = [dict(c) for c in self.criteria]
        if self.as_of:
            stored["as_of"] = self.as_of
        return stored
