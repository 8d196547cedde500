"""Query embeddings shared between concurrent searches.

A run's rollouts search at once (nine facets of a report, four rollouts that all open with the whole question),
each search embedding its query on its own thread. Embedding one short query costs mostly fixed per-call work,
so this wrapper combines them: the first caller to arrive embeds what is waiting, and whoever arrives meanwhile
waits for the next batch, which that same caller embeds as one call (no timer, so a lone search waits for
nothing). A query embedded recently is answered from memory (every rollout of a question run searches the
whole question first). Document embedding (ingestion) passes straight through.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import Future

from research.retrieval.embedders import Embedder, Vectors

REMEMBERED = 1024  # recent queries kept per process


class CoalescingEmbedder:
    def __init__(self, inner: Embedder, *, remembered: int = REMEMBERED, max_batch: int = 64) -> None:
        self.inner = inner
        self._remembered, self._max_batch = remembered, max_batch
        self._lock = threading.Lock()
        self._pending: dict[str, Future[Vectors]] = {}
        self._serving = False
        self._recent: OrderedDict[str, Vectors] = OrderedDict()
        self.calls = 0  # batches sent to the inner embedder (for tests and benchmarks)

    @property
    def name(self) -> str:
        return self.inner.name

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        return self.inner.embed_documents(texts)

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        return self.inner.embed_queries(texts)

    def embed_query(self, text: str) -> Vectors:
        with self._lock:
            known = self._recent.get(text)
            if known is not None:
                self._recent.move_to_end(text)
                return known
            future = self._pending.get(text)
            if future is None:
                future = self._pending[text] = Future()
            serve = not self._serving
            self._serving = self._serving or serve
        if serve:
            self._serve()
        return future.result()

    def _serve(self) -> None:
        """Embed what is waiting, batch after batch, until nothing is; then let the next caller serve. Whatever
        happens, every waiter of a batch gets an answer or the failure, and serving ends (no caller hangs)."""
        try:
            while self._serve_batch():
                pass
        finally:
            with self._lock:
                self._serving = False
                orphans, self._pending = self._pending, {}
            for future in orphans.values():  # only when serving died between batches
                if not future.done():
                    future.set_exception(RuntimeError("the query embedder stopped serving; search again"))

    def _serve_batch(self) -> bool:
        with self._lock:
            if not self._pending:
                return False
            texts = list(self._pending)[: self._max_batch]
            batch = {text: self._pending.pop(text) for text in texts}
        try:
            rows = list(self.inner.embed_queries(texts))
            if len(rows) != len(texts):
                raise RuntimeError(f"the embedder returned {len(rows)} vectors for {len(texts)} queries")
            for row in rows:
                row.setflags(write=False)  # shared between callers: nobody may change it
        except BaseException as error:  # every waiter of this batch gets the failure; the next batch goes on
            for future in batch.values():
                future.set_exception(error)
            return True
        self.calls += 1
        with self._lock:
            self._recent.update(zip(texts, rows, strict=True))
            while len(self._recent) > self._remembered:
                self._recent.popitem(last=False)
        for text, row in zip(texts, rows, strict=True):
            batch[text].set_result(row)
        return True
