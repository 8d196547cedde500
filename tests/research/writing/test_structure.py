"""Claims from structure: a table row with its header, a record with its column names, and whose row it is."""

from __future__ import annotations

from research.writing.citations import Evidence, by_chunk, claim_problem
from research.writing.extractive import _claim, candidates, superseded
from research.writing.names import known_as
from research.writing.structure import record_row, row_about, row_cells, table_rows

PRICING = """Des tarifs simples
| Formule | Prix | Pour qui |
|---|---|---|
| Essentiel | 39 EUR par praticien et par mois | Praticien seul |
| Cabinet | 59 EUR par praticien et par mois | Cabinets de 1 à 10 praticiens |
Options"""


def test_a_table_row_is_read_with_its_header_and_quotes_both_lines() -> None:
    rows = table_rows(PRICING)
    assert [row.text for row in rows] == [
        "Formule: Essentiel; Prix: 39 EUR par praticien et par mois; Pour qui: Praticien seul",
        "Formule: Cabinet; Prix: 59 EUR par praticien et par mois; Pour qui: Cabinets de 1 à 10 praticiens",
    ]
    assert rows[1].quotes == ("| Formule | Prix | Pour qui |", rows[1].quotes[1])
    assert table_rows("Item | Our offer\niDEAL | EUR 0.27")[0].text == "Item: iDEAL; Our offer: EUR 0.27"


def test_a_row_claim_passes_the_citation_check_of_its_chunk() -> None:
    chunk = Evidence("c1", "d1", "Tarifs", "tarifs.html", PRICING, publisher="Praxelune SAS; praxelune.example")
    row = next(c for c in candidates([chunk], rows=True) if c.row is not None)
    assert claim_problem(_claim(row), by_chunk([chunk])) is None


def test_a_record_is_the_company_its_name_column_names() -> None:
    own_text = "account: Tjalkwerf Payments B.V.\ncity: Utrecht\nemployees: 265"
    other_text = "account: Grachtenfiets B.V.\ncity: Amsterdam\ncurrent_psp: Tjalkwerf"
    own = Evidence("c1", "d1", "crm row 4", "crm.csv", own_text)
    other = Evidence("c2", "d1", "crm row 5", "crm.csv", other_text)
    company = known_as("Tjalkwerf Payments B.V.", [own, other])
    own_row, other_row = record_row(own.text), record_row(other.text)
    assert own_row is not None
    assert other_row is not None
    assert row_about(company, own_row, own)
    assert not row_about(company, other_row, other)  # Grachtenfiets's row, which names its payment provider


def test_a_pricing_table_without_the_name_is_the_company_s_on_its_own_page_only() -> None:
    company = known_as("Praxelune SAS", [])
    own = Evidence("c1", "d1", "Tarifs", "tarifs.html", PRICING, publisher="Praxelune SAS")
    notes = Evidence("c2", "d2", "Notes", "notes.md", PRICING)
    row = table_rows(PRICING)[0]
    assert row_about(company, row, own)
    assert not row_about(company, row, notes)


def test_a_row_an_newer_price_list_states_again_supersedes_the_archived_one() -> None:
    table = "| Plan | Price |\n|---|---|\n| Pro | EUR {price} |\n| Team | EUR 20 |"
    archived = Evidence("a1", "a", "Pricing", "old.html", table.format(price=49), date="2025-02-12")
    current = Evidence("c1", "c", "Pricing", "new.html", table.format(price=59), date="2026-10-01")
    found = [c for c in candidates([archived, current], rows=True) if c.row is not None]
    # the unchanged Team row stays, from the newer document only
    assert superseded(found) == {("Plan: Pro; Price: EUR 49", "a"), ("Plan: Team; Price: EUR 20", "a")}


def test_an_undated_pages_row_neither_supersedes_nor_is_superseded() -> None:
    table = "| Plan | Price |\n|---|---|\n| Pro | EUR {price} |"
    archived = Evidence("a1", "a", "Price list 2025", "old.pdf", table.format(price=49), date="2025-02-12")
    page = Evidence("p1", "p", "Pricing", "pricing.html", table.format(price=59))  # a site page carries no date
    found = [c for c in candidates([archived, page], rows=True) if c.row is not None]
    assert superseded(found) == set()  # which is newer is not known: both stand, and a conflict shows them


KEY_FIGURES = """Key figures
Metric | Value
Founded | 2016
Revenue 2025 | PLN 96 m (approx. EUR 22.5 m)
Paying customers (30.06.2026) | approx. 380"""

COMPARISON = """Entry prices
Vendor | Entry plan | Price per month
Kwadrolog | Start | PLN 990
Skladovka | Basic | PLN 850"""


def test_a_key_figures_row_reads_as_its_label_and_value() -> None:
    rows = table_rows(KEY_FIGURES)
    assert [row.text for row in rows] == [
        "Founded: 2016",
        "Revenue 2025: PLN 96 m (approx. EUR 22.5 m)",
        "Paying customers (30.06.2026): approx. 380",
    ]
    assert rows[1].quotes == ("Metric | Value", "Revenue 2025 | PLN 96 m (approx. EUR 22.5 m)")
    assert not rows[1].keyed


def test_a_profiles_key_figures_are_the_companys_and_a_comparisons_other_rows_are_not() -> None:
    profile = Evidence("c1", "d1", "Vendor Note: Kwadrolog sp. z o.o.", "note.pdf", f"{KEY_FIGURES}\n{COMPARISON}")
    notes = Evidence("c2", "d2", "Our WMS notes", "notes.md", KEY_FIGURES, internal=True)
    company = known_as("Kwadrolog sp. z o.o.", [profile])
    revenue, *_ = table_rows(KEY_FIGURES)[1:]
    own, other = table_rows(COMPARISON)
    assert own.keyed  # the "Vendor" column says whose row it is
    assert other.keyed
    assert row_about(company, revenue, profile)
    assert not row_about(company, revenue, notes)  # our notes' table: whose figures they are is not said
    assert row_about(company, own, profile)
    assert not row_about(company, other, profile)  # Skladovka's row in the note on Kwadrolog


def test_an_action_lists_rows_are_our_to_dos_not_claims() -> None:
    notes = """## Action items
| Action | Owner | Due |
| --- | --- | --- |
| Re-run the cost comparison with the new Halvorix price list | Lucia Brenneman | 2026-07-03 |"""
    assert table_rows(notes) == []
    assert record_row("Prochaine étape: relancer Praxelune\nResponsable: Inès\nÉchéance: 12/10\nStatut: ouvert") is None
    assert table_rows("| Plan | Owner seats | Due monthly |\n| Pro | 5 | EUR 9 |")  # an owner seat is no task's owner


def test_a_tenders_supplier_column_says_whose_row_it_is() -> None:
    scores = "| Supplier | Quality (max 60) | Total |\n|---|---|---|\n| Stoepkrijt Learning B.V. | 44 | 77 |"
    chunk = Evidence("c1", "d1", "Tender results: Tentavik and others", "tender.pdf", scores)
    company = known_as("Tentavik AB", [chunk])
    [row] = table_rows(scores)
    assert row.keyed
    assert not row_about(company, row, chunk)


def test_an_e_mails_signature_is_no_table() -> None:
    mail = (
        "For 2027 I'd like a corner booth near the entrance.\n\n--\nNurul Aisyah | Account Executive, Singapore\n"
        "Portvane Technologies Pte. Ltd. | 1 Fusion Crescent, Singapore 138599\n"
    )
    assert table_rows(mail) == []
    assert len(table_rows(mail.replace("--\n", ""))) == 1  # the same lines as a table are one row


def test_a_row_claim_is_read_back_into_its_cells() -> None:
    (row,) = table_rows("| Plan | Price |\n| --- | --- |\n| Essentials | AUD 4.50 per hectare per year |")
    assert row_cells(row.text) == [("Plan", "Essentials"), ("Price", "AUD 4.50 per hectare per year")]
    assert row_cells("Essentials costs AUD 4.50 per hectare; billed yearly.") is None
    assert row_cells("Plan: Essentials") is None  # one cell is a label, not a row
