"""The ICP judge on the thirteenth round of fresh corpora (the report benchmark's clinical-trials-dk,
pompes-funebres-be and hoa-management-us, measured before any rule was tuned on them): a look-alike's "A/S"; a
sentence that refers back after another's or a look-alike's is theirs; revenue in the criterion's currency, local
words for revenue, recurring revenue is no revenue and revenue no recurring revenue; a contrast's figures are
another's; "API limits raised"; a report "due early next year"; a provider "d'origine européenne"; "hovedkontor";
"the English "base"; a round "actée" on a day."""

from __future__ import annotations

import datetime

import pytest

from research.writing.amounts import currency_in
from research.writing.criteria import Criterion, HostingRule, NumericRule, RegionRule, rule_for
from research.writing.figures import revenue_figures
from research.writing.icp import judge
from research.writing.names import known_as
from tests.research.writing.conftest import one_document

AS_OF = datetime.date(2026, 11, 30)


def test_a_lookalike_with_a_slashed_legal_form_and_a_sentence_that_refers_back_to_it() -> None:
    item = one_document(
        "Hjortvang Pharma A/S, the Vejle packer of clinical trial supplies, is building a new labelling line. The "
        "family-owned company has 520 employees.",
        "Hjortvang Clinical has 236 employees today.",
    )
    assert "hjortvang pharma" in known_as("Hjortvang Clinical A/S", item).lookalikes
    headcount = Criterion("150-400 employees", "Between 150 and 400 employees today")
    assert judge(headcount, "Hjortvang Clinical A/S", item, as_of=AS_OF).verdict == "match"


def test_a_sentence_that_refers_back_after_anothers_is_theirs_though_it_names_the_company() -> None:
    article = one_document(
        "Rouwkompas, justement, a bouclé le 15 octobre 2026 une levée de 12 millions d'euros. L'éditeur anversois "
        "revendique 280 collaborateurs, une certification que Lumignon attend pour 2027.",
        "Nous sommes aujourd'hui 186 collaborateurs chez Lumignon.",
    )
    headcount = Criterion("Entre 100 et 250 collaborateurs", "Entre 100 et 250 collaborateurs aujourd'hui")
    assert judge(headcount, "Lumignon SA", article, as_of=AS_OF).verdict == "match"


@pytest.mark.parametrize(
    ("text", "code"),
    [("EUR 30 million", "EUR"), ("A$38 million", "AUD"), ("MXN $250 millones", "MXN"), ("$44.6M", "USD"), ("x", None)],
)
def test_the_currency_a_figure_is_written_in(text: str, code: str | None) -> None:
    assert currency_in(text) == code


def test_revenue_in_the_criterions_currency_and_in_local_words() -> None:
    criterion = Criterion("Revenue above EUR 30 million", "Annual revenue above EUR 30 million")
    assert rule_for(criterion) == NumericRule("revenue", 30e6, None, "EUR", above=True)
    assert revenue_figures("In 2025 our omsætning was DKK 212,4 mio. (about EUR 28.5 million).") == [
        (212.4e6, "DKK"),
        (28.5e6, "EUR"),
    ]
    sentences = one_document(
        "Hjortvang's annual recurring revenue (ARR) passed EUR 31.2 million at 30.09.2026.",
        "In 2025 Hjortvang's omsætning was DKK 212,4 mio. (about EUR 28.5 million), 24% more than in 2024.",
        doc="hjortvang-karriere",
    )
    judged = judge(criterion, "Hjortvang Clinical A/S", sentences, as_of=AS_OF)
    assert judged.verdict == "no_match"
    assert "28.5" in judged.citations[0].quote


def test_recurring_revenue_is_not_revenue_and_a_contrasts_figure_is_anothers() -> None:
    arr = Criterion("ARR above $40 million", "Annual recurring revenue (ARR) above $40 million")
    revenue_only = one_document("Dovecrest's 2025 revenue of $44.6M includes $10.8M of payment-processing revenue.")
    assert judge(arr, "Dovecrest", revenue_only, as_of=AS_OF).verdict == "unknown"
    contrast = one_document(
        "Dovecrest finished 2025 with about $33.8 million in annual recurring revenue, while Gablestone puts its own "
        "ARR at $58 million."
    )
    assert judge(arr, "Dovecrest", contrast, as_of=AS_OF).verdict == "no_match"


def test_api_limits_raised_raise_no_money() -> None:
    criterion = Criterion("Raised equity in the last 12 months", "Raised an equity round since 1 December 2025")
    page = one_document(
        "Dovecrest Enterprise: single sign-on, a sandbox, API limits raised and a named success manager.",
        date="2026-09-01",
    )
    assert judge(criterion, "Dovecrest", page, as_of=AS_OF).verdict == "unknown"


def test_a_report_due_next_year_is_not_held() -> None:
    criterion = Criterion("SOC 2 Type II report in hand", "Holds a SOC 2 Type II report")
    article = one_document("Dovecrest says its SOC 2 Type II report is due early next year.")
    assert judge(criterion, "Dovecrest", article, as_of=AS_OF).verdict == "no_match"


def test_a_provider_of_european_origin_and_an_american_clouds_european_region() -> None:
    criterion = Criterion(
        "Hébergé chez un cloud européen",
        "Son logiciel tourne chez un hébergeur d'origine européenne (OVHcloud, Scaleway). Une région européenne "
        "d'un cloud américain ne compte pas.",
    )
    rule = rule_for(criterion)
    assert isinstance(rule, HostingRule)
    assert rule.local_provider
    google = one_document("Lumignon est hébergé chez Google Cloud, dans la région europe-west1 en Belgique.")
    assert judge(criterion, "Lumignon SA", google, as_of=AS_OF).verdict == "no_match"


def test_a_head_office_in_a_nordic_word_and_the_english_base_is_no_head_office() -> None:
    danish = Criterion("Danish head office", "Headquarters (hovedkontor) in Denmark; sales offices don't decide it")
    assert rule_for(danish) == RegionRule("Denmark", frozenset({"denmark"}))
    staff = one_document("Hjortvang: 236 people, 148 at the hovedkontor in Aarhus, 41 in Warsaw, 22 in Copenhagen.")
    assert judge(danish, "Hjortvang", staff, as_of=AS_OF).verdict == "match"
    florida = Criterion("Headquartered in Florida", "Corporate headquarters in Florida")
    base = one_document("Dovecrest had 571 customers, with its strongest base in Arizona, Texas, Florida.")
    assert judge(florida, "Dovecrest", base, as_of=AS_OF).verdict == "unknown"


def test_a_capital_increase_acted_on_a_day_dates_the_round() -> None:
    criterion = Criterion("Levée de fonds entre juin et novembre 2026", "A levé des fonds depuis le 1er juin 2026")
    article = one_document(
        "NAMUR - Lumignon SA a levé 9 millions d'euros lors d'un tour de série B.",
        "Chez Lumignon, l'augmentation de capital a été actée devant notaire le 14 mars 2026.",
        date="2026-11-05",
    )
    assert judge(criterion, "Lumignon SA", article, as_of=AS_OF).verdict == "no_match"


def test_a_sentence_that_refers_back_to_the_round_gives_it_no_date() -> None:
    criterion = Criterion("Raised equity in the last 12 months", "Raised an equity round since 1 December 2025")
    article = one_document("Ridgeline partner Owen Marsh joined Dovecrest's board with the round.", date="2026-10-20")
    assert judge(criterion, "Dovecrest", article, as_of=AS_OF).verdict == "unknown"


def test_a_state_the_criterion_names_as_one_beside_its_country() -> None:
    texas = Criterion("Texas", "Headquartered in the state of Texas, United States")
    rule = rule_for(texas)
    assert isinstance(rule, RegionRule)
    assert rule.state == "texas"
