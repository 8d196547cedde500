"""Each parser family on real generated files: text, Markdown, HTML, PDF, DOCX and e-mail."""

from __future__ import annotations

import json

import pytest

from research.demo.files import DEMO_CORPUS_DIR as DEMO
from research.retrieval.parsing import ParseError, ParseOptions, parse_bytes
from tests.research.retrieval import samples


def test_it_keeps_plain_text_as_it_is_with_the_file_stem_as_title() -> None:
    outcome = parse_bytes("notes/meeting.txt", "Café minutes\r\n  indented line\n".encode())

    [document] = outcome.documents
    assert document.text == "Café minutes\r\n  indented line\n"
    assert (document.title, document.doc_key, document.kind, document.source_name) == (
        "meeting",
        "",
        "text",
        "notes/meeting.txt",
    )
    assert outcome.errors == []


def test_it_decodes_utf16_and_legacy_encodings() -> None:
    utf16 = parse_bytes("a.txt", "Grüße aus Köln".encode("utf-16"))
    french = (
        "Le café de la gare est fermé le dimanche. Les élèves préfèrent étudier à la bibliothèque, "
        "où il fait plus chaud. À midi, on mange une crêpe et on boit un thé glacé."
    )
    legacy = parse_bytes("b.txt", french.encode("cp1252"))

    assert utf16.documents[0].text == "Grüße aus Köln"
    assert legacy.documents[0].text == french


def test_it_titles_markdown_by_its_first_heading_not_one_inside_code() -> None:
    markdown = "```\n# not a heading\n```\n\nIntro *text*.\n\n## The **Real** Title\n\nBody.\n"

    [document] = parse_bytes("readme.md", markdown.encode()).documents

    assert document.title == "The Real Title"
    assert document.text == markdown
    assert document.kind == "markdown"


def test_it_titles_markdown_without_heading_by_file_stem() -> None:
    [document] = parse_bytes("plain.markdown", b"just a paragraph\n").documents

    assert document.title == "plain"


def test_it_extracts_the_main_text_of_html_and_drops_boilerplate() -> None:
    [document] = parse_bytes("fusion.html", samples.html_page()).documents

    assert "Reciprocal rank fusion combines several ranked lists" in document.text
    assert "Cormack, Clarke and Buettcher" in document.text
    for boilerplate in ("Pricing page link", "newsletter banner", "All rights reserved", "SECRET-TRACKER", "color"):
        assert boilerplate not in document.text
    assert document.title == "Reciprocal rank fusion"
    assert document.metadata == {"author": "Ada Lovelace", "publisher": "Example Corp"}  # its copyright line
    assert document.kind == "html"


def test_it_keeps_the_dates_of_time_elements() -> None:
    page = (DEMO / "html" / "halvorix-pricing-2026-03.html").read_bytes()  # where trafilatura dropped them
    [document] = parse_bytes("pricing.html", page).documents

    assert "Prices last updated January 6, 2026." in document.text
    assert document.metadata["date"] == "2026-01-06"  # no meta date: the one its first lines state


def test_a_pages_meta_date_comes_before_a_date_its_text_states() -> None:
    page = (
        b'<html><head><meta property="article:published_time" content="2026-03-02"></head><body><article>'
        b"<h1>Prices</h1><p>Prices effective 1 July 2026, in euros.</p>"
        + b"<p>Plan text goes here.</p>" * 20
        + b"</article></body></html>"
    )
    [document] = parse_bytes("prices.html", page).documents
    assert document.metadata["date"] == "2026-03-02"
    undated = page.replace(b'<meta property="article:published_time" content="2026-03-02">', b"")
    [document] = parse_bytes("prices.html", undated).documents
    assert document.metadata["date"] == "2026-07-01"


def test_a_block_number_in_an_address_is_no_date() -> None:
    # htmldate reads "2-4-11" (a Japanese address's block number) as 2 April 2011: a year the page never writes
    page = (
        b"<html><head><title>Tomarigi</title></head><body><main>"
        + b"<p>All your parking lots on one screen, from the gate to the monthly contract.</p>" * 10
        + b"</main><footer><p>Tomarigi Systems Co., Ltd. \xc2\xb7 Head Office: 2-4-11 Ichibancho, Aoba-ku, Sendai</p>"
        b"<p>\xc2\xa9 2026 Tomarigi Systems Co., Ltd.</p></footer></body></html>"
    )
    [document] = parse_bytes("tomarigi-home.html", page).documents
    assert "date" not in document.metadata
    dated = page.replace(b"</title>", b'</title><meta property="article:published_time" content="2026-03-02">')
    [document] = parse_bytes("tomarigi-home.html", dated).documents
    assert document.metadata["date"] == "2026-03-02"


def test_it_falls_back_to_plain_conversion_for_tiny_html() -> None:
    [document] = parse_bytes("tiny.htm", b"<p>short one</p><script>var x = 1;</script>").documents

    assert document.text.strip() == "short one"
    assert document.title == "tiny"


def test_it_joins_pdf_pages_and_reads_metadata() -> None:
    data = samples.pdf(
        ["First page about sparse retrieval.", "Second page about dense retrieval."], title="Report", author="Ada"
    )

    [document] = parse_bytes("report.pdf", data).documents

    assert document.text == "First page about sparse retrieval.\n\nSecond page about dense retrieval."
    assert document.title == "Report"
    assert document.metadata == {"author": "Ada", "date": "2024-03-05T10:30:00+00:00", "pages": "2"}
    assert document.kind == "pdf"


def test_it_reads_a_pdf_table_as_cell_lines_between_its_prose() -> None:
    rows = [("Metric", "Value"), ("Founded", "2016"), ("Revenue 2025", "PLN 96 m (approx. EUR 22.5 m)")]
    data = samples.pdf_with_table("Vendor note on Kwadrolog.", rows, "The company sells through partners.")

    [document] = parse_bytes("note.pdf", data).documents

    assert document.text == (
        "Vendor note on Kwadrolog.\nMetric | Value\nFounded | 2016\nRevenue 2025 | PLN 96 m (approx. EUR 22.5 m)\n"
        "The company sells through partners."
    )


def test_it_titles_an_untitled_pdf_by_file_stem() -> None:
    [document] = parse_bytes("scan-2024.pdf", samples.pdf(["Some text."])).documents

    assert document.title == "scan-2024"


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (samples.pdf(["Top secret."], user_password="letmein"), "encrypted PDF: a password is needed"),
        (
            samples.pdf(["Some text that will be cut."])[:700],
            "corrupt PDF: PdfStreamError: Stream has ended unexpectedly",
        ),
        (samples.pdf([""]), "no text found in the PDF: scanned pages need OCR, which is not supported"),
    ],
    ids=["encrypted", "truncated", "no-text"],
)
def test_it_refuses_unusable_pdfs_with_a_clear_reason(data: bytes, reason: str) -> None:
    with pytest.raises(ParseError) as caught:
        parse_bytes("bad.pdf", data)

    assert caught.value.reason == reason


def test_it_opens_a_pdf_encrypted_without_a_user_password() -> None:
    data = samples.pdf(["Readable by anyone."], user_password="")

    assert parse_bytes("open.pdf", data).documents[0].text == "Readable by anyone."


def test_it_reads_docx_paragraphs_and_tables_in_order_with_core_properties() -> None:
    [document] = parse_bytes("design.docx", samples.docx_file()).documents

    assert document.text == (
        "Retrieval design\n\n"
        "Hybrid search fuses BM25 and dense results.\n\n"
        "Stage | Tool | Notes\nsparse | bm25s | fast\ndense | chroma\n\n"
        "Reciprocal rank fusion comes last."
    )
    assert document.title == "Design Notes"
    assert document.metadata == {"author": "Grace Hopper", "date": "2024-03-05T10:30:00+00:00"}
    assert document.kind == "docx"


def test_it_titles_a_docx_without_title_property_by_its_heading() -> None:
    [document] = parse_bytes("untitled.docx", samples.docx_file(title="")).documents

    assert document.title == "Retrieval design"


def test_it_refuses_a_docx_with_a_broken_part() -> None:
    with pytest.raises(ParseError) as caught:
        parse_bytes("broken.docx", samples.docx_with_broken_xml())

    assert caught.value.reason.startswith("corrupt DOCX file: XMLSyntaxError: ")


def test_it_reads_an_eml_with_headers_as_metadata_and_attachment_names() -> None:
    [document] = parse_bytes("mail.eml", samples.eml_with_attachment()).documents

    assert document.title == "Quarterly numbers"
    assert document.text == "Plain body: revenue grew 12 percent."
    assert document.metadata == {
        "from": "Ann Example <ann@example.org>",
        "to": "bob@example.org, Cid <cid@example.org>",
        "cc": "dee@example.org",
        "subject": "Quarterly numbers",
        "message_id": "<q1@example.org>",
        "attachments": "report.pdf, numbers.csv",
        "date": "2024-03-05T10:30:00+00:00",
    }
    assert "%PDF" not in document.text


def test_it_converts_an_html_only_email_body_to_text() -> None:
    [document] = parse_bytes("news.eml", samples.eml_html_only()).documents

    assert document.text == "Only an HTML body here."
    assert "attachments" not in document.metadata


def test_it_refuses_an_eml_without_headers() -> None:
    with pytest.raises(ParseError, match=r"file says \.eml but it has no e-mail headers"):
        parse_bytes("x.eml", b"\n\njust some words\n")


def test_it_makes_one_document_per_mbox_message_keyed_by_message_id() -> None:
    outcome = parse_bytes("archive.mbox", samples.three_message_mbox())

    assert [(d.title, d.doc_key) for d in outcome.documents] == [
        ("First", "one@example.org"),
        ("Second", "msg-2"),  # the same Message-ID again: keys stay unique
        ("Third", "msg-3"),
    ]
    assert outcome.documents[2].text == "The third message has no id."
    assert {d.kind for d in outcome.documents} == {"email"}


def test_it_refuses_an_mbox_without_messages() -> None:
    with pytest.raises(ParseError, match="no messages found in the mbox file"):
        parse_bytes("empty.mbox", b"no from line here\n")


@pytest.mark.parametrize(
    "name",
    ["a.txt", "a.md", "a.html", "a.eml", "a.csv", "a.json"],
)
def test_it_refuses_text_over_the_output_limit(name: str) -> None:
    data = {
        "a.json": b'{"text": "' + b"x" * 200 + b'"}',
        "a.eml": b"Subject: s\n\n" + b"x" * 200,
        "a.html": b"<html><body><p>" + b"x " * 100 + b"</p></body></html>",
        "a.csv": b"col\n" + b"x" * 200 + b"\n",
    }.get(name, b"x" * 200 + b"\n")

    with pytest.raises(ParseError, match="longer than the limit of 100 characters"):
        parse_bytes(name, data, ParseOptions(max_output_chars=100))


def test_it_counts_the_output_limit_over_all_documents_of_a_file() -> None:
    data = b"col\n" + b"".join(b"row %d with some words\n" % n for n in range(20))

    assert len(parse_bytes("t.csv", data, ParseOptions(max_output_chars=1000)).documents) == 20
    with pytest.raises(ParseError, match="longer than the limit"):
        parse_bytes("t.csv", data, ParseOptions(max_output_chars=300))


def test_markdown_front_matter_is_metadata_not_text() -> None:
    data = b"---\ndate: 2026-10-02\ntitle: Battlecard: Tjalkwerf\ntags: [psp, nl]\n---\n# Heading\n\nIt charges 1.4%.\n"
    [document] = parse_bytes("battlecard.md", data).documents
    assert document.metadata == {"date": "2026-10-02"}
    assert document.title == "Battlecard: Tjalkwerf"
    assert "date:" not in document.text
    assert document.text.startswith("# Heading")
    [broken] = parse_bytes("notes.md", b"---\n- a list\n---\nBody text.\n").documents
    assert broken.metadata == {}
    assert "Body text." in broken.text


@pytest.mark.parametrize(
    ("data", "date"),
    [
        (
            b"THE NIGHT AUDIT\nTravel news\nIssue #212 | Tuesday, 14 April 2026 | nightaudit.example\n\nBody.",
            "2026-04-14",
        ),
        (b"Lyon, le 3 mars 2026\n\nObjet : tarifs\n", "2026-03-03"),
        (b"Call notes\nDate: March 3rd, 2026\n", "2026-03-03"),
        (b"Notes, 2026-10-08\n", "2026-10-08"),
        # a date in the body, or on a long line, dates what it tells, not the document
        (b"Notes\nline\nline\nline\nline\nline\nOn 3 March 2026 they raised.\n", None),
        (b"x" * 130 + b" 3 March 2026\n", None),
        (b"Due 31 February 2026\n", None),  # no such day
    ],
)
def test_a_text_file_is_dated_by_its_header(data: bytes, date: str | None) -> None:
    [document] = parse_bytes("notes.txt", data).documents
    assert document.metadata.get("date") == date
    [markdown] = parse_bytes("notes.md", data).documents
    assert markdown.metadata.get("date") == date


def test_a_feed_items_own_date_field_dates_its_document() -> None:
    feed = (
        b'[{"date": "2021-05-18T09:00:00Z", "title": "Series A", "text": "Tentavik raised SEK 45 million."},'
        b' {"published_at": "18 May 2024", "title": "B", "text": "More."},'
        b' {"date": "soon", "title": "C", "text": "Undated."}]'
    )
    documents = parse_bytes("media-monitor.json", feed).documents
    assert [document.metadata.get("date") for document in documents] == ["2021-05-18", "2024-05-18", None]
    # a date field the member maps as metadata keeps its own text
    mapped = parse_bytes("m.json", feed, ParseOptions(json_metadata_fields=("date",))).documents
    assert mapped[0].metadata["date"] == "2021-05-18T09:00:00Z"


def test_a_footers_head_office_line_is_kept_and_the_rest_of_the_footer_is_not() -> None:
    page = (
        b"<html><body><main><h1>Welcome</h1><p>Pyrhelis supervises solar farms in France, Spain and Italy with one "
        b"platform for operators and installers.</p><p>More about the product and the team, and everything else that "
        b"matters to an operator.</p></main><footer><p>Si\xc3\xa8ge social : <strong>12 rue de la Gare</strong>, "
        b"34000 Montpellier</p><p>Cookies | Legal notice</p></footer></body></html>"
    )
    text = parse_bytes("pyrhelis-accueil.html", page).documents[0].text
    assert text.endswith("Siège social : 12 rue de la Gare, 34000 Montpellier")
    assert "Cookies" not in text


def test_a_feeds_items_wrapped_in_an_object_are_its_documents() -> None:
    feed = b'{"query": "Zirbel*", "items": [{"title": "A", "text": "Alpha."}, {"title": "B", "text": "Beta."}]}'
    outcome = parse_bytes("monitor.json", feed)
    assert [document.text for document in outcome.documents] == ["Alpha.", "Beta."]
    assert not outcome.errors
    assert parse_bytes("one.json", b'{"title": "A", "text": "Alpha.", "tags": [{"x": 1}]}').documents[0].text == (
        "Alpha."
    )


def test_a_company_page_is_read_from_its_main_element_every_section_in_order() -> None:
    page = b"""<html><body><div class="cookie-banner"><p>We use cookies to keep you signed in.</p></div>
    <nav><a href="/">Home</a></nav><main>
    <section class="hero"><h1>Less admin. More animals.</h1>
      <p>Kaikaro is practice software for vet clinics.</p></section>
    <section><h2>Four tools, one login</h2>
      <article><h3>Kaikaro Clinic</h3><p>The appointment book, clinical notes and invoicing.</p></article>
      <article><h3>Kaikaro Shelf</h3><p>Stock and pharmacy, with a reorder before you run dry.</p></article></section>
    <section><h2>Who runs the place</h2><ul><li>Aditya Deshpande, Co-founder, MD &amp; CEO.</li>
      <li>Meera Kulkarni, Chief Financial Officer, with us since February 2026.</li></ul></section>
    <table><tr><th>Plan</th><th>Price</th></tr><tr><td>Clinic</td><td>NZ$89 per vet per month</td></tr></table>
    <aside class="share-buttons"><a href="/x">Share on X</a></aside>
    <ul class="more"><li><a href="/a">Rival A raises $30m</a></li><li><a href="/b">Layoffs tracker</a></li>
      <li><a href="/c">Ten startups to watch</a></li></ul>
    </main><footer><p>Kaikaro Software Limited \xc2\xb7 Registered office: 112 Tuam Street, Christchurch</p>
    <p>Privacy | Terms</p></footer></body></html>"""
    text = parse_bytes("kaikaro-home.html", page).documents[0].text
    assert text.splitlines() == [
        "Less admin. More animals.",
        "Kaikaro is practice software for vet clinics.",
        "Four tools, one login",
        "Kaikaro Clinic",
        "The appointment book, clinical notes and invoicing.",
        "Kaikaro Shelf",
        "Stock and pharmacy, with a reorder before you run dry.",
        "Who runs the place",
        "- Aditya Deshpande, Co-founder, MD & CEO.",
        "- Meera Kulkarni, Chief Financial Officer, with us since February 2026.",
        "| Plan | Price |",
        "|---|---|",
        "| Clinic | NZ$89 per vet per month |",
        "Registered office: 112 Tuam Street, Christchurch",
    ]  # no cookie banner, menu, share buttons, list of links or the rest of the footer


def test_json_items_are_read_by_the_names_exports_give_their_fields() -> None:
    alerts = (
        b'[{"headline": "Samvida raises Rs 120 crore", "snippet": "Pune-based Samvida raised.", "date": "12/08/2026"}]'
    )
    [alert] = parse_bytes("alerts.json", alerts).documents
    assert (alert.title, alert.text) == ("Samvida raises Rs 120 crore", "Pune-based Samvida raised.")
    card = b'{"name": "Samvida", "employees": 240, "funding": {"total": "$21m"}, "investors": ["A", "B"], "ok": true}'
    [record] = parse_bytes("startrack.jsonl", card).documents
    assert (record.title, record.text) == (
        "Samvida",
        "name: Samvida\nemployees: 240\nfunding.total: $21m\ninvestors: A, B",
    )
    job = '{"offres": [{"titre": "Développeur .NET", "employeur": "Safranelle Santé SARL", "date_publication": '
    job += '"2026-11-18", "description": "Nous recrutons à Casablanca."}]}'
    [ad] = parse_bytes("tawdif.json", job.encode()).documents
    assert (ad.title, ad.text, ad.metadata) == (
        "Développeur .NET",
        "Nous recrutons à Casablanca.",
        {"date": "2026-11-18", "publisher": "Safranelle Santé SARL"},
    )
    review = b'{"company": "Ukhozi", "title": "Solid", "text": "We use it daily.", "posted_at": "2026-10-02T09:00:00Z"}'
    [row] = parse_bytes("reviews.jsonl", review).documents
    assert row.metadata == {"date": "2026-10-02"}  # a review's company is whom it is about, not its writer
    chat = {"messages": [{"from": "Daniel Koh", "text": ["Met ", {"type": "bold", "text": "Merlintide"}, " today."]}]}
    [message] = parse_bytes("telegram.json", json.dumps(chat).encode()).documents
    assert (message.text, message.metadata["publisher"]) == ("Met Merlintide today.", "Daniel Koh")
    custom = ParseOptions(json_text_field="body")  # a member's own mapping is kept as it is
    with pytest.raises(ParseError, match="item 1: no 'body' field"):
        parse_bytes("c.json", b'[{"snippet": "x"}]', custom)


def test_an_mbox_bodys_quoted_from_lines_are_unquoted() -> None:
    box = (
        b"From a@kaikaro.example Mon Nov  2 09:00:00 2026\nFrom: a@kaikaro.example\nSubject: Update\n\n"
        b"Hi team,\n>From today every clinic gets Nudgebird.\n>>From the archive: nothing.\n"
    )
    [message] = parse_bytes("inbox.mbox", box).documents
    assert message.text.splitlines()[1:] == ["From today every clinic gets Nudgebird.", ">From the archive: nothing."]


def test_a_footers_head_office_part_is_kept_after_the_company_or_a_sentence() -> None:
    footer = (
        "<html><body><main><h1>Careers</h1><p>Work with us on the software vets run their day on.</p></main><footer>"
        "<address>Samvida Technologies Pvt. Ltd., registered office: Baner Road, Pune 411045, India.</address>"
        "<p>Registered in New Zealand (company number 6654321). Head office: 112 Tuam Street, Christchurch.</p>"
        "<p>Australia: Kaikaro Pty Ltd, 40 Ann Street, Brisbane</p>"
        "<p>Votre contrat est conclu avec Lucarne inc., dont le siège social est situé à Sherbrooke (Québec).</p>"
        "<p>Our head office is in Graz. Headquarters: Graz</p></footer></body></html>"
    )
    text = parse_bytes("careers.html", footer.encode()).documents[0].text
    assert text.splitlines()[-4:] == [
        "registered office: Baner Road, Pune 411045, India.",
        "Head office: 112 Tuam Street, Christchurch.",
        "Votre contrat est conclu avec Lucarne inc., dont le siège social est situé à Sherbrooke (Québec).",
        "Our head office is in Graz. Headquarters: Graz",
    ]  # the last line once, though both patterns find it


def test_a_forwarded_message_is_a_document_of_its_own_with_its_sender_and_date() -> None:
    mail = (
        b"From: Karan <karan@veldmark.example>\nSubject: Fwd: Investor update\nDate: Mon, 16 Nov 2026 19:42:10 +0530\n"
        b"Content-Type: text/plain; charset=utf-8\n\n"
        b"Divya, keep it inside the team. Our 18% should hold.\n\n---------- Forwarded message ---------\n"
        b"From: Aditya Deshpande <aditya@samvida.example>\nDate: Fri, 13 Nov 2026 at 8:05 PM\n"
        b"Subject: Samvida | Investor update\nTo: <investors@samvida.example>\n\n"
        b"We now have 22 reseller partners.\n\n-------- Message transf\xc3\xa9r\xc3\xa9 --------\n"
        b"De : Lucarne <info@lucarne.example>\nObjet : Nouvelles\n\nNous avons 1 200 clients.\n"
    )
    ours, theirs, french = parse_bytes("fwd.eml", mail).documents
    assert ours.text == "Divya, keep it inside the team. Our 18% should hold."
    assert (theirs.title, theirs.text, theirs.doc_key) == (
        "Samvida | Investor update",
        "We now have 22 reseller partners.",
        "fwd-1",
    )
    assert theirs.metadata == {
        "from": "Aditya Deshpande <aditya@samvida.example>",
        "to": "<investors@samvida.example>",
        "subject": "Samvida | Investor update",
        "date": "2026-11-13",
    }
    assert (french.title, french.text, french.metadata["from"]) == (
        "Nouvelles",
        "Nous avons 1 200 clients.",
        "Lucarne <info@lucarne.example>",
    )


def test_boilerplate_is_told_by_whole_words_of_its_class() -> None:
    page = (
        b'<html><body><main><div class="shareholders"><p>Our shareholders are Matai Ventures and the founders.</p>'
        b'</div><div class="share-bar"><p>Share this on LinkedIn</p></div></main></body></html>'
    )
    assert parse_bytes("about.html", page).documents[0].text == "Our shareholders are Matai Ventures and the founders."


def test_a_page_without_main_or_article_keeps_its_headings_and_list_items() -> None:
    page = """<html><head><title>Tarifs 2025 (archive)</title></head><body><header><a href="/">Vitrinéo</a>
    <p>Accueil · Tarifs · Contact</p></header><div class="wrap"><h1>Nos tarifs 2025</h1>
    <p>Nos formules pour les agences immobilières, valables depuis janvier 2025.</p>
    <h2>Essentiel : 79 € HT par mois</h2><p>Pour un négociateur seul, avec la diffusion des annonces.</p>
    <ul><li>Option signature électronique : 19 € HT par mois</li><li>Option CRM acquéreurs : 29 € HT par mois</li></ul>
    <p>Tous les prix sont hors taxes.</p></div><footer><p>© Vitrinéo SAS · Mentions légales</p></footer>
    </body></html>"""
    text = parse_bytes("vitrineo-tarifs-2025.html", page.encode()).documents[0].text
    assert text.splitlines() == [
        "Nos tarifs 2025",
        "Nos formules pour les agences immobilières, valables depuis janvier 2025.",
        "Essentiel : 79 € HT par mois",
        "Pour un négociateur seul, avec la diffusion des annonces.",
        "- Option signature électronique : 19 € HT par mois",
        "- Option CRM acquéreurs : 29 € HT par mois",
        "Tous les prix sont hors taxes.",
    ]
