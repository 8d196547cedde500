"""Running the harness from the Django side: settings become harness config and backends (composition)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from django.conf import settings
from django.db import connection

from research.corpora.selectors import corpus_find
from research.harness.budget import BudgetConfig
from research.harness.config import HarnessConfig
from research.harness.ports import Corpus as CorpusPortType
from research.harness.ports import EventSink
from research.harness.run import RunResult, run_research
from research.inference.registry import BackendFactory, InferenceSettings
from research.inference.registry import backend_factory as backends_for
from research.models import Corpus, CorpusKind, Membership, Role, Run
from research.platform.composition import configured, token_counter, web_search_provider
from research.protocol.run_options import RunOptions
from research.reporting.kinds import run_facets
from research.reporting.selectors import run_language
from research.retrieval.port import CorpusPort
from research.runs.multi_corpus import corpora_searched
from research.web_sources.port import RunWeb
from research.web_sources.services import web_corpus


def inference_settings(*, single_subject: bool = False) -> InferenceSettings:
    return InferenceSettings(
        single_subject=single_subject,
        base_url=settings.VLLM_BASE_URL,
        model=settings.VLLM_MODEL,
        api_key=settings.VLLM_API_KEY,
        timeout=settings.VLLM_TIMEOUT,
        temperature=settings.VLLM_TEMPERATURE,
    )


def backend_factory(*, single_subject: bool = False) -> BackendFactory:
    """A backend per rollout: INFERENCE_BACKEND from the inference registry (research/inference/registry.py);
    ``single_subject`` for a report's facets (see InferenceSettings).

    It is built here, not in research.platform.composition, because views import the composition root and
    may not reach research.inference (import-linter)."""
    chosen = inference_settings(single_subject=single_subject)
    return configured("INFERENCE_BACKEND", lambda: backends_for(settings.INFERENCE_BACKEND, chosen))


def harness_config(*, rollouts: int, budget: int, max_turns: int) -> HarnessConfig:
    return HarnessConfig(
        budget=BudgetConfig(
            limit=budget, soft_nudge=settings.BUDGET_SOFT_NUDGE, hard_fraction=settings.BUDGET_HARD_FRACTION
        ),
        rollouts=rollouts,
        max_turns=max_turns,
        counter_name=token_counter().name,  # the corpus's counts of its hits are then not re-counted
    )


async def run_in_process(
    *,
    question: str,
    corpus_name: str,
    workspace_slug: str | None,
    rollouts: int,
    budget: int,
    max_turns: int,
    sink: EventSink,
    web: bool = False,
) -> RunResult:
    """Run a research job here and now (the CLI) over the corpus of this name or slug (in ``workspace_slug`` when
    given), with web sources when ``web`` (pages fetched into the workspace's web corpus, as its first owner);
    raises LookupError for an unknown workspace or corpus, a name that several workspaces use, or web sources
    asked for on a server without a search provider."""
    from channels.db import database_sync_to_async  # closes the lookup thread's connection when done

    corpus = await database_sync_to_async(corpus_find)(name_or_slug=corpus_name, workspace_slug=workspace_slug)
    corpora, port = [corpus], None
    if web:
        fetched, port = await database_sync_to_async(_cli_web)(corpus, question)
        corpora.append(fetched)
    return await run_research(
        question=question,
        corpus=corpus_port(corpora),
        web=port,
        backend_for=backend_factory(),
        config=harness_config(rollouts=rollouts, budget=budget, max_turns=max_turns),
        sink=sink,
        count=token_counter().count,
    )


def _cli_web(corpus: Corpus, question: str) -> tuple[Corpus, RunWeb]:
    """The workspace's web corpus and the web port for a command-line run (as the workspace's first owner)."""
    provider = web_search_provider()
    if provider is None:
        raise LookupError("web sources are not configured on this server: set WEB_SEARCH_PROVIDER (see the README)")
    owner = Membership.objects.filter(workspace_id=corpus.workspace_id, role=Role.OWNER).order_by("pk").first()
    if owner is None:
        raise LookupError(f"the workspace of {corpus.name!r} has no owner to fetch pages as")
    fetched = web_corpus(actor=owner)
    return fetched, RunWeb(provider=provider, corpus=fetched, user=owner.user, question=question)


def corpus_port(corpora: Sequence[Corpus]) -> CorpusPortType:
    """The harness's corpus for a run: one corpus as it is, several searched as one (research.runs.multi_corpus)."""
    return CorpusPort(corpora_searched(corpora))


def run_harness(
    run: Run, *, sink: EventSink, cancelled: Callable[[], bool], cancel_reason: Callable[[], str] = lambda: "cancelled"
) -> RunResult:
    """Run a stored run's research job in this thread, on its own event loop (the worker's way in). A report
    runs one rollout per facet, all at once, each searching its facet's question."""
    corpus = corpus_port(list(run.corpora.order_by("pk")))
    facets = run_facets(run)
    web = run_web(run)
    rollouts = len(facets) or run.rollouts
    language = run_language(run) if facets else "en"  # a French corpus's facets search their French words too
    job = run_research(
        question=run.question,
        corpus=corpus,
        backend_for=backend_factory(single_subject=bool(facets)),
        config=harness_config(rollouts=rollouts, budget=run.budget, max_turns=run.max_turns),
        facets=[(facet.title, facet.ask(run.subject, language)) for facet in facets],
        sink=sink,
        count=token_counter().count,
        cancelled=cancelled,
        cancel_reason=cancel_reason,
        web=web,
    )
    # This thread does not use the database while the harness runs (minutes, or hours: the sink's writer thread
    # stores the events), but its connection would stay open, idle, all that time, and the writes after the run
    # (its report, how it ended) would go to it even if the database dropped it meanwhile (restarted, or a
    # network cut: "the connection is closed", and the run would stay running until its lease ran out). Let it
    # go now; those writes open a fresh one (tests/integration/test_database_outage.py). Never inside a
    # transaction (a caller's: closing would roll it back), which a worker never is in here.
    if not connection.in_atomic_block:
        connection.close()
    return asyncio.run(job)


def run_web(run: Run) -> RunWeb | None:
    """The run's web sources when it asked for them and the deployment has a search provider (a run started
    with web sources keeps its fetched pages' corpus; without a provider it searches its corpora only)."""
    if not RunOptions.of(run.options).web:
        return None
    provider = web_search_provider()
    corpus = run.corpora.filter(kind=CorpusKind.WEB).first()
    if provider is None or corpus is None:
        return None
    return RunWeb(provider=provider, corpus=corpus, user=run.created_by, question=run.question)
