"""The ICP judge on the twentieth round of fresh corpora (the report benchmark's salon-booking-ro and
gestion-dechets-be, measured before any rule was tuned on them) and the dev misses it reread: a name the documents call
the company's rival opens the rival's sentences; "pas encore de client aux Pays-Bas"; a window that closes ("au second
semestre 2025"); a city and a county ("in Bucharest or in Ilfov county"); places whose people use the software are
customers; a support team named after its clients is none; customers still to come are none; "all our customers are in
France", La Réunion included."""

from __future__ import annotations

import datetime

from research.writing.criteria import Criterion, EventRule, RegionRule, rule_for
from research.writing.icp import judge
from research.writing.presence import PresenceRule
from tests.research.writing.conftest import one_document

AS_OF = datetime.date(2026, 11, 30)
TRIBENNE = "Tribenne SA"


def test_a_name_called_its_rival_opens_the_rivals_sentences() -> None:
    article = one_document(
        "Tribenne emploie 118 collaborateurs à Louvain-la-Neuve et à Eupen, loin de son concurrent malinois "
        "Ophaalwijs NV.",
        "Ophaalwijs, justement, revendique 22 intercommunales clientes et 204 collaborateurs ; l'éditeur de Malines "
        "compte des clients aux Pays-Bas.",
        title="Tribenne lève 9 millions d'euros",
    )
    size = Criterion("Entre 80 et 150 collaborateurs", "Emploie entre 80 et 150 collaborateurs")
    verdict = judge(size, TRIBENNE, article, as_of=AS_OF)
    assert verdict.verdict == "match"
    assert "118" in verdict.citations[0].quote
    dutch = Criterion("Clients aux Pays-Bas", "A des clients aux Pays-Bas aujourd'hui")
    assert judge(dutch, TRIBENNE, article, as_of=AS_OF).verdict == "unknown"


def test_not_yet_a_customer_there_is_none() -> None:
    dutch = Criterion("Clients aux Pays-Bas", "A des clients aux Pays-Bas aujourd'hui")
    careers = "Nous n'avons pas encore de client aux Pays-Bas : notre bureau de Maastricht prépare deux pilotes."
    verdict = judge(dutch, TRIBENNE, one_document(careers, title="Tribenne"), as_of=AS_OF)
    assert verdict.verdict == "no_match"


H2_2025 = Criterion(
    "Levée en capital signée au second semestre 2025",
    "A signé une levée de fonds en capital (augmentation de capital, tour de table) entre le 1er juillet et le 31 "
    "décembre 2025 ; c'est la date de signature qui compte, pas celle de l'annonce",
)


def test_a_window_that_closes_keeps_out_what_came_after() -> None:
    rule = rule_for(H2_2025)
    assert isinstance(rule, EventRule)
    assert (rule.since, rule.until) == (datetime.date(2025, 7, 1), datetime.date(2025, 12, 31))
    later = one_document("Tribenne a levé 3 millions d'euros en avril 2026.", title="Tribenne")
    assert judge(H2_2025, TRIBENNE, later, as_of=AS_OF).verdict == "unknown"
    signed = one_document(
        "L'augmentation de capital de Tribenne a été signée devant notaire le 19 décembre 2025.", title="Tribenne"
    )
    verdict = judge(H2_2025, TRIBENNE, [*later, *signed], as_of=AS_OF)
    assert verdict.verdict == "match"
    assert "19 décembre 2025" in verdict.citations[0].quote


BUCHAREST = Criterion("HQ in București-Ilfov", "Head office (sediu social) in Bucharest or in Ilfov county")


def test_a_city_beside_a_county_is_its_region() -> None:
    rule = rule_for(BUCHAREST)
    assert isinstance(rule, RegionRule)
    assert set(rule.state.split("|")) == {"ilfov", "bucuresti"}
    cluj = "Bucleta Software S.R.L. has its head office (sediu social) in Cluj-Napoca and offices in Bucharest."
    assert judge(BUCHAREST, "Bucleta Software S.R.L.", one_document(cluj), as_of=AS_OF).verdict == "no_match"
    bucharest = "Bucleta Software S.R.L. has its head office in Bucharest."
    assert judge(BUCHAREST, "Bucleta Software S.R.L.", one_document(bucharest), as_of=AS_OF).verdict == "match"


ABROAD = Criterion(
    "Clients à l'étranger",
    "Des établissements situés hors de France utilisent aujourd'hui le logiciel ; un bureau ouvert à l'étranger ne "
    "compte pas",
)


def test_places_whose_people_use_the_software_are_customers_not_offices() -> None:
    rule = rule_for(ABROAD)
    assert isinstance(rule, PresenceRule)
    assert rule.customers_only
    assert not rule.offices_only
    office = "Nidoline SAS a une agence commerciale à Paris et, depuis septembre 2026, un bureau à Montréal."
    team = "Nous prévoyons 35 recrutements en 2027, surtout au support client et pour le Québec."
    future = "Les données de nos futurs clients québécois seront hébergées au Canada."
    found = one_document(office, team, future, title="Nidoline")
    assert judge(ABROAD, "Nidoline SAS", found, as_of=AS_OF).verdict == "unknown"
    home = "Chez Nidoline, tous nos établissements clients sont en France, de Lille à Saint-Denis de La Réunion."
    verdict = judge(ABROAD, "Nidoline SAS", [*found, *one_document(home, doc="b", title="Nidoline")], as_of=AS_OF)
    assert verdict.verdict == "no_match"
    assert "tous nos" in verdict.citations[0].quote
