"""Someone else's profile of the company (an analyst's vendor profile, a trade note whose title names it): its
impersonal sentences are about the company, unless they name someone else; an analyst's rating of it in the first
person is the analyst's view of the company."""

from __future__ import annotations

from research.writing.citations import Evidence
from research.writing.extractive import ExtractiveWriter
from research.writing.names import known_as
from research.writing.text import sentences
from research.writing.writers import Brief

PROFILE = (
    "Summary\nKuldevagt A/S is an Aarhus-based vendor of cellular temperature sensors.\n"
    "Financials and scale\nRevenue for 2025 was DKK 81 million (approx. EUR 10.9 million), up 44% on 2024. "
    "We rate Kuldevagt a Strong Performer in our 2026 European Cold-Chain Monitoring Radar. "
    "Brantvoe Sensorik raised EUR 55 million in January. The company employs 410 people. "
    "The raise follows Hamburg-based rival Frostgard Systeme's EUR 20 million round. "
    "Sensors made up most of the revenue."
)


def profile(text: str = PROFILE, title: str = "Orrestad Insights vendor profile: Kuldevagt A/S") -> Evidence:
    return Evidence(chunk_id="p#0", doc_id="p", title=title, source="orrestad-profile.pdf", text=text)


def about(text: str, evidence: Evidence) -> bool:
    company = known_as("Kuldevagt A/S", [evidence])
    found = sentences(evidence.text)
    index = found.index(text)
    return company.about(text, evidence, found[index - 1] if index else "")


def test_a_profiles_impersonal_sentences_are_the_companys() -> None:
    evidence = profile()
    assert about("Revenue for 2025 was DKK 81 million (approx. EUR 10.9 million), up 44% on 2024.", evidence)
    assert about("Sensors made up most of the revenue.", evidence)


def test_a_rivals_sentences_in_a_profile_are_not() -> None:
    evidence = profile()
    assert not about("Brantvoe Sensorik raised EUR 55 million in January.", evidence)
    assert not about("The company employs 410 people.", evidence)  # refers back to the rival
    assert not about("The raise follows Hamburg-based rival Frostgard Systeme's EUR 20 million round.", evidence)


def test_only_a_profile_by_someone_else_counts() -> None:
    text = "Tavelnor agreed to buy Marrowpine AI. More than 6,000 organisations use the lakehouse every day."
    release = Evidence(
        chunk_id="t#0", doc_id="t", title="Tavelnor to acquire Marrowpine AI", source="t.html", text=text
    )
    company = known_as("Marrowpine AI", [release])
    assert not company.about("More than 6,000 organisations use the lakehouse every day.", release, "x.")
    ours = Evidence(
        chunk_id="b#0", doc_id="b", title="Battlecard: Kuldevagt", source="b.md", text=PROFILE, internal=True
    )
    assert not about("Sensors made up most of the revenue.", ours)  # our own notes are no profile


def test_an_analysts_rating_in_the_first_person_is_a_claim_about_the_company() -> None:
    brief = Brief(focus="analyst rating (rated, analyst)", evidence=(profile(),), subject="Kuldevagt A/S")
    texts = [claim.text for claim in ExtractiveWriter().write(brief).claims]
    assert "We rate Kuldevagt a Strong Performer in our 2026 European Cold-Chain Monitoring Radar." in texts


def test_a_profiles_sentence_that_names_a_supplier_or_partner_as_its_object_is_the_companys() -> None:
    text = (
        "Kuldevagt sells sensors and the Kuldevagt Console. "
        "The Console runs on Microsoft Azure in the West Europe region. "
        "Sensors connect over LTE-M and NB-IoT through connectivity partner Strandnet IoT. "
        "Vintergard Telemetry, a rival, runs on Google Cloud. "
        "Kuldevagt grows faster than Vintergard Telemetry. "
        "The deal is the largest since Glasgow's Vantorra Fleet raised GBP 22 million. "
        "En novembre, le parisien Zincolo avait bouclé une série B."
    )
    evidence = profile(text)
    assert about("The Console runs on Microsoft Azure in the West Europe region.", evidence)
    assert about("Sensors connect over LTE-M and NB-IoT through connectivity partner Strandnet IoT.", evidence)
    assert not about("Vintergard Telemetry, a rival, runs on Google Cloud.", evidence)
    assert not about("The deal is the largest since Glasgow's Vantorra Fleet raised GBP 22 million.", evidence)
    assert not about("En novembre, le parisien Zincolo avait bouclé une série B.", evidence)


def test_a_word_with_a_figure_is_a_term_not_another_companys_name() -> None:
    """ "FY2026", "Q3", "H1" are periods: a profile's sentence that holds one is still the company's."""
    evidence = profile(PROFILE + " In FY2026 the installed base grew by 30% and Q3 bookings were a record.")
    assert about("In FY2026 the installed base grew by 30% and Q3 bookings were a record.", evidence)
