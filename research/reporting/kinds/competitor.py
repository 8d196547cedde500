"""A competitor report: products, pricing, customers, partnerships, news, leadership, reviews, ... of a rival
(research/writing/company.py's COMPETITOR_FACETS)."""

from __future__ import annotations

from research.models import RunTemplate
from research.reporting.kinds.company import CompanyReport


class Competitor(CompanyReport):
    template = RunTemplate.COMPETITOR
    export_title = "Competitor report"


KIND = Competitor()
