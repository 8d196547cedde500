"""A prospect brief: what a salesperson needs before a first call (research/writing/company.py's
PROSPECT_FACETS)."""

from __future__ import annotations

from research.models import RunTemplate
from research.reporting.kinds.company import CompanyReport


class Prospect(CompanyReport):
    template = RunTemplate.PROSPECT
    export_title = "Brief"
    brief = True


KIND = Prospect()
