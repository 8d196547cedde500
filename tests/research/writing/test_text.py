from __future__ import annotations

import pytest

from research.writing.text import fold, names, negated, numbers, quote_span, sentences, unsupported_terms


def test_fold_drops_case_accents_punctuation_and_spacing() -> None:
    assert fold("  Société  Générale,\n raised €1.2 BILLION!") == "societe generale raised 1 2 billion"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "Acme Inc. raised $5M in 2024. Its CEO is J. Smith! Does it sell? Yes.\n\nA new paragraph",
            ["Acme Inc. raised $5M in 2024.", "Its CEO is J. Smith!", "Does it sell?", "Yes.", "A new paragraph"],
            id="ends, not abbreviations or initials",
        ),
        pytest.param(
            "DENVER, Jan. 20, 2026 \u2013 Tavelnor today announced a deal. It closes in Sept. 2026.",
            ["DENVER, Jan. 20, 2026 \u2013 Tavelnor today announced a deal.", "It closes in Sept. 2026."],
            id="a dateline's abbreviated month",
        ),
        pytest.param(
            "The current leader is Hon. Winnie Kiiza of the FDC. Gen. Sir John Monash led it. Smith et al. agree.",
            [
                "The current leader is Hon. Winnie Kiiza of the FDC.",
                "Gen. Sir John Monash led it.",
                "Smith et al. agree.",
            ],
            id="a title before a name",
        ),
        pytest.param(
            "We will grow together.\u201d \u201cFrom day one, our mission was clear,\u201d said Rhys Calloway. Next.",
            [
                "We will grow together.",
                "\u201cFrom day one, our mission was clear,\u201d said Rhys Calloway.",
                "Next.",
            ],
            id="after a closing curly quote",
        ),
        pytest.param("He said \u2018Go.\u2019 Then left.", ["He said \u2018Go.", "Then left."], id="single quotes"),
    ],
)
def test_sentences_split_at_ends_and_only_there(text: str, expected: list[str]) -> None:
    assert sentences(text) == expected


def test_numbers_are_compared_as_digits() -> None:
    assert numbers("1,200 staff in 2024 and 3.5%") == {"1200", "2024", "35"}


def test_names_are_capitalised_words_but_not_function_words() -> None:
    found = names("The company Acme's founder Jane O'Neil met IBM in Berlin.")
    assert found == {"acme", "jane", "o", "neil", "ibm", "berlin"}


def test_unsupported_terms_lists_numbers_and_names_the_quotes_lack() -> None:
    quote = "Acme raised 5 million dollars in 2024, led by Sequoia."
    assert unsupported_terms("Acme raised 5 million dollars in 2024.", quote) == []
    assert unsupported_terms("Acme raised 7 million dollars from Accel in 2024.", quote) == ["7", "accel"]


def test_quote_span_finds_a_quote_across_case_punctuation_and_line_breaks() -> None:
    text = "Intro.\nAcme  Robotics raised\n$40 million — in Série B. Then more."
    start, end = quote_span(text, "acme robotics raised $40 million, in serie b") or (0, 0)
    assert text[start:end] == "Acme  Robotics raised\n$40 million — in Série B"
    assert quote_span(text, "Acme raised $50 million") is None
    assert quote_span(text, "") is None


def test_list_items_and_the_line_after_a_heading_are_sentences_of_their_own() -> None:
    text = (
        "Decision\n\n- Effective July 15, the allowance grows.\n- The price does not change\n"
        "* Team plans stay.\n1. First step done\nSummary\nHalvorix is preparing the largest change to its\n"
        "product and price list since 2020."
    )
    assert sentences(text) == [
        "Decision",
        "Effective July 15, the allowance grows.",
        "The price does not change",
        "Team plans stay.",
        "First step done",
        "Summary",
        "Halvorix is preparing the largest change to its product and price list since 2020.",
    ]
    # a Markdown bold lead-in is a sentence of its own, its markers dropped
    assert sentences("**Price framing.** Marrowpine offered $41 a seat.") == [
        "Price framing.",
        "Marrowpine offered $41 a seat.",
    ]
    # a wrapped line of prose is not a heading, and a hyphen inside a line is not a list
    assert sentences("Halvorix moved to usage-based pricing on June 1 and lowered\nThe entry price - a lot.") == [
        "Halvorix moved to usage-based pricing on June 1 and lowered The entry price - a lot."
    ]


def test_a_bylines_headline_and_lead_are_sentences_of_their_own() -> None:
    text = (
        "Thistlewick raises £32m Series B as UK payroll software race heats up\n"
        "By Owen Brackley | 9 September 2026\n"
        "MANCHESTER - Thistlewick Software Ltd has raised £32 million, the company said.\n"
        "Par Anne Roux\nPraxelune lève 18 M EUR."
    )
    assert sentences(text) == [
        "Thistlewick raises £32m Series B as UK payroll software race heats up",
        "By Owen Brackley | 9 September 2026",
        "MANCHESTER - Thistlewick Software Ltd has raised £32 million, the company said.",
        "Par Anne Roux",
        "Praxelune lève 18 M EUR.",
    ]
    # "By" inside a line, or a sentence that ends, is no byline
    assert sentences("By March the team had grown.\nIt hired ten people.") == [
        "By March the team had grown.",
        "It hired ten people.",
    ]


def test_a_pages_tagline_of_a_few_words_is_a_sentence_of_its_own() -> None:
    text = "Help us keep medicine and food cold\nOur 164-strong team works from Aarhus.\n"
    assert sentences(text) == ["Help us keep medicine and food cold", "Our 164-strong team works from Aarhus."]
    french = "La caisse qui suit le rythme du coup de feu\nPlus de 6 000 restaurants encaissent avec Fourchelune."
    assert sentences(french)[0] == "La caisse qui suit le rythme du coup de feu"


def test_a_title_and_field_lines_end_their_sentences() -> None:
    text = (
        "Warehouse management system which grows together with your business\n"
        "Kwadrolog is a cloud WMS for distributors."
    )
    assert sentences(text, "Warehouse management system which grows together with your business") == [
        "Warehouse management system which grows together with your business",
        "Kwadrolog is a cloud WMS for distributors.",
    ]
    assert len(sentences(text)) == 1  # without its title, a long line runs into the next
    record = "Account: Mutua\nCity: Santander\nEmployees: 640"
    assert sentences(record) == ["Account: Mutua", "City: Santander", "Employees: 640"]


@pytest.mark.parametrize(
    ("before", "window", "also", "denied"),
    [
        ("we use no", 4, (), True),  # "we use no AWS"
        ("nous ne passons pas par", 4, (), True),  # "pas par l'UGAP"
        ("never sold through our", 4, (), True),
        ("not that it matters we sell through", 4, (), False),  # the negation is further back than the window
        ("in 2024 we moved away from", 4, ("away",), True),
        ("in 2024 we moved away from", 4, (), False),
        ("", 4, (), False),
    ],
)
def test_negated_reads_the_last_words_before_what_it_denies(
    before: str, window: int, also: tuple[str, ...], denied: bool
) -> None:
    assert negated(fold(before).split(), window, also=also) is denied
