"""Reading schedules and digests: the schedule card of an investigation's page, a digest as a page or an e-mail
shows it (evidence linked at the quote, relative or absolute links)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from urllib.parse import quote, urlencode

from django.contrib.auth.models import User
from django.http import Http404
from django.urls import reverse

from research.models import Digest, Investigation, Schedule, ScheduleFire, ScheduleMute
from research.platform.mail import absolute
from research.reporting.presenting import quote_href
from research.schedules.services import spec_of
from research.schedules.timing import ScheduleError, describe, upcoming

FIRES_SHOWN, DIGESTS_SHOWN = 10, 20


@dataclass(frozen=True)
class ScheduleCard:
    schedule: Schedule | None
    description: str = ""
    upcoming: tuple[datetime, ...] = ()  # the next few times, UTC
    fires: tuple[ScheduleFire, ...] = ()
    digests: tuple[Digest, ...] = ()
    muted: bool = False  # the viewing user unsubscribed from its e-mails
    runs_as: str = ""  # whose rights its runs use
    problems: tuple[str, ...] = field(default=())


def schedule_card(*, investigation: Investigation, user: User) -> ScheduleCard:
    digests = tuple(investigation.digests.select_related("run").order_by("-created_at", "-id")[:DIGESTS_SHOWN])
    schedule = Schedule.objects.filter(investigation=investigation).select_related("created_by").first()
    if schedule is None:
        return ScheduleCard(None, digests=digests)
    spec = spec_of(schedule)
    problems: list[str] = []
    try:
        description = describe(spec)
        times = tuple(upcoming(spec, schedule.next_run_at, 2)) if schedule.next_run_at else ()
    except ScheduleError as error:
        description, times = "", ()
        problems.append(str(error))
    return ScheduleCard(
        schedule=schedule,
        description=description,
        upcoming=((schedule.next_run_at, *times) if schedule.next_run_at else ()),
        fires=tuple(schedule.fires.select_related("run").order_by("-due_at", "-id")[:FIRES_SHOWN]),
        digests=digests,
        muted=ScheduleMute.objects.filter(schedule=schedule, user=user).exists(),
        runs_as=schedule.created_by.get_username() if schedule.created_by else "(a removed account)",
        problems=tuple(problems),
    )


def digest_get(*, investigation: Investigation, digest_id: int) -> Digest:
    found = investigation.digests.select_related("run", "previous_run", "schedule").filter(pk=digest_id).first()
    if found is None:
        raise Http404("No such digest")
    return found


def digest_path(digest: Digest) -> str:
    investigation = digest.investigation
    kwargs = {"slug": investigation.workspace.slug, "investigation_id": investigation.pk, "digest_id": digest.pk}
    return reverse("digest_page", kwargs=kwargs)


def _run_page(investigation: Investigation, run_id: int) -> str:
    return reverse("run_page", kwargs={"slug": investigation.workspace.slug, "run_id": run_id})


def digest_view(digest: Digest, *, absolute_links: bool = False) -> dict[str, Any]:
    """The stored digest with links: each claim's evidence opens its run's viewer at the quote; documents open
    in the run that has them; the report, the previous run and their comparison."""
    investigation = digest.investigation
    link = absolute if absolute_links else (lambda path: path)

    def evidence(item: dict[str, Any], run_id: int) -> list[dict[str, Any]]:
        page = _run_page(investigation, run_id)
        return [
            {**c, "href": link(page + quote_href(c["doc_id"], c["chunk_id"], c["quote"]))}
            for c in item.get("citations", [])
        ]

    def claims(key: str) -> list[dict[str, Any]]:
        return [{**item, "evidence": evidence(item, item["run"])} for item in digest.body.get(key, [])]

    def documents(key: str) -> list[dict[str, Any]]:
        return [
            {**item, "href": link(f"{_run_page(investigation, item['run'])}d/{quote(item['doc_id'], safe='')}/")}
            for item in digest.body.get(key, [])
            if "run" in item
        ]

    body = digest.body
    previous = body.get("previous_run")
    kwargs = {"slug": investigation.workspace.slug, "investigation_id": investigation.pk}
    compare = reverse("investigation_compare", kwargs=kwargs)
    return {
        **body,
        "changed": digest.changed,
        "added": claims("added"),
        "no_longer_supported": claims("no_longer_supported"),
        "verdicts": [{**v, "evidence": evidence(v, digest.run_id)} for v in body.get("verdicts", [])],
        "sources_added": documents("sources_added"),
        "sources_removed": documents("sources_removed"),
        "entered": documents("entered"),
        "left": documents("left"),
        "run_url": link(_run_page(investigation, digest.run_id)),
        "previous_url": link(_run_page(investigation, previous)) if previous else "",
        "compare_url": link(f"{compare}?{urlencode({'older': previous, 'newer': digest.run_id})}") if previous else "",
        "investigation_url": link(reverse("investigation_page", kwargs=kwargs)),
        "digest_url": link(digest_path(digest)) if digest.pk else "",
    }
