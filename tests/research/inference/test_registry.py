"""The inference backends' registry: the names, what each entry builds, and what the product offers."""

from __future__ import annotations

import subprocess
import sys

import pytest

from research.harness.config import HarnessConfig
from research.harness.messages import Message
from research.harness.ports import ListSink
from research.harness.run import run_research
from research.inference.heuristic import HeuristicBackend
from research.inference.openai_compat import OpenAICompatBackend
from research.inference.registry import BACKENDS, PRODUCT_BACKENDS, InferenceSettings, backend_factory
from research.inference.scripted import ScriptedBackend, search_then_complete
from research.protocol.registry import UnknownName
from research.retrieval.memory import MemoryCorpus


def test_every_backend_is_registered_and_the_product_does_not_offer_the_scripted_one() -> None:
    assert BACKENDS.names == ("heuristic", "scripted", "openai")
    assert PRODUCT_BACKENDS == ("heuristic", "openai")


def test_each_entry_builds_its_backend_per_rollout() -> None:
    settings = InferenceSettings(base_url="http://127.0.0.1:9", model="m", timeout=5.0)
    heuristic = backend_factory("heuristic", settings)
    assert [heuristic(n).name for n in (0, 2)] == ["heuristic-0", "heuristic-2"]
    assert isinstance(heuristic(0), HeuristicBackend)
    assert isinstance(backend_factory("scripted", settings)(0), ScriptedBackend)
    openai = backend_factory("openai", settings)
    assert isinstance(openai(0), OpenAICompatBackend)
    assert openai(0) is not openai(1)
    assert openai(0).name == "openai_compat:m"


def test_the_openai_backend_needs_a_server_and_unknown_names_are_refused() -> None:
    with pytest.raises(ValueError, match=r"the openai backend needs a server URL \(--base-url or VLLM_BASE_URL\)"):
        backend_factory("openai", InferenceSettings())
    with pytest.raises(UnknownName, match="unknown inference backend 'oracle'"):
        backend_factory("oracle", InferenceSettings())


def test_listing_the_backends_imports_none_of_them() -> None:
    probe = (
        "import sys; from research.inference.registry import PRODUCT_BACKENDS; "
        "print(sorted(m for m in ('httpx', 'research.inference.openai_compat', 'research.inference.heuristic', "
        "'research.inference.scripted') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "[]"


async def test_the_scripted_policy_searches_the_question_then_completes_with_what_it_found() -> None:
    corpus = MemoryCorpus({"globex": ["Globex raised prices.", "Globex hired Dana."], "hooli": ["Hooli sells."]})
    sink = ListSink()
    result = await run_research(
        question="Did Globex raise prices?",
        corpus=corpus,
        backend_for=backend_factory("scripted", InferenceSettings()),
        config=HarnessConfig(rollouts=1),
        sink=sink,
    )
    assert [call[:2] for call in corpus.calls] == [("search", "Did Globex raise prices?")]
    assert [doc.doc_id for doc in result.documents] == ["globex"]
    nothing = search_then_complete([Message(role="user", content="q"), Message(role="assistant", content="")], [])
    assert (nothing.content, nothing.tool_calls) == ("Nothing found.", ())
