"""Rankings: a rollout's documents from its chunks, and the RRF fusion of rollouts with agreement counts."""

from __future__ import annotations

from collections.abc import Sequence

from research.protocol import wire
from research.protocol.events import RankedDocument
from research.protocol.fusion import rrf


def documents_from_chunks(chunks: Sequence[wire.WireChunk]) -> list[RankedDocument]:
    """Group ranked chunks into documents, in the order each document first appears."""
    order: dict[str, list[wire.WireChunk]] = {}
    for chunk in chunks:
        order.setdefault(chunk.doc_id, []).append(chunk)
    return [
        RankedDocument(
            doc_id=doc_id, title=group[0].title, score=1.0 / rank, chunk_ids=tuple(c.chunk_id for c in group)
        )
        for rank, (doc_id, group) in enumerate(order.items(), start=1)
    ]


def rollout_ranking(
    seen: dict[str, wire.WireChunk], live: Sequence[str], completed: Sequence[str] | None
) -> list[RankedDocument]:
    """The model's own ranking when it called complete; else its live chunks by retrieval score."""
    if completed is not None:
        return documents_from_chunks([seen[chunk_id] for chunk_id in completed if chunk_id in seen])
    position = {chunk_id: index for index, chunk_id in enumerate(seen)}
    kept = sorted((seen[chunk_id] for chunk_id in live), key=lambda c: (-c.score, position[c.chunk_id]))
    return documents_from_chunks(kept)


def fuse_rollouts(rankings: Sequence[Sequence[RankedDocument]], *, top_k: int | None = None) -> list[RankedDocument]:
    """RRF over the rollouts' document rankings; ``agreement`` counts the rollouts that found each document."""
    fused = rrf({f"rollout-{i}": [doc.doc_id for doc in ranking] for i, ranking in enumerate(rankings)})
    by_id: dict[str, list[RankedDocument]] = {}
    for ranking in rankings:
        for doc in ranking:
            by_id.setdefault(doc.doc_id, []).append(doc)
    documents = []
    for item in fused[:top_k] if top_k else fused:
        found = by_id[item.item_id]
        chunk_ids = tuple(dict.fromkeys(chunk_id for doc in found for chunk_id in doc.chunk_ids))
        documents.append(
            RankedDocument(
                doc_id=item.item_id, title=found[0].title, score=item.score, chunk_ids=chunk_ids, agreement=len(found)
            )
        )
    return documents
