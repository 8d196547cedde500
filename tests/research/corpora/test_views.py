from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile

from research.corpora import ingestion, services
from research.models import Corpus, Membership, Stage, UploadFile

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_an_editor_creates_a_corpus_and_a_viewer_cannot(make_user, make_workspace, login) -> None:  # type: ignore[no-untyped-def]
    ada, vic = make_user(), make_user()
    workspace = make_workspace(ada, members={vic: "viewer"})
    response = login(ada).post(f"/w/{workspace.slug}/corpora/", {"name": "Competitors"})
    corpus = Corpus.objects.get(workspace=workspace)
    assert response.status_code == 302
    assert response["Location"] == f"/w/{workspace.slug}/c/{corpus.slug}/"
    assert login(vic).post(f"/w/{workspace.slug}/corpora/", {"name": "Mine"}).status_code == 403
    assert "Create corpus" not in login(vic).get(f"/w/{workspace.slug}/").content.decode()


def test_uploading_stores_files_and_queues_them_after_commit(  # type: ignore[no-untyped-def]
    make_user, make_workspace, login, django_capture_on_commit_callbacks
) -> None:
    ada = make_user()
    workspace = make_workspace(ada)
    corpus = services.corpus_create(actor=Membership.objects.get(user=ada), name="Docs")
    files = [SimpleUploadedFile("a.txt", b"Alpha text."), SimpleUploadedFile("b.md", b"# Beta\n\nBeta text.")]
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = login(ada).post(f"/w/{workspace.slug}/c/{corpus.slug}/uploads/", {"upload": files}, **HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<section id="uploads"')
    assert "a.txt" in body
    assert "b.md" in body
    assert sorted(UploadFile.objects.values_list("name", "stage")) == [("a.txt", "queued"), ("b.md", "queued")]
    assert len(callbacks) == 1


def test_an_upload_without_files_is_refused_with_the_form(make_user, make_workspace, login) -> None:  # type: ignore[no-untyped-def]
    ada = make_user()
    workspace = make_workspace(ada)
    corpus = services.corpus_create(actor=Membership.objects.get(user=ada), name="Docs")
    response = login(ada).post(f"/w/{workspace.slug}/c/{corpus.slug}/uploads/", {}, **HTMX)
    assert response.status_code == 422
    assert "Choose at least one file." in response.content.decode()


def test_corpus_and_document_pages_are_for_members_only(make_user, make_workspace, login) -> None:  # type: ignore[no-untyped-def]
    ada, eve = make_user(), make_user()
    workspace = make_workspace(ada)
    owner = Membership.objects.get(user=ada)
    corpus = services.corpus_create(actor=owner, name="Docs")
    upload = services.upload_create(
        actor=owner, corpus=corpus, files=[services.IncomingFile("a.txt", [b"Secret alpha text."])], enqueue=False
    )
    ingestion.upload_file_ingest_safely(upload_file_id=upload.files.get().pk)
    document = corpus.documents.get()
    corpus_url = f"/w/{workspace.slug}/c/{corpus.slug}/"
    document_url = f"{corpus_url}d/{document.doc_id}/"
    page = login(ada).get(document_url).content.decode()
    assert "Secret alpha text." in page
    assert f"{document.doc_id}#0" in page
    assert "Indexed" in login(ada).get(corpus_url).content.decode()
    row_url = f"{corpus_url}files/{upload.files.get().pk}/"
    assert 'id="file-' in login(ada).get(row_url).content.decode()
    for url in (corpus_url, document_url, row_url):
        assert login(eve).get(url).status_code == 404
    assert login(eve).post(f"{document_url}delete/").status_code == 404
    assert UploadFile.objects.get().stage == Stage.INDEXED
    assert corpus.documents.count() == 1
