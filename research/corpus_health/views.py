"""The corpus health page: start a check (owners and editors), follow its progress, read its tasks and both systems'
figures, and compare it with the corpus's earlier checks."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from research.corpora.selectors import corpus_get
from research.corpus_health import selectors, services
from research.models import Corpus, CorpusHealth, Membership
from research.workspaces.requests import WorkspaceRequest, workspace_view

PAGE = "research/corpus_health.html"
# The figures the page shows per system, in order, with their labels.
FIGURES = (  # (key, label, decimals)
    ("final_answer_found", "Final answer found", 3),
    ("recall", "Recall", 3),
    ("trajectory_recall", "Trajectory recall", 3),
    ("prune_accuracy", "Prune accuracy", 3),
    ("turns_per_run", "Turns", 1),
    ("tokens_per_run", "Tokens", 0),
    ("reward", "Reward", 3),
)
TERMS = (
    ("f_beta", "F-beta"),
    ("trajectory_recall", "Trajectory recall"),
    ("final_answer", "Final answer"),
    ("prune_penalty", "Prune penalty"),
    ("turn_penalty", "Turn penalty"),
)


class StartForm:
    """The start form's state: the count chosen and the error to show beside the button."""

    def __init__(self, count: int = 20, error: str = "") -> None:
        self.count, self.error = count, error


def _context(membership: Membership, corpus: Corpus, check: CorpusHealth | None, **extra: Any) -> dict[str, Any]:
    figures = check.figures if check is not None else {}
    rows = [
        (label, figures.get("agent", {}).get(key), figures.get("baseline", {}).get(key), decimals)
        for key, label, decimals in FIGURES
    ]
    terms = [
        (
            label,
            (figures.get("agent", {}).get("reward_terms") or {}).get(key),
            (figures.get("baseline", {}).get("reward_terms") or {}).get(key),
        )
        for key, label in TERMS
    ]
    return {
        "membership": membership,
        "workspace": membership.workspace,
        "corpus": corpus,
        "check": check,
        "rows": rows,
        "terms": terms,
        "history": selectors.health_history(corpus=corpus),
        "counts": services.COUNTS,
        "form": extra.pop("form", StartForm()),
        **extra,
    }


@login_required
@require_GET
@workspace_view
def health_page(request: WorkspaceRequest, slug: str, corpus_slug: str, check_id: int | None = None) -> HttpResponse:
    membership = request.membership
    corpus = corpus_get(membership=membership, slug=corpus_slug)
    if check_id is not None:
        check: CorpusHealth | None = selectors.health_get(corpus=corpus, check_id=check_id)
    else:
        check = CorpusHealth.objects.filter(corpus=corpus).first()
    return render(request, PAGE, _context(membership, corpus, check))


@login_required
@require_GET
@workspace_view
def health_status(request: WorkspaceRequest, slug: str, corpus_slug: str, check_id: int) -> HttpResponse:
    """The check's card again (the page polls it while the check runs; once ended, the whole page reloads)."""
    membership = request.membership
    corpus = corpus_get(membership=membership, slug=corpus_slug)
    check = selectors.health_get(corpus=corpus, check_id=check_id)
    response = render(request, f"{PAGE}#check", _context(membership, corpus, check))
    if not check.active:
        response["HX-Refresh"] = "true"  # the history and the figures come with the whole page
    return response


@login_required
@require_POST
@workspace_view
def health_start(request: WorkspaceRequest, slug: str, corpus_slug: str) -> HttpResponse:
    membership = request.membership
    corpus = corpus_get(membership=membership, slug=corpus_slug)
    try:
        count = int(request.POST.get("count", "20"))
    except ValueError:
        count = 0
    try:
        check = services.health_check_start(actor=membership, corpus=corpus, count=count)
    except ValidationError as error:
        message = " ".join(error.messages)
        latest = CorpusHealth.objects.filter(corpus=corpus).first()
        context = _context(membership, corpus, latest, form=StartForm(count, message))
        return render(request, PAGE, context, status=422)
    return redirect("corpus_health_check", slug=slug, corpus_slug=corpus.slug, check_id=check.pk)


def _download(text: str, name: str) -> HttpResponse:
    response = HttpResponse(text, content_type="application/x-ndjson; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
@require_GET
@workspace_view
def health_tasks(request: WorkspaceRequest, slug: str, corpus_slug: str, check_id: int) -> HttpResponse:
    """The check's questions in evaluate's task format (members who may read the corpus)."""
    corpus = corpus_get(membership=request.membership, slug=corpus_slug)
    check = selectors.health_get(corpus=corpus, check_id=check_id)
    return _download(services.health_tasks_jsonl(check), f"{corpus.slug}-questions-{check.pk}.jsonl")


@login_required
@require_GET
@workspace_view
def health_corpus(request: WorkspaceRequest, slug: str, corpus_slug: str) -> HttpResponse:
    """The corpus in evaluate's corpus format, to run `evaluate` on downloaded questions."""
    corpus = corpus_get(membership=request.membership, slug=corpus_slug)
    return _download(services.health_corpus_jsonl(corpus), f"{corpus.slug}-corpus.jsonl")
