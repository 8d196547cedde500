"""A company's timeline and price history from several runs' reports: dates from the words first, prices per
plan over time, one event per fact however many runs state it."""

from __future__ import annotations

import datetime

import pytest

from research.protocol.report import Citation, Claim, Report, Section
from research.writing.timeline import RunReport, event_kind, plan_prices, timeline

JULY, AUGUST = datetime.date(2026, 7, 5), datetime.date(2026, 8, 5)


def claim(text: str, *, date: str | None = None, doc: str = "press", quote: str | None = None) -> Claim:
    cited = Citation(chunk_id=f"{doc}#0", doc_id=doc, quote=quote or text, source=f"{doc}.html")
    return Claim(text=text, citations=(cited,), date=date)


def run(run_id: int, seen: datetime.date, **facets: list[Claim]) -> RunReport:
    sections = tuple(Section(facet=key, title=key.title(), claims=tuple(claims)) for key, claims in facets.items())
    return RunReport(
        run_id, seen, Report(template="competitor", writer="extractive", subject="Halvorix", sections=sections)
    )


def test_the_date_the_words_give_beats_the_documents_date_and_events_come_newest_first() -> None:
    found = timeline(
        [
            run(
                1,
                JULY,
                news=[claim("Halvorix will close its Toronto office on 1 December 2026.", date="2026-06-10")],
                funding=[claim("Halvorix raised $30 million in a Series B round in March 2026.", date="2026-06-30")],
                leadership=[claim("Halvorix appointed Dana Okonkwo as VP of Engineering.", date="2025-11-04")],
            )
        ]
    )
    assert [(e.kind, e.when.label if e.when else None) for e in found.events] == [
        ("news", "1 December 2026"),
        ("funding", "March 2026"),
        ("leadership", "4 November 2025"),
    ]
    assert [e.when.dated_from for e in found.events if e.when] == ["text", "text", "source"]
    assert found.events[1].when is not None
    assert found.events[1].when.iso == "2026-03"


def test_a_claim_without_any_date_is_listed_last_undated() -> None:
    found = timeline(
        [
            run(
                1,
                JULY,
                products=[
                    claim("Halvorix launched Halyard Search for legal teams."),
                    claim("Halvorix released Serverless on 10 June.", date="2026-06-12"),
                ],
            )
        ]
    )
    assert [e.text for e in found.events] == [
        "Halvorix released Serverless on 10 June.",
        "Halvorix launched Halyard Search for legal teams.",
    ]
    assert found.events[0].when is not None
    assert found.events[0].when.start == datetime.date(2026, 6, 10)
    assert found.events[1].when is None
    assert event_kind("Okonkwo holds a PhD in distributed systems.", "leadership") == ""  # not an event


def test_one_event_seen_in_two_runs_is_listed_once_as_first_seen_in_the_older() -> None:
    launch = "Halvorix launched Halyard Search in March 2026."
    found = timeline(
        [
            run(2, AUGUST, products=[claim(launch.upper(), quote=launch)]),  # same quote, other words
            run(1, JULY, products=[claim(launch)]),
        ]
    )
    assert len(found.events) == 1
    assert (found.events[0].first_run, found.events[0].first_seen, found.events[0].runs) == (1, JULY, (1, 2))
    assert found.runs == (1, 2)


def test_a_price_that_changed_between_two_runs_shows_both_values_with_their_dates() -> None:
    found = timeline(
        [
            run(1, JULY, pricing=[claim("Standard $70 /month minimum usage", date="2026-01-06", doc="old")]),
            run(
                2,
                AUGUST,
                pricing=[
                    claim("Standard $50 /month minimum usage", doc="new"),
                    claim("Halvorix charges 40 dollars per seat each month for its Team plan.", doc="new"),
                ],
            ),
        ]
    )
    standard, team = found.plans
    assert standard.plan == "Standard"
    assert standard.changed
    assert [(p.price, p.when.label, p.when.dated_from, p.first_run) for p in standard.points] == [
        ("$70 /month", "6 January 2026", "source", 1),
        ("$50 /month", "5 August 2026", "run", 2),
    ]
    assert (team.plan, team.points[0].price, team.changed) == ("Team", "40 dollars per seat each month", False)
    assert not found.events  # a price is the price history's, not an event


def test_the_prices_of_a_sentence_by_plan() -> None:
    assert plan_prices("Standard $70 /month and Enterprise $500 /month minimum usage.") == [
        ("Standard", "$70 /month"),
        ("Enterprise", "$500 /month"),
    ]
    assert plan_prices("The Halvorix Pro plan now costs EUR 29 per user / month.", company="Halvorix") == [
        ("Pro", "EUR 29 per user / month")
    ]
    assert plan_prices("Annual commitments from $30,000 receive discounted rates.") == []
    assert plan_prices("Fernhollow closed its Series B $48M round in July 2025.") == []  # an amount, not a price


def test_the_prices_of_a_table_row_by_plan_and_what_it_prices() -> None:
    assert plan_prices("Plan: Paddock Essentials; Price: AUD 4.50 per hectare per year; What you get: maps") == [
        ("Paddock Essentials", "AUD 4.50 per hectare per year")
    ]
    # a meter's row prices each plan's read units: not the plans' prices
    assert plan_prices("Meter: Read units; Starter: 1M per month included; Standard: $16 per million") == [
        ("Standard (Read units)", "$16 per million")
    ]
    assert plan_prices("Item: Backups and collections; Price: $0.025 per GB-month") == []  # no plan named


@pytest.mark.parametrize(
    "text",
    [
        "Buyers renewing pod-based Halvorix contracts in 2026 should model both price lists before committing.",
        "CI is tracking signals that Halvorix will introduce a usage-based tier in 2026.",
        "It is the biggest change to Halvorix since we launched, and it is the foundation for what we build next.",
        "Halvorix is preparing the largest change to its price list since it launched its database in 2020.",
    ],
)
def test_advice_plans_and_looking_ahead_are_no_event(text: str) -> None:
    assert event_kind(text, "news", dated=True) == ""
    assert event_kind("Halvorix launched Serverless on 10 June 2026.", "news", dated=True) == "launch"
    assert event_kind("Halvorix raised $30 million in May 2026.", "funding", dated=True) == "funding"  # the month
    ahead = "Halvorix will close its Toronto office on 1 December 2026."
    assert event_kind(ahead, "news", dated=True, day_or_month=True) == "news"  # announced, with its day
