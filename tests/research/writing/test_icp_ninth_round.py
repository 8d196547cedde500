"""The ICP judge on the ninth round of fresh corpora (the report benchmark's lims-labs-ch, relation-citoyen-fr and
fitness-clubs-au, measured before any rule was tuned on them): a rival's round or headcount in a sentence that names
the company as a comparison is the rival's; a round is dated by another document that says when a round of the
same amount closed; a certificate audit to come states no certificate; "in hand", "lui-même" and "current" are no
key words; a window "between 1 January and 30 November 2026" starts on 1 January; "est dirigée par ... depuis" tells
a new leader."""

from __future__ import annotations

import datetime

import pytest

from research.reporting.kinds.icp import criterion_facet
from research.writing.citations import Evidence
from research.writing.criteria import EVENT_CUES, EVENT_WORDS, Criterion, EventRule, rule_for
from research.writing.icp import judge
from tests.research.writing.conftest import one_document

AS_OF = datetime.date(2026, 11, 30)


def test_a_rivals_round_in_a_sentence_that_compares_it_with_the_company_is_the_rivals() -> None:
    criterion = Criterion("Took fresh money", "Closed a funding round between 1 June 2025 and 30 November 2026")
    article = one_document(
        "Karlsruhe-based Messreihe Software GmbH, the largest LIMS vendor for German food labs, closed a EUR 15 million"
        " round led by Odenwald Capital in August 2025; unlike Probalis, Messreihe hosts its customers on AWS.",
        doc="article",
        date="2026-09-01",
    )
    assert judge(criterion, "Probalis AG", article, as_of=AS_OF).verdict == "unknown"
    own = one_document("Probalis closed a CHF 9 million round led by Rheinfels Ventures in March 2026.", doc="release")
    assert judge(criterion, "Probalis AG", article + own, as_of=AS_OF).verdict == "match"


def test_a_rivals_headcount_beside_the_company_as_its_competitor_is_the_rivals() -> None:
    criterion = Criterion("Effectif entre 50 et 200 personnes", "Entre 50 et 200 salariés")
    evidence = one_document(
        "Le grenoblois Civilio, premier concurrent de Parvis, avait levé 22 millions d'euros en mai 2024 ; il emploie"
        " 310 salariés.",
        "Au 1er octobre 2026, Parvis emploie 187 salariés, dont 158 à Nantes.",
        doc="article",
    )
    judged = judge(criterion, "Parvis Numérique SAS", evidence, as_of=AS_OF)
    assert judged.verdict == "match"
    assert "187" in judged.citations[0].quote


def test_a_round_is_dated_by_the_sentence_with_the_french_noun_levee() -> None:
    criterion = Criterion("Tour de table bouclé depuis décembre 2025", "A levé des fonds depuis décembre 2025")
    article = one_document(
        "Relation citoyen : le nantais Parvis a levé 14 millions d'euros",
        "La levée de 14 millions d'euros de Parvis, finalisée le 21 octobre 2025 et menée par Estuaire Capital, n'avait"
        " jusqu'ici pas été rendue publique.",
        doc="article",
        date="2026-01-13",
    )
    judged = judge(criterion, "Parvis Numérique SAS", article, as_of=AS_OF)
    assert judged.verdict == "no_match"
    assert "21 octobre 2025" in judged.citations[0].quote


def test_a_round_is_dated_by_another_document_that_says_when_a_round_of_its_amount_closed() -> None:
    criterion = Criterion("Raised capital in FY26 or since", "Closed a capital raise between 1 July 2025 and now")
    article = one_document("BRISBANE - Plateloop has raised A$38 million to take its gym software to Asia.", doc="news")
    article = [Evidence(e.chunk_id, e.doc_id, e.title, e.source, e.text, date="2025-08-12", rank=0) for e in article]
    analyst = one_document(
        "Plateloop's A$38 million Series B, led by Tasman Crest Capital, closed on 27 June 2025; it has not raised"
        " since.",
        doc="analyst",
        date="2026-09-30",
    )
    judged = judge(criterion, "Plateloop Technologies Pty Ltd", article + analyst, as_of=AS_OF)
    assert judged.verdict == "no_match"
    assert "27 June 2025" in judged.citations[0].quote
    # another amount is another round: the article's date stands
    other = one_document("Plateloop's A$12 million Series A closed on 3 March 2023.", doc="analyst", date="2026-09-30")
    assert judge(criterion, "Plateloop Technologies Pty Ltd", article + other, as_of=AS_OF).verdict == "match"


@pytest.mark.parametrize(
    ("name", "description"),
    [
        ("Own ISO 27001 certificate", "Holds its own ISO/IEC 27001 certificate today"),
        ("ISO/IEC 27001 cert in hand", "Holds a current ISO/IEC 27001 certificate today"),
        ("Certificat ISO 27001 en poche", "L'éditeur lui-même détient un certificat ISO 27001"),
    ],
)
def test_a_certificate_criterion_is_read_in_other_words_and_an_audit_to_come_states_none(
    name: str, description: str
) -> None:
    criterion = Criterion(name, description)
    held = one_document("Probalis est certifiée ISO/IEC 27001 depuis le 12 mai 2026, pour toute la plateforme.")
    assert judge(criterion, "Probalis AG", held, as_of=AS_OF).verdict == "match"
    to_come = one_document('The small print: "ISO/IEC 27001 certification audit January 2027".', doc="mail")
    assert judge(criterion, "Probalis AG", to_come, as_of=AS_OF).verdict == "unknown"
    denied = one_document("Probalis does not hold its own ISO/IEC 27001 certificate yet: our audit is scheduled.")
    assert judge(criterion, "Probalis AG", to_come + denied, as_of=AS_OF).verdict == "no_match"
    valid = one_document("Probalis holds an ISO/IEC 27001 certificate, valid until March 2027.", doc="site")
    assert judge(criterion, "Probalis AG", valid, as_of=AS_OF).verdict == "match"


def test_a_window_between_two_days_starts_on_the_first_in_the_last_ones_year() -> None:
    criterion = Criterion("New CFO this calendar year", "A new CFO started between 1 January and 30 November 2026")
    assert rule_for(criterion) == EventRule(
        "executive", 365, since=datetime.date(2026, 1, 1), until=datetime.date(2026, 11, 30)
    )
    release = one_document("Plateloop has appointed Siobhan Reilly as its CFO, effective 2 March 2026.")
    assert judge(criterion, "Plateloop Technologies Pty Ltd", release, as_of=AS_OF).verdict == "match"


def test_who_has_led_it_since_when_tells_a_new_leader() -> None:
    criterion = Criterion("Nouveau directeur général en 2026", "Nouveau directeur général en 2026")
    page = one_document("Depuis le 1er mars 2026, Parvis est dirigée par Antoine Guérin, directeur général.")
    assert judge(criterion, "Parvis Numérique SAS", page, as_of=AS_OF).verdict == "match"
    old = one_document("Parvis est dirigée par Gaëlle Kerhervé depuis sa création en 2014.")
    assert judge(criterion, "Parvis Numérique SAS", old, as_of=AS_OF).verdict == "no_match"


def test_a_french_providers_hosting_is_not_an_american_clouds_french_region() -> None:
    criterion = Criterion(
        "Hébergeur français, données en France",
        "Hébergée en France par un hébergeur français ; un cloud américain, même dans une région française, ne"
        " compte pas",
    )
    azure = one_document(
        "La plateforme Parvis est hébergée sur Microsoft Azure, en région France Centre (Paris).",
        "Parvis héberge vos données en France.",
    )
    judged = judge(criterion, "Parvis Numérique SAS", azure, as_of=AS_OF)
    assert judged.verdict == "no_match"
    assert "Azure" in judged.citations[0].quote
    ovh = one_document("La plateforme Parvis est hébergée chez OVHcloud, à Roubaix, en France.")
    assert judge(criterion, "Parvis Numérique SAS", ovh, as_of=AS_OF).verdict == "match"
    # a criterion that asks only where the data is: Azure's French region is in France
    where = Criterion("Données en France", "Données hébergées en France")
    assert judge(where, "Parvis Numérique SAS", azure[:1], as_of=AS_OF).verdict == "match"


def test_a_channel_the_criterion_names_is_stated_by_a_sentence_that_sells_through_it() -> None:
    criterion = Criterion("Commandable via l'UGAP ou des revendeurs", "Achetable par l'UGAP ou par un revendeur")
    both = one_document(
        "Parvis n'a pas de revendeurs : une commande passe soit par l'UGAP, soit directement par notre équipe."
    )
    assert judge(criterion, "Parvis Numérique SAS", both, as_of=AS_OF).verdict == "match"
    denied = one_document("Parvis n'est pas référencé à l'UGAP et n'a pas de revendeurs.")
    assert judge(criterion, "Parvis Numérique SAS", denied, as_of=AS_OF).verdict == "no_match"


def test_where_sentences_disagree_on_the_channel_the_newest_decides() -> None:
    criterion = Criterion("Sold through resellers", "Third-party resellers sell its software to clubs")
    battlecard = one_document(
        "Plateloop sells direct only; no resellers, no dealers.", doc="battlecard", date="2026-05-02"
    )
    home = one_document(
        "Plateloop is also sold through resellers: since July 2026, Redgum Fitouts in Perth resells it.", doc="home"
    )
    judged = judge(criterion, "Plateloop Technologies Pty Ltd", battlecard + home, as_of=AS_OF)
    assert judged.verdict == "match"
    assert "since July 2026" in judged.citations[0].quote


@pytest.mark.parametrize(
    ("name", "description", "sentences", "verdict"),
    [
        (
            "Signed 500+ clubs",
            "500 or more individual club sites signed (clubs, not operators)",
            (
                "Franchisors: Plateloop has Pulse 24 Fitness, 92 clubs on one contract.",
                "646 clubs have signed with Plateloop.",
            ),
            "match",
        ),
        (
            "Parc de plus de 1 000 communes clientes",
            "Plus de 1 000 communes clientes aujourd'hui",
            ("860 communes et 41 intercommunalités utilisent Parvis au quotidien.",),
            "no_match",
        ),
        ("More than 200 customers", "More than 200 customers", ("Parvis now has 240 customers.",), "match"),
        ("Signed 500+ clubs", "500+ clubs", ("Plateloop aims to reach 1,000 clubs by 2027.",), "unknown"),
    ],
)
def test_a_count_criterion_is_decided_by_the_count_of_what_it_counts(
    name: str, description: str, sentences: tuple[str, ...], verdict: str
) -> None:
    company = "Parvis Numérique SAS" if "Parvis" in sentences[0] else "Plateloop Technologies Pty Ltd"
    assert judge(Criterion(name, description), company, one_document(*sentences), as_of=AS_OF).verdict == verdict


def test_a_certificate_as_good_as_held_or_worked_towards_is_not_held() -> None:
    criterion = Criterion("ISO/IEC 27001 cert in hand", "Holds a current ISO/IEC 27001 certificate today")
    rep = one_document('ISO 27001: their rep told two owners Plateloop is "as good as certified".', doc="mail")
    assert judge(criterion, "Plateloop Technologies Pty Ltd", rep, as_of=AS_OF).verdict == "unknown"
    ours = one_document("ISO/IEC 27001: Plateloop is still working towards it; we've been certified since 2024.")
    assert judge(criterion, "Plateloop Technologies Pty Ltd", ours, as_of=AS_OF).verdict == "no_match"


def test_a_rivals_figures_and_another_companys_new_executive_are_theirs() -> None:
    arr = Criterion("ARR between $50M and $150M", "Annual recurring revenue between $50 million and $150 million")
    rival = one_document(
        "Its Denver rival Brightbite Systems says it has 520 employees and more than $70 million in ARR.",
        "Molarline's ARR grew from $33.0M at June 30, 2025 to $41.5M at June 30, 2026.",
        doc="article",
        title="Molarline closes its Series C",
    )
    judged = judge(arr, "Molarline Health Systems, Inc.", rival, as_of=AS_OF)
    assert judged.verdict == "no_match"
    assert "41.5" in judged.reason
    cfo = Criterion("New CFO this calendar year", "A new CFO started between 1 January and 30 November 2026")
    other = one_document("Ironbark's new CFO came from Pulse 24 Fitness, Plateloop's biggest franchise customer.")
    assert judge(cfo, "Plateloop Technologies Pty Ltd", other, as_of=AS_OF).verdict == "unknown"


def test_a_statement_over_a_year_old_gives_way_to_a_current_one() -> None:
    criterion = Criterion("Own ISO 27001 certificate", "Holds its own ISO/IEC 27001 certificate today")
    old = one_document("Probalis has an ISO/IEC 27001 certificate, says our battlecard.", doc="old", date="2025-06-01")
    new = one_document("Probalis AG does not hold its own ISO/IEC 27001 certificate yet: our audit is in January 2027.")
    judged = judge(criterion, "Probalis AG", old + new, as_of=AS_OF)
    assert judged.verdict == "no_match"
    assert judge(criterion, "Probalis AG", old, as_of=AS_OF).verdict == "unknown"


@pytest.mark.parametrize(
    "name",
    [
        "1,200+ dealerships live",
        "Plus de 3 000 agences clientes",
        "More than 200 customer organizations",
        "Acquired a company in the last 12 months",
        "A racheté une société depuis début 2025",
        "Hébergeur français, données en France",
        "Commandable via l'UGAP ou des revendeurs",
    ],
)
def test_every_kind_of_criterion_gets_a_rollout_to_search_for_it(name: str) -> None:
    facet = criterion_facet(0, Criterion(name, name), "Vitrinéo SAS")
    assert facet.question
    assert isinstance(facet.french, str)
    assert set(EVENT_CUES) <= set(EVENT_WORDS)


def test_a_named_channel_is_shown_in_how_the_criterion_is_read() -> None:
    rule = rule_for(Criterion("Channel", "Sells through resellers or via AWS Marketplace"))
    assert rule is not None
    assert rule.describe() == "sells through resellers, distributors or channel partners or through AWS Marketplace"
