"""The product's MiniLM on ONNX Runtime: built once on this machine from the packaged weights, the torch
model's vectors, and a cached build that never imports torch again."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from research.retrieval.embedders import EmbedderSettings, embedder_for, onnx_export
from research.retrieval.embedders.onnx_runtime import OnnxEmbedder
from research.retrieval.embedders.sentence_transformer import SentenceTransformerEmbedder, packaged_minilm_path

LONG = "The quarterly meeting discussed routine operational matters. " * 60 + "Globex bought a battery startup."


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("models")


@pytest.fixture(scope="module")
def onnx(cache: Path) -> OnnxEmbedder:
    embedder = embedder_for("minilm", EmbedderSettings(cache_dir=cache))
    assert isinstance(embedder, OnnxEmbedder)
    return embedder


@pytest.fixture(scope="module")
def torch_minilm() -> SentenceTransformerEmbedder:
    return SentenceTransformerEmbedder()


def test_the_export_is_cached_under_the_weights_fingerprint(onnx: OnnxEmbedder, cache: Path) -> None:
    fingerprint = onnx_export.fingerprint(packaged_minilm_path())
    assert onnx.model_file == cache / f"model-{fingerprint}.onnx"
    assert [p.name for p in cache.glob("*.onnx")] == [onnx.model_file.name]
    assert not list(cache.glob("*.partial"))


def test_it_gives_the_torch_models_vectors(onnx: OnnxEmbedder, torch_minilm: SentenceTransformerEmbedder) -> None:
    texts = ["Team plan pricing increased.", "a", LONG, "Preisliste: 49 € pro Monat."]
    assert onnx.windows(LONG) == torch_minilm.windows(LONG)  # a long chunk is read window by window alike
    documents = (onnx.embed_documents(texts) * torch_minilm.embed_documents(texts)).sum(axis=1)
    queries = ["Who bought a battery startup?", "Halvorix pricing"]
    batch = (onnx.embed_queries(queries) * torch_minilm.embed_queries(queries)).sum(axis=1)
    single = float(onnx.embed_query(queries[0]) @ torch_minilm.embed_query(queries[0]))
    assert documents.min() > 0.9999
    assert batch.min() > 0.9999
    assert single > 0.9999
    assert onnx.embed_documents([]).shape == (0, 384)
    assert onnx.name == torch_minilm.name  # indexes built by either path stay searchable by the other


def test_a_cached_build_is_loaded_without_torch(onnx: OnnxEmbedder, cache: Path) -> None:
    probe = (
        "import sys; from pathlib import Path; "
        "from research.retrieval.embedders.onnx_runtime import factory; "
        "from research.retrieval.embedders import EmbedderSettings; "
        f"e = factory(EmbedderSettings(cache_dir=Path({str(cache)!r}))); e.embed_query('x'); "
        "print('torch' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    assert result.stdout.strip() == "False"


def test_processes_starting_together_build_it_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[Path] = []

    def export(model_path: Path, target: Path) -> None:
        time.sleep(0.2)  # long enough for the other caller to arrive while this one builds
        built.append(target)
        target.write_bytes(b"onnx")

    monkeypatch.setattr(onnx_export, "_export", export)
    monkeypatch.setattr(onnx_export, "_verify", lambda model_path, candidate: None)
    results: list[Path] = []
    callers = [
        threading.Thread(target=lambda: results.append(onnx_export.onnx_model(packaged_minilm_path(), tmp_path)))
        for _ in range(3)
    ]
    for caller in callers:
        caller.start()
    for caller in callers:
        caller.join()
    assert len(built) == 1
    assert len(set(results)) == 1
    assert results[0].read_bytes() == b"onnx"


def test_an_export_that_differs_from_the_model_is_refused_and_not_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(onnx_export, "MIN_COSINE", 1.5)  # no export can reach it
    with pytest.raises(RuntimeError, match="differs from the model"):
        onnx_export.onnx_model(packaged_minilm_path(), tmp_path)
    assert not list(tmp_path.glob("*.onnx"))
    assert not list(tmp_path.glob("*.partial"))


def test_minilm_runs_on_torch_when_its_export_cannot_be_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def export(model_path: Path, target: Path) -> None:
        raise ImportError("No module named 'onnx'")

    monkeypatch.setattr(onnx_export, "_export", export)
    embedder = embedder_for("minilm", EmbedderSettings(cache_dir=tmp_path))
    assert isinstance(embedder, SentenceTransformerEmbedder)
    assert "could not be built" in caplog.text
