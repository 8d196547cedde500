"""The packaged MiniLM as an ONNX graph, built on this machine from its own weights (no download), once.

The graph is the sentence-transformers model end to end: BERT, mean pooling over the attention mask and L2
normalisation, so one ``session.run`` gives the finished vectors. It is exported with torch (the legacy
TorchScript exporter: no extra compiler), checked against the torch model on probe sentences (every cosine at
least ``MIN_COSINE``, else the build is refused and nothing is cached), and written under the cache folder with
the weights' fingerprint in its name: a changed model builds a new file, and processes that start together (the
web server and a worker) build it once, one waiting for the other behind a file lock.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import logging
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

log = logging.getLogger(__name__)

MIN_COSINE = 0.9999  # the exported graph must give the torch model's vectors (float32 rounding aside)
PROBES = (
    "Who founded the company that makes the Halyard serverless tier?",
    "Rift Valley fever is a viral disease of ruminants, transmitted by mosquitoes.",
    "a",
    "Preisliste 2026: Grundgebühr 49 € pro Monat, zzgl. MwSt. — gültig ab 1. März.",
)
OPSET = 17


def fingerprint(model_path: Path) -> str:
    """A short digest of the model's weights and configuration files (names, sizes and contents)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in model_path.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(model_path)).encode())
        with path.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()[:16]


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def onnx_model(model_path: Path, cache_dir: Path) -> Path:
    """The ONNX file of the sentence-transformers model at ``model_path``, built into ``cache_dir`` if missing."""
    target = cache_dir / f"{model_path.name}-{fingerprint(model_path)}.onnx"
    if target.exists():
        return target
    with _locked(cache_dir / ".build.lock"):
        if target.exists():  # another process built it while this one waited
            return target
        log.info("Building the ONNX form of %s once (a few seconds; cached in %s)", model_path.name, cache_dir)
        started = time.perf_counter()
        partial = target.with_suffix(f".{os.getpid()}.partial")
        try:
            _export(model_path, partial)
            _verify(model_path, partial)
            partial.replace(target)
        finally:
            partial.unlink(missing_ok=True)
        log.info("ONNX model ready in %.1f s: %s", time.perf_counter() - started, target)
    return target


def _torch_model(model_path: Path) -> Any:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(str(model_path), device="cpu", local_files_only=True)


def _export(model_path: Path, target: Path) -> None:
    import torch

    model = _torch_model(model_path)
    bert = model[0].auto_model.eval()

    class Pooled(torch.nn.Module):  # what sentence-transformers computes: mean over real tokens, then unit length
        def __init__(self) -> None:
            super().__init__()
            self.bert = bert

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            hidden = self.bert(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state
            mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(pooled, dim=-1)

    sample = model.tokenizer(["a sample"], return_tensors="pt")
    inputs = ("input_ids", "attention_mask", "token_type_ids")
    axes = {name: {0: "batch", 1: "tokens"} for name in inputs}
    with torch.no_grad(), warnings_quiet():
        torch.onnx.export(
            Pooled(),
            tuple(sample[name] for name in inputs),
            str(target),
            input_names=list(inputs),
            output_names=["embedding"],
            dynamic_axes={**axes, "embedding": {0: "batch"}},
            opset_version=OPSET,
            dynamo=False,
        )


@contextlib.contextmanager
def warnings_quiet() -> Iterator[None]:
    """The exporter's tracer warnings say nothing a user can act on."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _verify(model_path: Path, candidate: Path) -> None:
    from research.retrieval.embedders.onnx_encoder import OnnxEncoder

    expected = np.asarray(
        _torch_model(model_path).encode(list(PROBES), normalize_embeddings=True, show_progress_bar=False)
    )
    got = OnnxEncoder(candidate, model_path / "tokenizer.json", max_tokens=256).encode(list(PROBES))
    cosines = (expected * got).sum(axis=1)
    if float(cosines.min()) < MIN_COSINE:
        raise RuntimeError(f"the ONNX export differs from the model (cosine {cosines.min():.5f} < {MIN_COSINE})")
