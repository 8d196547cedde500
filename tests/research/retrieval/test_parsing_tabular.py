"""CSV (row and table modes) and JSON / JSON Lines with field mappings; bad rows are reported, the rest kept."""

from __future__ import annotations

import json

import pytest

from research.retrieval.parsing import ParseError, ParseOptions, parse_bytes
from tests.research.retrieval import samples


def test_it_makes_one_document_per_csv_row_with_a_title_column() -> None:
    outcome = parse_bytes("sales.csv", samples.csv_file(samples.SALES), ParseOptions(csv_title_column="product"))

    assert [(d.title, d.doc_key, d.text) for d in outcome.documents] == [
        ("Widget (sales.csv, row 1)", "row-1", "product: Widget\nregion: EU\namount: 10"),
        ("Gadget (sales.csv, row 2)", "row-2", "product: Gadget\nregion: US\namount: 20"),
        ("Gizmo (sales.csv, row 3)", "row-3", "product: Gizmo\nregion: EU\namount: 30"),
    ]
    assert outcome.documents[0].metadata == {"row": "1"}
    assert {d.kind for d in outcome.documents} == {"csv"}
    assert outcome.errors == []


def test_it_sniffs_the_delimiter_and_titles_rows_by_their_title_like_column_without_title_column() -> None:
    outcome = parse_bytes("sales.csv", samples.csv_file(samples.SALES, delimiter=";"))

    assert outcome.documents[1].title == "Gadget (sales.csv, row 2)"
    assert outcome.documents[1].text == "product: Gadget\nregion: US\namount: 20"


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (["id", "Company", "stage"], "Acme GmbH (crm.csv, row 1)"),
        (["ID", "Société", "étape"], "Acme GmbH (crm.csv, row 1)"),
        (["nr", "Firmenname", "Phase"], "Acme GmbH (crm.csv, row 1)"),
        (["id", "ACCOUNT NAME", "stage"], "Acme GmbH (crm.csv, row 1)"),
        (["id", "Nombre", "etapa"], "Acme GmbH (crm.csv, row 1)"),
    ],
)
def test_a_csv_row_is_titled_by_its_title_like_column_with_its_row(header: list[str], expected: str) -> None:
    rows = [header, ["40", "Acme GmbH", "won"], ["41", "Bolt SA", "lost"]]

    outcome = parse_bytes("crm.csv", samples.csv_file(rows))

    assert [d.title for d in outcome.documents] == [
        expected,
        expected.replace("Acme GmbH", "Bolt SA").replace("1)", "2)"),
    ]
    assert outcome.documents[0].metadata == {"row": "1"}
    assert outcome.fields == {"title": header[1]}


def test_a_title_column_wins_over_a_company_column() -> None:
    rows = [["company", "title", "salary"], ["Acme GmbH", "Sales engineer", "60000"]]

    [document] = parse_bytes("jobs.csv", samples.csv_file(rows)).documents

    assert document.title == "Sales engineer (jobs.csv, row 1)"


def test_without_a_title_like_column_a_csv_row_is_titled_by_its_first_short_text_column() -> None:
    rows = [
        ["id", "amount", "summary", "city", "joined"],
        [
            "1",
            "10",
            "A long free-text summary of this customer's history and all of its support tickets.",
            "Lyon",
            "2024-01-02",
        ],
        ["2", "20", "", "Brest", "2024-02-03"],
    ]

    outcome = parse_bytes("accounts.csv", samples.csv_file(rows))

    assert [d.title for d in outcome.documents] == ["Lyon (accounts.csv, row 1)", "Brest (accounts.csv, row 2)"]


def test_a_csv_row_without_any_text_column_or_with_a_blank_title_keeps_its_file_and_row() -> None:
    numbers = parse_bytes("figures.csv", samples.csv_file([["id", "amount"], ["1", "10"]])).documents
    blank = parse_bytes("crm.csv", samples.csv_file([["company", "stage"], ["", "won"]])).documents

    assert [d.title for d in numbers + blank] == ["figures row 1", "crm row 1"]


def test_it_reads_tab_separated_files() -> None:
    outcome = parse_bytes("sales.tsv", samples.csv_file(samples.SALES, delimiter="\t"))

    assert outcome.documents[2].text == "product: Gizmo\nregion: EU\namount: 30"


def test_it_groups_a_csv_table_by_a_column() -> None:
    options = ParseOptions(csv_mode="table", csv_group_by="region")

    outcome = parse_bytes("sales.csv", samples.csv_file(samples.SALES), options)

    assert [(d.doc_key, d.title, d.text) for d in outcome.documents] == [
        ("group-EU", "sales (region: EU)", "product | region | amount\nWidget | EU | 10\nGizmo | EU | 30"),
        ("group-US", "sales (region: US)", "product | region | amount\nGadget | US | 20"),
    ]
    assert outcome.documents[0].metadata == {"rows": "2", "group_by": "region", "group": "EU"}


def test_it_keeps_a_whole_csv_table_as_one_document_without_group_by() -> None:
    rows = [["name", "note"], ["a", "x | y"], ["b", "two\nlines"]]

    [document] = parse_bytes("notes.csv", samples.csv_file(rows), ParseOptions(csv_mode="table")).documents

    assert document.text == "name | note\na | x \\| y\nb | two lines"
    assert (document.doc_key, document.title, document.metadata) == ("", "notes", {"rows": "2"})


def test_it_reports_ragged_csv_rows_and_keeps_the_others() -> None:
    outcome = parse_bytes("people.csv", samples.ragged_csv(), ParseOptions(csv_title_column="name"))

    assert outcome.errors == ["row 2: 4 values but the header has 3 columns"]
    assert [(d.doc_key, d.title, d.text) for d in outcome.documents] == [
        ("row-1", "Ann (people.csv, row 1)", "name: Ann\nage: 30\ncity: Paris"),
        ("row-3", "Cid (people.csv, row 3)", "name: Cid"),
        ("row-5", "Dee (people.csv, row 5)", "name: Dee\nage: 50"),
    ]


@pytest.mark.parametrize("option", ["csv_title_column", "csv_group_by"])
def test_it_refuses_an_option_naming_a_missing_column(option: str) -> None:
    options = ParseOptions(csv_mode="row" if option == "csv_title_column" else "table", **{option: "colour"})

    with pytest.raises(ParseError) as caught:
        parse_bytes("sales.csv", samples.csv_file(samples.SALES), options)

    assert caught.value.reason == f"the CSV file has no column 'colour' for {option} (columns: product, region, amount)"


def test_it_refuses_a_csv_with_only_a_header() -> None:
    with pytest.raises(ParseError, match="no text found in the file"):
        parse_bytes("header.csv", b"a,b,c\n")


def test_it_maps_json_array_fields_and_reports_an_item_without_text() -> None:
    options = ParseOptions(
        json_title_field="heading", json_text_field="body", json_metadata_fields=("year", "meta.author", "absent")
    )

    outcome = parse_bytes("records.json", samples.json_records(), options)

    assert [(d.doc_key, d.title, d.text, d.metadata) for d in outcome.documents] == [
        ("item-1", "First", "Alpha text", {"year": "2024", "meta.author": "Ann"}),
        ("item-2", "Second", "Beta text", {"year": "2023"}),
    ]
    assert outcome.errors == ["item 3: no 'body' field (its fields: heading)"]
    assert outcome.fields == {"text": "body", "title": "heading"}
    assert {d.kind for d in outcome.documents} == {"json"}


def test_it_reads_a_single_json_object_as_one_document() -> None:
    data = json.dumps({"title": "Solo", "text": "Only one.", "tags": ["a", "b"]}).encode()

    [document] = parse_bytes("solo.json", data, ParseOptions(json_metadata_fields=("tags",))).documents

    assert (document.doc_key, document.title, document.text) == ("", "Solo", "Only one.")
    assert document.metadata == {"tags": '["a","b"]'}


def test_it_reads_json_lines_and_reports_a_bad_line() -> None:
    options = ParseOptions(json_title_field="heading", json_text_field="body")

    outcome = parse_bytes("records.jsonl", samples.jsonl_records(), options)

    assert [(d.doc_key, d.title, d.text) for d in outcome.documents] == [
        ("item-1", "One", "First line text"),
        ("item-4", "Three", "Third line text"),
    ]
    assert outcome.errors == ["line 2: invalid JSON (Expecting property name enclosed in double quotes)"]


def test_it_reports_items_of_the_wrong_shape() -> None:
    data = json.dumps([{"text": "fine"}, "a string", {"text": {"nested": True}}, {"text": "   "}]).encode()

    outcome = parse_bytes("mixed.json", data)

    assert [d.title for d in outcome.documents] == ["mixed item 1"]
    assert outcome.errors == [
        "item 2: not an object but str",
        "item 3: the 'text' field is dict, not text",
        "item 4: the 'text' field is empty",
    ]


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b'{"text": "unfinished', "invalid JSON: Unterminated string starting at: line 1 column 10 (char 9)"),
        (b"42", "the JSON file holds neither an object nor an array of objects"),
        (
            b'[{"title": "no text"}]',
            "no text field in the file's items (their fields: title); name it in the corpus's JSON text field,"
            " then upload the file again",
        ),
        (b"[" * 100_000, "invalid JSON: nested too deeply"),
    ],
)
def test_it_refuses_unusable_json(data: bytes, reason: str) -> None:
    with pytest.raises(ParseError) as caught:
        parse_bytes("bad.json", data)

    assert caught.value.reason == reason


def _lines(*items: dict[str, object]) -> bytes:
    return "\n".join(json.dumps(item, ensure_ascii=False) for item in items).encode()


def test_a_jsonl_files_text_title_and_date_fields_are_found_in_any_language_and_case_and_said() -> None:
    data = _lines(
        {"Titel": "Umsatz 2026", "Inhalt": "Die Firma wuchs um 40 Prozent.", "Datum": "2026-05-04", "id": 1},
        {"Titel": "Neue CTO", "Inhalt": "Eine neue CTO kam im Juni.", "Datum": "2026-06-01", "id": 2},
    )

    outcome = parse_bytes("presse.jsonl", data)

    assert [(d.title, d.text, d.metadata) for d in outcome.documents] == [
        ("Umsatz 2026", "Die Firma wuchs um 40 Prozent.", {"date": "2026-05-04"}),
        ("Neue CTO", "Eine neue CTO kam im Juni.", {"date": "2026-06-01"}),
    ]
    assert outcome.fields == {"text": "Inhalt", "title": "Titel", "date": "Datum"}
    assert outcome.errors == []


@pytest.mark.parametrize("name", ["texte", "Body", "description", "CONTENT", "contenu", "inhalt", "Texto"])
def test_a_jsonl_text_field_not_called_text_is_read(name: str) -> None:
    outcome = parse_bytes("items.jsonl", _lines({"titre": "Prix", name: "Le prix passe à 59 EUR par mois."}))

    assert [(d.title, d.text) for d in outcome.documents] == [("Prix", "Le prix passe à 59 EUR par mois.")]
    assert outcome.fields == {"text": name, "title": "titre"}


def test_an_unknown_text_field_is_the_longest_string_field() -> None:
    note = "Le client a demandé une démo de la version hébergée en France avant la fin du trimestre."
    outcome = parse_bytes("crm.jsonl", _lines({"id": 7, "ref": "T-7", "remarque_commerciale": note}))

    assert [d.text for d in outcome.documents] == [note]
    assert outcome.fields == {"text": "remarque_commerciale"}
    card = {"nom": "Samvida", "effectif": 240, "slogan": "Le logiciel de paie des PME indiennes", "ville": "Pune"}
    [record] = parse_bytes("cards.jsonl", _lines(card)).documents  # a tagline beside figures: a record
    assert record.text == "nom: Samvida\neffectif: 240\nslogan: Le logiciel de paie des PME indiennes\nville: Pune"


def test_an_item_with_an_empty_text_field_is_no_document_not_a_record_of_its_other_fields() -> None:
    service = {"id": 20499, "type": "service", "actor": "Jasmine Tan", "action": "pin_message", "text": ""}
    outcome = parse_bytes("chat.jsonl", _lines({"text": "Merlintide hired a CFO."}, service))

    assert [d.text for d in outcome.documents] == ["Merlintide hired a CFO."]
    assert outcome.errors == ["line 2: the 'text' field is empty"]


def test_a_jsonl_file_without_a_string_field_fails_naming_the_fields_it_has() -> None:
    with pytest.raises(ParseError) as caught:
        parse_bytes("scores.jsonl", _lines({"id": 1, "score": 0.5}, {"id": 2, "score": 0.7, "ok": True}))

    assert caught.value.reason == (
        "no text field in the file's items (their fields: id, score, ok); name it in the corpus's JSON text field,"
        " then upload the file again"
    )


def test_a_jsonl_file_with_thousands_of_keys_and_no_text_field_fails_in_a_short_message() -> None:
    from research.retrieval.parsing.records import fields_named

    many = [f"k{number}" for number in range(20_000)]
    said = fields_named(many)
    assert said.startswith("k0, k1")
    assert said.endswith("... (19980 more)")
    assert len(said) < 300
    assert fields_named([]) == "none"
