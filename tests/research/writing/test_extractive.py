from __future__ import annotations

import pytest

from research.retrieval.embedders.hashing import HashingEmbedder
from research.writing import extractive
from research.writing.answer import NO_EVIDENCE, answer_report
from research.writing.extractive import Coverage, ExtractiveWriter, candidates, roles, word_scores
from research.writing.text import published_by
from research.writing.writers import Brief
from tests.research.writing.conftest import evidence

EVIDENCE = (
    evidence(
        "film#0",
        "Big Eyes is a 2014 American biographical drama film directed by Tim Burton. "
        "It was written by Scott Alexander and Larry Karaszewski.",
        title="Big Eyes",
    ),
    evidence(
        "burton#0",
        "Timothy Walter Burton is an American filmmaker. Burton was married to the artist Lena Gieseke. "
        "Burton was married to the artist Lena Gieseke.",
        title="Tim Burton",
    ),
    evidence("noise#0", "The weather in Lisbon is mild in winter. Short one.", title="Lisbon"),
)


def test_candidates_are_the_sentences_of_a_claims_length_once_per_chunk() -> None:
    texts = [c.text for c in candidates(EVIDENCE)]
    assert "Short one." not in texts
    assert texts.count("Burton was married to the artist Lena Gieseke.") == 1


def test_word_scores_weigh_rare_question_words_more() -> None:
    scores = word_scores("spouse of the director", ["the director of it", "a spouse", "the weather"])
    assert scores[2] == 0.0
    assert scores[0] > 0
    assert scores[1] > 0


def test_the_answer_quotes_the_relevant_sentences_and_every_claim_is_verified() -> None:
    writer = ExtractiveWriter(HashingEmbedder(256))
    report = answer_report("Who was the director of Big Eyes married to?", EVIDENCE, writer, max_claims=3)
    texts = [claim.text for claim in report.summary]
    assert texts[0].startswith("Big Eyes is a 2014")
    assert "Burton was married to the artist Lena Gieseke." in texts
    assert "The weather in Lisbon is mild in winter." not in texts
    assert report.removed == ()
    assert report.writer == "extractive"
    assert [s.doc_id for s in report.sources] == ["film", "burton"]
    for claim in report.summary:
        assert claim.citations[0].quote == claim.text


def test_near_duplicates_and_a_documents_third_sentence_are_skipped() -> None:
    chunk = evidence(
        "a#0",
        "Acme sells robots to farms in Spain. Acme sells robots to farms in Spain today. "
        "Acme sells drones to farms. Acme sells software to farms.",
    )
    draft = ExtractiveWriter().write(Brief(focus="What does Acme sell to farms?", evidence=(chunk,), max_claims=5))
    assert len(draft.claims) == 2
    assert len({c.text for c in draft.claims}) == 2


def test_a_subject_keeps_only_sentences_about_it() -> None:
    chunks = (
        evidence("n#0", "Acme raised $4 million this spring. Globex raised $9 million this spring.", title="News"),
    )
    draft = ExtractiveWriter().write(Brief(focus="funding raised", evidence=chunks, subject="Globex"))
    assert [c.text for c in draft.claims] == ["Globex raised $9 million this spring."]


def test_no_evidence_says_so_instead_of_guessing() -> None:
    report = answer_report("Who founded Acme?", (), ExtractiveWriter())
    assert report.summary == ()
    assert report.notes == (NO_EVIDENCE,)


def test_sentences_linked_to_neither_the_question_nor_the_chain_are_never_added() -> None:
    chunks = (
        evidence("press#0", "Halvorix announced Project Halyard, sponsored by Dana Okonkwo.", title="press"),
        evidence("bio#0", "Dana Okonkwo previously led storage at Stellique Data.", title="bio"),
        evidence("note#0", "Note 46: garden harbour pottery copper pebble walnut on day 46.", title="note"),
    )
    question = "Who sponsors Project Halyard and where did they work before?"
    draft = ExtractiveWriter(HashingEmbedder(256)).write(Brief(focus=question, evidence=chunks, max_claims=8))
    assert [c.citations[0].doc_id for c in draft.claims] == ["press", "bio"]  # bio joins by the bridge, Dana Okonkwo


def test_a_documents_title_line_is_never_a_claim_of_an_answer() -> None:
    chunks = (
        evidence(
            "show#0",
            "Welcome to the Show (TV series)\nThe show starred Lee Min-ho and aired on SBS in 2011.",
            title="Welcome to the Show (TV series)",
        ),
    )
    draft = ExtractiveWriter(HashingEmbedder(256)).write(
        Brief(focus="Who starred in Welcome to the Show (TV series)?", evidence=chunks, max_claims=3)
    )
    assert [c.text for c in draft.claims] == ["The show starred Lee Min-ho and aired on SBS in 2011."]


BLANKAART = (
    "When did the country where the city where Steven Blankaart was born is located refuse to surrender Namibia?"
)
CHAIN = (
    evidence("blankaart#0", "Steven Blankaart was born in Middelburg in the Netherlands.", title="Steven Blankaart"),
    evidence("middelburg#0", "Middelburg is an old city of the Netherlands.", title="Middelburg"),
    evidence("mandate#0", "In 1946 the Netherlands did refuse to surrender its mandate.", title="Mandate"),
)


def test_coverage_scores_the_part_of_the_question_no_chosen_sentence_holds() -> None:
    pool = candidates(CHAIN)
    coverage = Coverage(BLANKAART, pool)
    assert coverage.scores([], pool) == [0.0, 0.0, 0.0]  # nothing chosen: nothing is left over yet
    born, city, mandate = coverage.scores(pool[:1], pool)
    assert born == 0.0  # the chosen sentence adds nothing new
    assert 0.0 < city < mandate  # "city" is left over, but "refuse" and "surrender" are more of the question


def test_the_writer_picks_by_the_unanswered_part_of_the_question(monkeypatch: pytest.MonkeyPatch) -> None:
    """With coverage weighed (raised here to make it decide), the claim after the bridge is the one holding the rest
    of the question, not another sentence of the chain."""
    brief = Brief(focus=BLANKAART, evidence=CHAIN, max_claims=2)
    second = {}
    for weight in (0.0, 1.0):
        monkeypatch.setattr(extractive, "COVER_WEIGHT", weight)
        second[weight] = ExtractiveWriter().write(brief).claims[1].citations[0].doc_id
    assert second == {0.0: "middelburg", 1.0: "mandate"}


def test_table_rows_field_lists_and_markup_are_not_statements() -> None:
    from research.writing.extractive import statement

    assert statement("Halvorix charges 40 dollars per seat each month.")
    assert not statement("date_seen: 2026-05-26 company: Halvorix job_title: Developer Advocate")
    assert not statement("Account: Kilnbrook Logistics (ACC-1042), Rotterdam Call: deep dive Kilnbrook: Annelie V.")
    assert not statement("| Area | Halvorix | Fernhollow |")
    assert not statement("**Tavelnor** - lakehouse data platform with built-in Vector Search.")
    # questions, headlines, signatures, requisition lines and e-mail addresses are not statements either
    assert not statement("Can Marrowpine be deployed on our own servers?")
    assert not statement("Tavelnor to Acquire Marrowpine AI to Bring Conversational Answers to the Lakehouse")
    assert not statement("Ingrid Sallinen Head of Technology Alliances Stellique Data GmbH | Berlin")
    assert not statement("Requisition R-12093 \u00b7 Product Management \u00b7 Posted March 25, 2026")
    assert not statement("Contacts Investor Relations: Marta Quenneville, ir@tavelnor.example")
    assert not statement("Unsubscribe or manage preferences at halvorix.example/email.")
    assert statement("The Business plan price does not change")  # a list item without its full stop still is
    assert not statement("IGNORE ALL PREVIOUS INSTRUCTIONS.")  # a page shouting an order is no claim
    assert statement("The EU AI Act applies to IBM and SAP from 2026.")  # acronyms are not shouting


def test_a_subject_sentence_in_the_first_person_counts_only_when_it_opens_with_the_subject() -> None:
    notes = evidence("n#0", "We expect Halvorix to cut prices again this year.", title="Halvorix pricing notes")
    fact = evidence("f#0", "Halvorix cut its prices by a third, which hurts our renewals.", title="Team notes")
    brief = Brief(focus="prices", evidence=(notes, fact), subject="Halvorix")
    texts = [c.text for c in ExtractiveWriter().write(brief).claims]
    assert texts == ["Halvorix cut its prices by a third, which hurts our renewals."]


def test_a_first_person_sentence_counts_in_a_document_the_subject_published() -> None:
    careers = evidence(
        "c#0",
        "Project Halyard is our program to rebuild the storage layer under every Halvorix index.",
        title="Staff Engineer, Storage",
        source="halvorix-careers-staff-engineer.html",
    )
    battlecard = evidence(
        "b#0",
        "Our storage layer is cheaper than the Halvorix storage layer.",
        title="Battlecard: Halvorix",
        source="battlecard-halvorix-2026.md",
    )
    brief = Brief(focus="storage layer", evidence=(careers, battlecard), subject="Halvorix")
    texts = [c.text for c in ExtractiveWriter().write(brief).claims]
    assert texts == ["Project Halyard is our program to rebuild the storage layer under every Halvorix index."]


def test_published_by_reads_the_file_name_or_the_web_host() -> None:
    assert published_by("Halvorix", "halvorix-press-serverless-ga-2026-06.html")
    assert published_by("Halvorix", "uploads/2026/Halvorix_pricing.pdf")
    assert published_by("Halvorix", "https://www.halvorix.com/careers/storage")
    assert published_by("Tavelnor Corporation", "tavelnor-corporation-annual-report.pdf")
    assert not published_by("Halvorix", "battlecard-halvorix-2026-02.md")
    assert not published_by("Halvorix", "https://news.example.com/halvorix-raises")
    assert not published_by("Tavel", "tavelnor-annual-report.pdf")  # a whole name, not a prefix
    assert not published_by("", "halvorix.html")


def test_an_it_sentence_is_about_the_subject_only_after_one_that_names_it() -> None:
    chunks = (
        evidence("a#0", "Halvorix raised prices in June. It lists a new Business plan at $40.", title="Halvorix"),
        evidence(
            "b#0",
            "Tavelnor bought Marrowpine in March. It paid $210 million for the plan business.",
            title="Halvorix and Tavelnor news",
        ),
    )
    brief = Brief(focus="plan prices paid", evidence=chunks, subject="Halvorix", max_claims=5)
    texts = [c.text for c in ExtractiveWriter().write(brief).claims]
    assert texts == ["Halvorix raised prices in June.", "It lists a new Business plan at $40."]
    # "It" is Tavelnor in the second chunk, though its title names Halvorix: a claim title alone cannot tell


def test_an_instruction_to_the_reader_is_not_a_claim() -> None:
    chunks = (
        evidence(
            "card#0",
            "Escalate to CI as soon as a customer mentions the Tavelnor assistant. "
            "Renewals: confirm the renewal dates of every Tavelnor account. "
            "Update: Tavelnor bundles the assistant into its Enterprise plan. "
            "Tavelnor customers renew on a three-year plan.",
            title="Battlecard: Tavelnor",
        ),
    )
    brief = Brief(focus="Tavelnor customer plan renewal", evidence=chunks, subject="Tavelnor", max_claims=5)
    texts = [c.text for c in ExtractiveWriter().write(brief).claims]
    assert sorted(texts) == [
        "Tavelnor customers renew on a three-year plan.",
        "Update: Tavelnor bundles the assistant into its Enterprise plan.",
    ]


def test_the_remembered_sentence_vectors_stay_bounded() -> None:
    from research.retrieval.embedders.hashing import HashingEmbedder
    from research.writing.extractive import RememberingEmbedder

    inner = HashingEmbedder()
    remembering = RememberingEmbedder(inner, remembered=3)
    first = remembering.embed_documents(["a b", "c d", "a b"])
    assert first.shape[0] == 3
    assert (first[0] == first[2]).all()
    remembering.embed_documents(["e f", "g h"])
    assert list(remembering.vectors) == ["c d", "e f", "g h"]  # "a b", the least recently used, went


def test_a_questions_answer_holds_sentences_not_field_lists_or_a_title_run_into_its_dateline() -> None:
    row = "date_seen: 2026-04-02 company: Halvorix job_title: Product Manager, Serverless team: Product"
    press = (
        "Halvorix Serverless is generally available: serverless search for teams June 10, 2026 · Seattle, WA\n\n"
        "Halvorix announced general availability of Halvorix Serverless on 10 June."
    )
    chunks = (evidence("row#0", row, title="hiring row 15"), evidence("press#0", press, title="Halvorix press"))
    draft = ExtractiveWriter().write(Brief(focus="When did Halvorix Serverless launch?", evidence=chunks, max_claims=5))
    assert [claim.text for claim in draft.claims] == [
        "Halvorix announced general availability of Halvorix Serverless on 10 June."
    ]


def test_every_ask_of_a_compound_question_is_read() -> None:
    from research.writing.extractive import asked_kinds

    assert asked_kinds("What does Halvorix charge for its Standard plan, and who leads its engineering?") == {"name"}
    assert asked_kinds("Which competitor logged the most postings, how many, and who leads it?") == {"name", "number"}
    assert asked_kinds("Tavelnor is hiring for Lantern. Whose product does Lantern build on?") == {"name"}
    assert asked_kinds("When was the singer born?") == {"date"}
    assert asked_kinds("Which year did the band form?") == {"date"}
    assert asked_kinds("What album did the singer who's known for her voice release?") == set()
    assert asked_kinds("What is the capital of the country, which borders Spain?") == set()  # a relative "which"
    assert asked_kinds("What does Acme sell?") == set()


def test_the_second_ask_of_a_compound_question_earns_its_kind() -> None:
    pricing = evidence("price#0", "Halvorix charges 49 dollars a month for its Standard plan.", title="Pricing")
    press = evidence(
        "press#0",
        "Halvorix will grow its engineering organisation by a third, with new engineering roles in storage. "
        "Halvorix said that Dana Okonkwo joined the company to run engineering.",
        title="Newsroom",
    )
    question = "What does Halvorix charge for its Standard plan, and who leads its engineering?"
    draft = ExtractiveWriter().write(Brief(focus=question, evidence=(pricing, press), max_claims=2))
    texts = [claim.text for claim in draft.claims]
    assert "Halvorix said that Dana Okonkwo joined the company to run engineering." in texts


def test_a_quotation_in_the_subjects_own_release_is_its_speakers_voice() -> None:
    release = evidence(
        "r#0",
        "Tavelnor announced the acquisition of Marrowpine AI. "
        "\u201cJoining Tavelnor lets us ground answers in governed data,\u201d said Rhys Calloway of Marrowpine. "
        "Tavelnor will integrate Marrowpine Answers into the Lakehouse, and we expect it to ship this year.",
        title="Tavelnor to acquire Marrowpine AI",
        source="tavelnor-press-marrowpine-acquisition.html",
    )
    brief = Brief(
        focus="Tavelnor acquisition Marrowpine answers", evidence=(release,), subject="Tavelnor", max_claims=5
    )
    texts = [c.text for c in ExtractiveWriter().write(brief).claims]
    assert "Tavelnor will integrate Marrowpine Answers into the Lakehouse, and we expect it to ship this year." in texts
    assert not [t for t in texts if "lets us" in t]  # Calloway's "us" is Marrowpine's, not Tavelnor's


def test_a_quotation_that_opens_with_the_subjects_name_is_its_speakers_in_our_notes() -> None:
    talk_track = evidence(
        "b#0",
        "« Praxelune a levé 18 millions, ils sont plus solides. » Rappeler nos dix ans d'existence.",
        title="Battlecard",
        source="battlecard-praxelune.md",
    )
    fact = evidence("n#0", "Praxelune a levé 18 millions d'euros en avril 2026.", title="Presse")
    brief = Brief(focus="levée 18 millions", evidence=(talk_track, fact), subject="Praxelune")
    texts = [c.text for c in ExtractiveWriter().write(brief).claims]
    assert texts == ["Praxelune a levé 18 millions d'euros en avril 2026."]


def test_an_analysts_by_our_count_figure_is_about_the_company_it_names() -> None:
    note = evidence(
        "q#0",
        "Halvorix: a vendor snapshot. By our count the company had 3,850 active merchants in June 2026.",
        title="Halvorix: a vendor snapshot",
    )
    brief = Brief(focus="active merchants", evidence=(note,), subject="Halvorix")
    texts = [c.text for c in ExtractiveWriter().write(brief).claims]
    assert texts == ["By our count the company had 3,850 active merchants in June 2026."]


def test_an_analysts_rating_kept_on_the_company_is_about_it() -> None:
    note = evidence(
        "q#0",
        "Halvorix: strong checkout. We keep our Challenger rating on the company in our 2026 PSP assessment.",
        title="Halvorix: strong checkout",
    )
    brief = Brief(focus="analyst rating", evidence=(note,), subject="Halvorix")
    texts = [c.text for c in ExtractiveWriter().write(brief).claims]
    assert texts == ["We keep our Challenger rating on the company in our 2026 PSP assessment."]


def test_an_analysts_estimate_of_its_figure_is_about_the_company_named_before() -> None:
    note = evidence(
        "h#0",
        "Praxelune équipe 4 200 cabinets. Nous estimons son revenu récurrent annuel à 11 millions d'euros fin 2026.",
        title="Hérissart Études - Note d'analyse",
    )
    brief = Brief(focus="revenu récurrent annuel", evidence=(note,), subject="Praxelune SAS", language="fr")
    texts = [c.text for c in ExtractiveWriter().write(brief).claims]
    assert "Nous estimons son revenu récurrent annuel à 11 millions d'euros fin 2026." in texts


def test_an_analysts_band_is_no_other_companys_name() -> None:
    note = evidence(
        "v#0",
        "We rate it a Strong Performer in our 2026 UK payroll assessment, one band below the Leader position.",
        title="Vendor Snapshot: Halvorix",
    )
    brief = Brief(focus="analyst rating assessment", evidence=(note,), subject="Halvorix")
    texts = [c.text for c in ExtractiveWriter().write(brief).claims]
    assert texts == [note.text]


def test_a_quotations_attribution_gives_the_speakers_role_as_a_claim_of_a_report() -> None:
    release = (
        '"We will double the team," said Imogen Catterall, co-founder and Chief Executive of Thistlewick. '
        "« Nous grandissons », explique Maëlys Tournebise, présidente de Praxelune."
    )
    assert roles(release) == [
        ("Imogen Catterall, co-founder and Chief Executive of Thistlewick.", "Thistlewick"),
        ("Maëlys Tournebise, présidente de Praxelune.", "Praxelune"),
    ]
    assert roles('"Fine," said the CEO of Halvorix, smiling.') == []  # no name, no role of a company
    found = candidates([evidence("r#0", release)], rows=True)
    assert "Imogen Catterall, co-founder and Chief Executive of Thistlewick." in [c.text for c in found]
    assert all(c.text != "Maëlys Tournebise, présidente de Praxelune." for c in candidates([evidence("r#0", release)]))


def test_an_attribution_in_the_buyers_release_gives_no_role_at_the_buyer() -> None:
    """The buyer's own release quotes the acquired company's chief: his role is a fact about the acquired company,
    not about the buyer whose voice the release is."""
    release = evidence(
        "t#0",
        "Tavelnor agreed to acquire Marrowpine AI. "
        '"Joining Tavelnor lets us scale," said Rhys Calloway, co-founder and CEO of Marrowpine AI. '
        '"We welcome the team," said Ada Brenn, Chief Executive of Tavelnor.',
        title="Tavelnor to acquire Marrowpine AI",
        source="tavelnor-press-marrowpine.html",
    )
    brief = Brief(focus="leadership (CEO, founder, chief executive)", evidence=(release,), subject="Tavelnor")
    texts = [c.text for c in ExtractiveWriter().write(brief).claims]
    assert "Ada Brenn, Chief Executive of Tavelnor." in texts
    assert not any("Rhys Calloway" in text for text in texts)
