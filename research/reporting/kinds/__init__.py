"""The kinds of run, one module each: a free question (question.py), a competitor report (competitor.py), a
prospect brief (prospect.py) and an ICP check (icp.py), behind ``kind_of``. Each says what it asks for, the
facets its rollouts search, what a re-run keeps and how its answer or report is written (base.py); code
elsewhere asks the run's kind instead of branching on ``Run.template``."""

from __future__ import annotations

from research.models import Run
from research.reporting.kinds import competitor, icp, prospect, question
from research.reporting.kinds.base import RunKind
from research.writing.company import Facet

KINDS: dict[str, RunKind] = {kind.name: kind for kind in (question.KIND, competitor.KIND, prospect.KIND, icp.KIND)}


def kind_of(template: str) -> RunKind:
    """The kind named ``template``; KeyError for a name that is not one (run_validate refuses it first)."""
    return KINDS[template]


def run_facets(run: Run) -> tuple[Facet, ...]:
    """The run's facets, one rollout each (none for a free question)."""
    return kind_of(run.template).facets(run)
