"""Which documents are our own notes: guessed at upload, shown on the corpus page, changed by an editor."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from research.corpora import services
from research.corpora.internal import internal_guess
from research.models import Corpus, Document, Membership
from research.retrieval.parsing import ParsedDocument
from tests.research.corpora.test_ingestion import ingest


@pytest.fixture
def owner(make_user: Callable[..., User], make_workspace: Callable[..., Any]) -> Membership:
    user = make_user()
    return Membership.objects.get(workspace=make_workspace(user), user=user)


@pytest.fixture
def corpus(owner: Membership) -> Corpus:
    return services.corpus_create(actor=owner, name="Market")


def parsed(name: str, text: str = "Some text.", title: str = "", **metadata: str) -> ParsedDocument:
    return ParsedDocument(title=title, text=text, source_name=name, doc_key="", metadata=metadata, kind="text")


@pytest.mark.parametrize(
    "document",
    [
        parsed("deal-notes-tarcowie-2026-09.docx"),
        parsed("Deal_Review_Grachtenfiets.pdf"),
        parsed("battlecard-quellbrae.md"),
        parsed("crm-accounts-export-2026-11-25.csv"),
        parsed("win-loss-corvane-bank.md"),
        parsed("notes-affaire-val-brule.txt"),
        parsed("compte-rendu-rdv.docx"),
        parsed("fiche-concurrent-missival.md"),
        parsed("q3.md", title="Competitor notes: Stimalba"),
        parsed("q3.docx", title="Call notes: Halvorix pilot"),
        parsed("q3.txt", text="INTERNAL USE ONLY\nPricing floor for the renewal."),
        parsed("q3.txt", text="Note de synthèse. Diffusion restreinte.\nBudget du client."),
        parsed("q3.md", classification="Confidential"),
        parsed("q3.md", internal="true"),
    ],
)
def test_our_own_notes_are_told_by_name_marking_or_front_matter(document: ParsedDocument) -> None:
    assert internal_guess(document)


@pytest.mark.parametrize(
    "document",
    [
        parsed("quellbrae-pricing-2026-10.html"),
        parsed("reviews-farmstack-export-2026-10.csv"),
        parsed("press-release-series-b.pdf", text="Halvorix raised EUR 30 million."),
        parsed("analyst-note-brindle-oakes.docx", title="Vendor snapshot"),
        parsed("news.txt", text="x" * 700 + " This figure is confidential, the company said."),  # far down, quoted
        parsed("q3.md", classification="public"),
    ],
)
def test_public_documents_are_not_marked(document: ParsedDocument) -> None:
    assert not internal_guess(document)


@pytest.mark.django_db
def test_an_upload_marks_our_notes_and_a_re_upload_keeps_an_editors_mark(owner: Membership, corpus: Corpus) -> None:
    ingest(owner, corpus, {"deal-notes-glenmorrow.txt": b"Budget GBP 80,000.", "press.txt": b"Halvorix grew."})
    assert dict(Document.objects.filter(corpus=corpus).values_list("source_name", "internal")) == {
        "deal-notes-glenmorrow.txt": True,
        "press.txt": False,
    }
    Document.objects.filter(source_name="deal-notes-glenmorrow.txt").update(internal=False)
    ingest(owner, corpus, {"deal-notes-glenmorrow.txt": b"Budget GBP 90,000 now."})  # changed: re-parsed
    assert not Document.objects.get(source_name="deal-notes-glenmorrow.txt").internal


@pytest.mark.django_db
def test_an_editor_marks_a_document_and_a_viewer_cannot(
    owner: Membership,
    corpus: Corpus,
    make_user: Callable[..., User],
    client: Any,
) -> None:
    ingest(owner, corpus, {"press.txt": b"Halvorix grew."})
    document = Document.objects.get(corpus=corpus)
    kwargs = {"slug": owner.workspace.slug, "corpus_slug": corpus.slug, "doc_id": document.doc_id}
    client.force_login(owner.user)
    page = client.get(reverse("document_detail", kwargs=kwargs)).content.decode()
    assert "Mark as internal" in page
    response = client.post(reverse("document_internal", kwargs=kwargs), {"internal": "1"})
    assert response.status_code == 302
    document.refresh_from_db()
    assert document.internal
    listing = client.get(reverse("corpus_detail", kwargs={"slug": owner.workspace.slug, "corpus_slug": corpus.slug}))
    assert 'class="badge internal"' in listing.content.decode()
    viewer = make_user("vic")
    Membership.objects.create(workspace=owner.workspace, user=viewer, role="viewer")
    client.force_login(viewer)
    assert client.post(reverse("document_internal", kwargs=kwargs), {"internal": "0"}).status_code == 403
    document.refresh_from_db()
    assert document.internal
