"""The ideal customer profile card's context (the workspace page draws it; the batch form lives in it)."""

from __future__ import annotations

from research.models import Membership
from research.workspaces.forms import IcpForm
from research.writing.criteria import criteria_from, rule_label


def _icp_lines(icp: list[dict[str, object]]) -> str:
    return "\n".join(
        f"{item['description']}" + (f" | {float(str(item['weight'])):g}" if item.get("weight", 1) != 1 else "")
        for item in icp
    )


def icp_context(membership: Membership, form: IcpForm | None = None) -> dict[str, object]:
    """What the ideal customer profile card shows: the profile and its form (the batches draw their part,
    research/batches/panels.py)."""
    try:
        criteria = criteria_from(membership.workspace.icp) if membership.workspace.icp else []
    except ValueError:
        criteria = []
    form = form or IcpForm(initial={"criteria": _icp_lines(membership.workspace.icp or [])})
    return {
        "icp": [(criterion, rule_label(criterion)) for criterion in criteria],
        "icp_form": form,
    }
