"""Finding a live share link by its token, and what its page may show: the run's report and cited chunks only."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from django.db.models import Q
from django.http import Http404
from django.utils import timezone

from research.edits.selectors import report_edited
from research.models import Chunk, Document, Investigation, Run, ShareLink
from research.models import Report as StoredReport
from research.platform.tokens import TOKEN_MAX, token_digest
from research.protocol.report import Claim, Report, citations_of
from research.reporting.internal import outward
from research.reporting.selectors import internal_among, internal_cited, passage_digest, report_of


def share_link_live(*, token: str) -> ShareLink:
    """The link if it exists, is not revoked and has not expired; 404 otherwise (all three alike)."""
    if not token or len(token) > TOKEN_MAX:
        raise Http404("No such link")
    live = Q(revoked_at__isnull=True) & (Q(expires_at__isnull=True) | Q(expires_at__gt=timezone.now()))
    link = ShareLink.objects.filter(live, token_sha256=token_digest(token)).select_related("run", "investigation")
    found = link.first()
    if found is None:
        raise Http404("No such link")
    return found


def share_links_of(*, investigation: Investigation) -> list[ShareLink]:
    return list(investigation.share_links.select_related("run", "created_by").order_by("-created_at", "-id"))


def shared_report(link: ShareLink) -> Report | None:
    """The run's report as the link shows it: the analysts' edits applied but not their notes, names or struck claims
    (a link is public; an overridden verdict stays marked as set by an analyst), and without what only our own notes
    back unless the link was made to include internal sources (None when the run has no report)."""
    report = report_edited(link.run, report_of(link.run))
    if report is None:
        return None
    report = _anonymous(report)
    if link.include_internal:
        return report
    return outward(report, internal_cited(link.run, report)).report


def _anonymous(report: Report) -> Report:
    def unpinned(claims: tuple[Claim, ...]) -> tuple[Claim, ...]:
        return tuple(dataclasses.replace(claim, pinned_by="") for claim in claims)

    return dataclasses.replace(
        report,
        summary=unpinned(report.summary),
        sections=tuple(dataclasses.replace(s, claims=unpinned(s.claims)) for s in report.sections),
        criteria=tuple(
            dataclasses.replace(item, override=dataclasses.replace(item.override, note="", by="an analyst", at=""))
            if item.override
            else item
            for item in report.criteria
        ),
        struck=(),
        analyst_notes=(),
    )


def hidden_documents(link: ShareLink, report: Report | None) -> frozenset[str]:
    """The run's ranked documents a link does not list: our own notes, unless it includes internal sources."""
    if link.include_internal:
        return frozenset()
    ranked = {str(item.get("doc_id")) for item in link.run.result or [] if isinstance(item, dict)}
    marked = {source.doc_id for source in report.sources if source.internal} if report else set()
    return frozenset(internal_among(link.run, ranked) | marked)


def cited_chunk_ids(report: Report) -> set[str]:
    """Every chunk the report cites (claims, summary, ICP verdicts): all a share page may open."""
    return {citation.chunk_id for citation in citations_of(report)}


@dataclass(frozen=True)
class SharedPassage:
    chunk: Chunk
    document: Document
    context: list[Chunk]  # its neighbours whose text is still what the report was written from
    changed: bool  # its own text is not what the report cited (a re-upload reuses chunk ids): not shown


def shared_chunk(*, run: Run, report: Report, chunk_id: str) -> SharedPassage | None:
    """A cited chunk of the run's corpora with its neighbours (its context), or None when it is not cited or no
    longer exists. A passage whose text changed since the report was written (``StoredReport.passages``) is marked
    changed and a changed neighbour left out: a link never shows text written after it."""
    if chunk_id not in cited_chunk_ids(report):
        return None
    chunk = (
        Chunk.objects.filter(chunk_id=chunk_id, document__corpus__in=run.corpora.all())
        .select_related("document")
        .first()
    )
    if chunk is None:
        return None
    digests = StoredReport.objects.filter(run=run).values_list("passages", flat=True).first() or {}

    def kept(item: Chunk) -> bool:
        return isinstance(digests, dict) and digests.get(item.chunk_id) == passage_digest(item.text)

    around = Chunk.objects.filter(document=chunk.document, index__in=[chunk.index - 1, chunk.index + 1])
    context = [item for item in around.order_by("index") if kept(item)]
    return SharedPassage(chunk, chunk.document, context, changed=not kept(chunk))
