"""Reciprocal rank fusion (Cormack, Clarke and Buettcher, SIGIR 2009).

    RRF(d) = sum over rankings r that contain d of 1 / (k + rank_r(d)),   rank 1-based, k = 60

Scores are summed with ``math.fsum`` (exactly rounded), so they do not depend on the order of the lists.

Documents missing from a ranking contribute nothing for it. Ties are broken by the best single
rank, then by id, so the output is deterministic and independent of the order of the input lists.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

RRF_K = 60


@dataclass(frozen=True)
class Fused:
    item_id: str
    score: float
    ranks: dict[str, int]  # ranking name -> 1-based rank in it

    @property
    def best_rank(self) -> int:
        return min(self.ranks.values())


def rrf(
    rankings: Mapping[str, Sequence[str]], *, k: int = RRF_K, weights: Mapping[str, float] | None = None
) -> list[Fused]:
    """Fuse named rankings (best first), each ranking's terms times its weight (1 unless ``weights`` says). A
    repeated id within one ranking counts at its first rank."""
    if k < 0:
        raise ValueError("k must be non-negative")
    ranks: dict[str, dict[str, int]] = {}
    for name, ranking in rankings.items():
        for position, item_id in enumerate(ranking, start=1):
            ranks.setdefault(item_id, {}).setdefault(name, position)
    fused = [
        Fused(
            item_id=item_id,
            score=math.fsum((weights or {}).get(name, 1.0) / (k + rank) for name, rank in item_ranks.items()),
            ranks=item_ranks,
        )
        for item_id, item_ranks in ranks.items()
    ]
    fused.sort(key=lambda f: (-f.score, f.best_rank, f.item_id))
    return fused
