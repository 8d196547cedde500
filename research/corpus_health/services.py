"""Corpus health checks: tasks generated from a corpus's own documents and verified, then the agent and a single-pass
search run on them with the deployment's backend; the figures and the Context-1 reward kept per check, so a team
sees a change's effect (research/evaluation/ does the work, framework-free)."""

from __future__ import annotations

import json
import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from research.corpora.selectors import document_texts
from research.corpus_health.task_names import HEALTH_CHECK
from research.evaluation.formats import CorpusDoc
from research.evaluation.generation import IndexSearches, generate
from research.evaluation.runner import (
    EvalSettings,
    Evaluation,
    eval_embedder,
    evaluate_task,
    systems_of,
    temporary_indexes,
)
from research.models import Corpus, CorpusHealth, Membership
from research.platform.composition import model_cache, token_counter
from research.platform.queue import task_send

logger = logging.getLogger(__name__)

COUNTS = (10, 20, 50)  # tasks a check may ask for (the form's choices)
# A check a worker claimed this long ago and still under way lost its worker (the task's soft limit is 3 h); one no
# worker has claimed in a day waits behind something that will not end
STALE = timedelta(hours=3, minutes=10)
UNCLAIMED = timedelta(days=1)
ACTIVE = (CorpusHealth.Status.QUEUED, CorpusHealth.Status.GENERATING, CorpusHealth.Status.EVALUATING)


def health_check_start(*, actor: Membership, corpus: Corpus, count: int = 20) -> CorpusHealth:
    """Queue a check of ``corpus`` (owners and editors); refused while another check of it is under way."""
    if not actor.can_edit:
        raise PermissionDenied("Only owners and editors run a corpus check.")
    if corpus.workspace_id != actor.workspace_id:
        raise PermissionDenied("That corpus is not in your workspace.")
    if count not in COUNTS:
        raise ValidationError({"count": f"Choose {', '.join(map(str, COUNTS))} tasks."})
    with transaction.atomic():
        Corpus.objects.select_for_update().filter(pk=corpus.pk).exists()  # one start at a time per corpus
        under_way, now = CorpusHealth.objects.filter(corpus=corpus, status__in=ACTIVE), timezone.now()
        lost = Q(started_at__lt=now - STALE) | Q(started_at__isnull=True, created_at__lt=now - UNCLAIMED)
        under_way.filter(lost).update(
            status=CorpusHealth.Status.FAILED, error="The worker running this check was lost.", finished_at=now
        )
        if under_way.exists():
            raise ValidationError("A check of this corpus is already under way: wait for it to end.")
        check = CorpusHealth.objects.create(
            corpus=corpus, requested_by=actor.user, backend=settings.INFERENCE_BACKEND, count=count
        )
        transaction.on_commit(lambda: task_send(HEALTH_CHECK, check.pk))
    return check


def evaluation_settings(backend: str | None = None) -> EvalSettings:
    """An evaluation run with this deployment's search model (``backend``, default ``INFERENCE_BACKEND``, and its
    server), its embedder family (hashing vectors where the deployment uses them, else MiniLM) and reward beta; the
    harness's defaults otherwise (corpus health checks, the model explorer of ``generate_tasks``)."""
    return EvalSettings(
        backend=backend or settings.INFERENCE_BACKEND,
        embedder="hashing" if settings.EMBEDDER_BACKEND == "hashing" else "minilm",
        base_url=settings.VLLM_BASE_URL,
        model=settings.VLLM_MODEL,
        api_key=settings.VLLM_API_KEY,
        timeout=settings.VLLM_TIMEOUT,
        temperature=settings.VLLM_TEMPERATURE,
        reward_beta=settings.REWARD_BETA,
    )


def health_check_execute(*, check_id: int) -> None:
    """The worker's side: claim the queued check, generate its tasks, run both systems on each (progress saved after
    every task), keep the figures. Whatever fails, fails the check with its cause."""
    claimed = CorpusHealth.objects.filter(pk=check_id, status=CorpusHealth.Status.QUEUED).update(
        status=CorpusHealth.Status.GENERATING, started_at=timezone.now()
    )
    if not claimed:
        return
    check = CorpusHealth.objects.select_related("corpus").get(pk=check_id)
    try:
        _execute(check)
    except Exception as error:
        logger.exception("corpus health check %s failed", check_id)
        CorpusHealth.objects.filter(pk=check_id, status__in=ACTIVE).update(
            status=CorpusHealth.Status.FAILED,
            error=f"{type(error).__name__}: {error}"[:2000],
            finished_at=timezone.now(),
        )


def _update(check: CorpusHealth, **fields: Any) -> None:
    """Save progress or the end, unless the check was meanwhile failed as lost (a newer check may be running)."""
    CorpusHealth.objects.filter(pk=check.pk, status__in=ACTIVE).update(**fields)


def _execute(check: CorpusHealth) -> None:
    docs = [CorpusDoc(doc_id, title, text) for doc_id, title, text in document_texts(corpus=check.corpus)]
    if len(docs) < 2:
        raise ValueError(f"the corpus has {len(docs)} document(s); a task links at least 2")
    config = evaluation_settings(check.backend)
    embedder, counter = eval_embedder(config.embedder, model_cache()), token_counter()
    run = Evaluation(config, config.backends(), embedder, counter, lambda line: None)
    texts = {doc.doc_id: doc.text for doc in docs}
    with temporary_indexes(
        [docs], embedder=embedder, counter=counter, chunk_tokens=config.chunk_tokens, progress=lambda line: None
    ) as (index,):
        made = generate(docs, IndexSearches(index), count=check.count, seed=check.pk)
        summary = made.summary()
        if not made.tasks:
            dropped = ", ".join(f"{number} {reason}" for reason, number in summary["dropped"].items() if number)
            raise ValueError(
                f"no task passed the checks ({summary['candidates']} candidates; dropped: {dropped or 'none'}): "
                "the corpus needs documents that name the same people, companies or places"
            )
        _update(check, status=CorpusHealth.Status.EVALUATING, total=len(made.tasks), generation=summary)
        outcomes = []
        for number, generated in enumerate(made.tasks, start=1):
            outcomes.append(evaluate_task(generated.task, index, texts, run))
            _update(check, done=number)
    titles = {doc.doc_id: doc.title or doc.doc_id for doc in docs}
    rows = [
        {
            **outcome.row(),
            "hop_count": len(outcome.task.hops or ()),
            "documents": [{"doc_id": d, "title": titles.get(d, d)} for d in outcome.task.supporting_doc_ids],
            "record": generated.record(),  # evaluate's task record, with its clues and truth quotes
        }
        for outcome, generated in zip(outcomes, made.tasks, strict=True)
    ]
    _update(
        check,
        status=CorpusHealth.Status.FINISHED,
        figures=systems_of(outcomes),
        tasks=rows,
        finished_at=timezone.now(),
    )


def health_tasks_jsonl(check: CorpusHealth) -> str:
    """The check's questions as evaluate's task JSON Lines (with their clues, truth quotes and distractors)."""
    return "".join(json.dumps(row["record"], ensure_ascii=False) + "\n" for row in check.tasks if "record" in row)


def health_corpus_jsonl(corpus: Corpus) -> str:
    """The corpus as evaluate's corpus JSON Lines (its documents' stored text), to run `evaluate` on the questions."""
    return "".join(
        json.dumps({"doc_id": doc_id, "title": title, "text": text}, ensure_ascii=False) + "\n"
        for doc_id, title, text in document_texts(corpus=corpus)
    )
