from __future__ import annotations

import json

import lxml.html
from django.core.files.uploadedfile import SimpleUploadedFile

from research.corpora import ingestion, services
from research.models import Corpus, Membership, Run, RunStatus, Stage, UploadFile

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
    for url in (corpus_url, document_url, row_url, f"{corpus_url}?delete"):
        assert login(eve).get(url).status_code == 404
    for url in (f"{corpus_url}live/", f"/w/{workspace.slug}/corpora/live/"):  # the live parts the pages re-read
        assert login(eve).get(url, **HTMX).status_code == 404
        assert login(ada).get(url, **HTMX).status_code == 200
    assert login(eve).post(corpus_url, {"name": "Mine", "description": ""}).status_code == 404
    assert login(eve).post(corpus_url, {"action": "delete"}).status_code == 404
    assert login(eve).post(f"{document_url}delete/").status_code == 404
    assert UploadFile.objects.get().stage == Stage.INDEXED
    assert corpus.documents.count() == 1


def _ingested(owner: Membership, name: str, files: dict[str, bytes]) -> Corpus:
    corpus = services.corpus_create(actor=owner, name=name)
    upload = services.upload_create(
        actor=owner, corpus=corpus, files=[services.IncomingFile(n, [d]) for n, d in files.items()], enqueue=False
    )
    for item in upload.files.all():
        ingestion.upload_file_ingest_safely(upload_file_id=item.pk)
    return corpus


def test_creating_a_corpus_with_htmx_navigates_to_its_page(make_user, make_workspace, login) -> None:  # type: ignore[no-untyped-def]
    ada = make_user()
    workspace = make_workspace(ada)
    response = login(ada).post(f"/w/{workspace.slug}/corpora/", {"name": "Competitors"}, **HTMX)
    corpus = Corpus.objects.get(workspace=workspace)
    assert response.status_code == 200  # django-htmx's HttpResponseClientRedirect
    assert response["HX-Redirect"] == f"/w/{workspace.slug}/c/{corpus.slug}/"
    assert response.content == b""


def test_a_duplicate_corpus_name_is_refused_with_the_card_and_its_error(make_user, make_workspace, login) -> None:  # type: ignore[no-untyped-def]
    ada = make_user()
    workspace = make_workspace(ada)
    client = login(ada)
    client.post(f"/w/{workspace.slug}/corpora/", {"name": "Demo corpus"}, **HTMX)
    response = client.post(f"/w/{workspace.slug}/corpora/", {"name": "DEMO corpus"}, **HTMX)
    body = response.content.decode()
    assert response.status_code == 422
    assert body.lstrip().startswith('<section id="corpora"')
    assert "This workspace already has a corpus named “DEMO corpus”; choose another name." in body
    assert "<header" not in body
    assert Corpus.objects.filter(workspace=workspace).count() == 1


def test_without_javascript_a_refused_corpus_name_goes_back_to_the_workspace_page_with_the_error(  # type: ignore[no-untyped-def]
    make_user, make_workspace, login
) -> None:
    ada = make_user()
    workspace = make_workspace(ada)
    client = login(ada)
    client.post(f"/w/{workspace.slug}/corpora/", {"name": "Demo corpus"})
    response = client.post(f"/w/{workspace.slug}/corpora/", {"name": "DEMO corpus"}, follow=True)
    body = response.content.decode()
    assert response.redirect_chain == [(f"/w/{workspace.slug}/", 302)]
    assert "This workspace already has a corpus named “DEMO corpus”; choose another name." in body
    assert 'id="members"' in body  # the whole page, not a card alone
    assert 'id="corpus-list"' in body
    assert Corpus.objects.filter(workspace=workspace).count() == 1


def test_one_empty_file_fails_alone_and_the_others_are_queued(  # type: ignore[no-untyped-def]
    make_user, make_workspace, login, django_capture_on_commit_callbacks
) -> None:
    ada = make_user()
    workspace = make_workspace(ada)
    corpus = services.corpus_create(actor=Membership.objects.get(user=ada), name="Docs")
    files = [SimpleUploadedFile("empty.txt", b""), SimpleUploadedFile("a.txt", b"Alpha text.")]
    with django_capture_on_commit_callbacks(execute=False):
        response = login(ada).post(f"/w/{workspace.slug}/c/{corpus.slug}/uploads/", {"upload": files}, **HTMX)
    body = response.content.decode()
    assert response.status_code == 200
    assert "The submitted file is empty" not in body
    assert "the file is empty" in body
    assert sorted(UploadFile.objects.values_list("name", "stage", "error")) == [
        ("a.txt", "queued", ""),
        ("empty.txt", "failed", "the file is empty"),
    ]


def test_the_live_parts_come_as_out_of_band_fragments_and_poll_while_busy(make_user, make_workspace, login) -> None:  # type: ignore[no-untyped-def]
    ada = make_user()
    workspace = make_workspace(ada)
    owner = Membership.objects.get(user=ada)
    corpus = _ingested(owner, "Docs", {"a.txt": b"Alpha text.", "b.txt": b"Beta text."})
    live_url = f"/w/{workspace.slug}/c/{corpus.slug}/live/"
    body = login(ada).get(live_url, **HTMX).content.decode()
    assert '<p id="corpus-summary" class="muted" hx-swap-oob="true">2 documents' in body
    assert '<div id="upload-list" hx-swap-oob="true">' in body
    assert '<section id="documents" class="card" aria-labelledby="documents-heading" hx-swap-oob="true">' in body
    assert 'hx-trigger="load delay:2s"' not in body  # every file is done: no polling
    services.upload_create(actor=owner, corpus=corpus, files=[services.IncomingFile("c.txt", [b"C."])], enqueue=False)
    assert 'hx-trigger="load delay:2s"' in login(ada).get(live_url, **HTMX).content.decode()
    page = login(ada).get(f"/w/{workspace.slug}/c/{corpus.slug}/").content.decode()
    assert 'id="notices"' in page  # the workspace socket's lines always have their target here
    assert 'hx-trigger="htmx:wsAfterMessage from:body delay:300ms"' in page
    assert login(ada).get(live_url).status_code == 302  # without htmx: the page itself
    assert f'hx-get="{live_url}"' in page
    corpora = login(ada).get(f"/w/{workspace.slug}/corpora/live/", **HTMX).content.decode()
    assert corpora.lstrip().startswith('<div id="corpus-list" hx-swap-oob="true">')
    assert "2 documents" in corpora
    assert f'hx-get="/w/{workspace.slug}/corpora/live/"' in login(ada).get(f"/w/{workspace.slug}/").content.decode()
    for form_url in (f"/w/{workspace.slug}/corpora/", f"/w/{workspace.slug}/c/{corpus.slug}/uploads/"):
        # the forms' addresses only take posts: a reload after an error goes back to the page
        assert login(ada).get(form_url, **HTMX).status_code == 302


def test_a_large_file_shows_its_embedding_estimate_while_it_embeds(make_user, make_workspace, login) -> None:  # type: ignore[no-untyped-def]
    ada, workspace, corpus, item = _one_file(make_user, make_workspace, "big.txt", b"x")
    UploadFile.objects.filter(pk=item.pk).update(stage=Stage.CHUNKED, chunks_added=250)
    row = login(ada).get(f"/w/{workspace.slug}/c/{corpus.slug}/files/{item.pk}/").content.decode()
    assert '<span class="muted estimate">about 250 chunks to embed, ~2 min</span>' in row
    UploadFile.objects.filter(pk=item.pk).update(chunks_added=12)
    assert (
        '<span class="muted estimate">12 chunks to embed</span>'
        in login(ada).get(f"/w/{workspace.slug}/c/{corpus.slug}/").content.decode()
    )


def test_an_editor_renames_a_corpus_and_a_taken_name_is_refused(make_user, make_workspace, login) -> None:  # type: ignore[no-untyped-def]
    ada, vic = make_user(), make_user()
    workspace = make_workspace(ada, members={vic: "viewer"})
    owner = Membership.objects.get(user=ada)
    corpus = services.corpus_create(actor=owner, name="Market")
    services.corpus_create(actor=owner, name="Press")
    url = f"/w/{workspace.slug}/c/{corpus.slug}/"
    response = login(ada).post(url, {"name": "Market watch", "description": "Competitors"})
    assert response.status_code == 302
    assert response["Location"] == url
    assert Corpus.objects.get(pk=corpus.pk).name == "Market watch"
    refused = login(ada).post(url, {"name": "press", "description": ""})
    assert refused.status_code == 422
    assert "This workspace already has a corpus named “press”" in refused.content.decode()
    assert Corpus.objects.get(pk=corpus.pk).name == "Market watch"
    assert login(vic).post(url, {"name": "Mine", "description": ""}).status_code == 403
    assert "Rename or delete this corpus" not in login(vic).get(url).content.decode()


def test_deleting_a_corpus_asks_first_naming_its_documents_then_deletes_it(  # type: ignore[no-untyped-def]
    make_user, make_workspace, login, django_capture_on_commit_callbacks
) -> None:
    ada, vic, eve = make_user(), make_user(), make_user()
    workspace = make_workspace(ada, members={vic: "viewer"})
    corpus = _ingested(Membership.objects.get(user=ada), "Market", {"a.txt": b"Alpha.", "b.txt": b"Beta."})
    url = f"/w/{workspace.slug}/c/{corpus.slug}/"
    confirm = login(ada).get(f"{url}?delete").content.decode()
    assert "Delete “Market”?" in confirm
    assert "<strong>2 documents</strong> (2 chunks), from both search indexes" in confirm
    assert 'name="action" value="delete"' in confirm
    assert login(vic).get(f"{url}?delete").status_code == 403
    assert login(vic).post(url, {"action": "delete"}).status_code == 403
    assert login(eve).post(url, {"action": "delete"}).status_code == 404
    run = Run.objects.create(workspace=workspace, question="q", status=RunStatus.QUEUED)
    run.corpora.add(corpus)
    refused = login(ada).post(url, {"action": "delete"})
    assert refused.status_code == 409
    assert (
        f'In use now by <a href="/w/{workspace.slug}/runs/{run.pk}/">run {run.pk}</a> (queued)'
        in refused.content.decode()
    )
    assert Corpus.objects.filter(pk=corpus.pk).exists()
    run.delete()
    with django_capture_on_commit_callbacks(execute=True):
        deleted = login(ada).post(url, {"action": "delete"}, follow=True)
    assert deleted.redirect_chain == [(f"/w/{workspace.slug}/", 302)]
    assert "Deleted the corpus “Market” and its 2 document(s)." in deleted.content.decode()
    assert not Corpus.objects.filter(pk=corpus.pk).exists()
    assert login(ada).get(url).status_code == 404


HOSTILE_MARKDOWN = b"""# Quarterly *notes*

Read [the report](https://example.com/r) and **act**.

<script>document.title = "pwned"</script>
<img src=x onerror="alert(1)">

[click me](javascript:alert(1)) ![tracker](https://evil.example/pixel.png)
"""


def test_markdown_is_rendered_safely_and_only_the_corpus_page_offers_delete(make_user, make_workspace, login) -> None:  # type: ignore[no-untyped-def]
    ada, vic = make_user(), make_user()
    workspace = make_workspace(ada, members={vic: "viewer"})
    owner = Membership.objects.get(user=ada)
    corpus = _ingested(owner, "Notes", {"notes.md": HOSTILE_MARKDOWN, "plain.txt": b"<b>not bold</b>"})
    markdown_doc = corpus.documents.get(kind="markdown")
    page = login(ada).get(f"/w/{workspace.slug}/c/{corpus.slug}/d/{markdown_doc.doc_id}/").content.decode()
    assert "<h1>Quarterly <em>notes</em></h1>" in page
    assert '<a href="https://example.com/r" rel="nofollow noopener noreferrer">the report</a>' in page
    assert "<strong>act</strong>" in page
    assert "<script>document.title" not in page
    assert "&lt;script&gt;document.title" in page
    assert "<img" not in page
    assert "javascript:" not in page.replace("[click me](javascript:alert(1))", "")  # left as text, never a link
    assert 'href="javascript' not in page
    assert "Delete this document from the corpus" in page
    assert (
        "Delete this document"
        not in login(vic).get(f"/w/{workspace.slug}/c/{corpus.slug}/d/{markdown_doc.doc_id}/").content.decode()
    )
    plain = corpus.documents.get(kind="text")
    assert (
        "&lt;b&gt;not bold&lt;/b&gt;"
        in login(ada).get(f"/w/{workspace.slug}/c/{corpus.slug}/d/{plain.doc_id}/").content.decode()
    )
    run = Run.objects.create(workspace=workspace, question="q", status=RunStatus.FINISHED)
    run.corpora.add(corpus)
    from_run = login(ada).get(f"/w/{workspace.slug}/runs/{run.pk}/d/{markdown_doc.doc_id}/").content.decode()
    assert "<h1>Quarterly <em>notes</em></h1>" in from_run
    assert f"Run {run.pk}" in from_run
    assert "Delete this document" not in from_run  # the run's viewer is for reading


def test_a_run_link_to_a_deleted_corpus_says_the_document_is_gone(  # type: ignore[no-untyped-def]
    make_user, make_workspace, login, django_capture_on_commit_callbacks
) -> None:
    ada = make_user()
    workspace = make_workspace(ada)
    owner = Membership.objects.get(user=ada)
    corpus = _ingested(owner, "Market", {"a.txt": b"Alpha text."})
    doc_id = corpus.documents.get().doc_id
    run = Run.objects.create(workspace=workspace, question="q", status=RunStatus.FINISHED)
    run.corpora.add(corpus)
    with django_capture_on_commit_callbacks(execute=True):
        services.corpus_delete(actor=owner, corpus=corpus)
    response = login(ada).get(f"/w/{workspace.slug}/runs/{run.pk}/d/{doc_id}/")
    assert response.status_code == 404
    body = response.content.decode()
    assert "This document is gone" in body
    assert f"/w/{workspace.slug}/runs/{run.pk}/" in body
    assert login(ada).get(f"/w/{workspace.slug}/runs/{run.pk}/").status_code == 200


def test_the_corpus_page_says_which_files_are_searchable_by_words_before_their_vectors(  # type: ignore[no-untyped-def]
    make_user, make_workspace, login
) -> None:
    ada, workspace, corpus, item = _one_file(make_user, make_workspace, "a.txt", b"Alpha pricing text.")
    ingestion.upload_file_ingest_safely(upload_file_id=item.pk, refine=False)
    corpus_url = f"/w/{workspace.slug}/c/{corpus.slug}/"
    page = login(ada).get(corpus_url).content.decode()
    assert "1 file searchable by words, search by meaning follows as its vectors are computed" in page
    assert "Searchable by words" in page
    assert "search by meaning next: 1 chunk to embed" in page
    ingestion.upload_file_refine_safely(upload_file_id=item.pk)
    page = login(ada).get(corpus_url).content.decode()
    assert "searchable by words" not in page.lower()
    assert "Indexed" in page


def _one_file(make_user, make_workspace, name: str, data: bytes):  # type: ignore[no-untyped-def]
    """A user, their workspace and corpus "Docs", and one uploaded file not yet ingested."""
    ada = make_user()
    workspace = make_workspace(ada)
    owner = Membership.objects.get(user=ada)
    corpus = services.corpus_create(actor=owner, name="Docs")
    upload = services.upload_create(
        actor=owner, corpus=corpus, files=[services.IncomingFile(name, [data])], enqueue=False
    )
    return ada, workspace, corpus, upload.files.get()


def test_live_activity_shows_the_work_under_way_when_a_page_opens(make_user, make_workspace, login) -> None:  # type: ignore[no-untyped-def]
    ada, workspace, corpus, item = _one_file(make_user, make_workspace, "big.txt", b"x")
    UploadFile.objects.filter(pk=item.pk).update(stage=Stage.CHUNKED, chunks_added=250)
    pages = (f"/w/{workspace.slug}/", f"/w/{workspace.slug}/c/{corpus.slug}/")
    for url in pages:
        notices = lxml.html.fromstring(login(ada).get(url).content).get_element_by_id("notices")
        (line,) = notices.findall("li")
        assert " ".join(line.text_content().split()) == "Docs · big.txt Chunked about 250 chunks to embed, ~2 min"
    UploadFile.objects.filter(pk=item.pk).update(stage=Stage.INDEXED)
    for url in pages:  # nothing under way: the placeholder says so
        notices = lxml.html.fromstring(login(ada).get(url).content).get_element_by_id("notices")
        assert [li.get("class") for li in notices.findall("li")] == ["muted placeholder"]
        assert "Nothing under way" in notices.text_content()


def _file_row(page: bytes, item: UploadFile) -> str:
    return " ".join(lxml.html.fromstring(page).get_element_by_id(f"file-{item.pk}").text_content().split())


def test_a_jsonl_files_detected_fields_are_said_and_a_changed_mapping_re_ingests_it(  # type: ignore[no-untyped-def]
    make_user, make_workspace, login, django_capture_on_commit_callbacks
) -> None:
    ada, vic = make_user(), make_user()
    workspace = make_workspace(ada, members={vic: "viewer"})
    owner = Membership.objects.get(user=ada)
    line = {"titre": "Prix 2026", "texte": "Le prix passe à 59 EUR.", "note_interne": "Remise de 10 % accordée."}
    corpus = _ingested(owner, "Presse", {"presse.jsonl": json.dumps(line).encode()})
    item = UploadFile.objects.get()
    url = f"/w/{workspace.slug}/c/{corpus.slug}/"
    assert item.stage == Stage.INDEXED
    assert "text from 'texte', title from 'titre'" in _file_row(login(ada).get(url).content, item)

    mapping = {"csv_mode": "row", "json_title_field": "titre", "json_text_field": "note_interne"}
    assert login(vic).post(f"{url}parsing/", mapping).status_code == 403
    assert login(vic).post(f"{url}files/{item.pk}/reingest/").status_code == 403
    assert login(ada).post(f"{url}parsing/", mapping)["Location"] == url
    assert Corpus.objects.get(pk=corpus.pk).parse_options["json_text_field"] == "note_interne"
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = login(ada).post(f"{url}files/{item.pk}/reingest/")
    assert (response.status_code, response["Location"], len(callbacks)) == (302, url, 1)
    assert UploadFile.objects.get(pk=item.pk).stage == Stage.QUEUED
    ingestion.upload_file_ingest_safely(upload_file_id=item.pk)

    assert [d.chunks.get().text for d in corpus.documents.all()] == ["Remise de 10 % accordée."]
    assert "text from 'note_interne', title from 'titre'" in _file_row(login(ada).get(url).content, item)
