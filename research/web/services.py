"""Web pages into corpora: the workspace's corpus of fetched pages, and fetching one page into a corpus.

A fetched page is stored and ingested exactly as an uploaded file is (research/corpora/ingestion.py: parsed in the
sandbox, trafilatura for HTML, the PDF parser for PDFs, chunked, embedded, indexed), so citations, the viewer,
diffs and exports work unchanged. Its file name is made from its address (``news.example/2026/berlin.html``), so
the same address is the same document: fetching it again replaces its text only when the text changed. A page
fetched within ``WEB_CACHE_HOURS`` is used as it is; an older one is asked for again with its ETag and
Last-Modified, and "not modified" costs nothing more. The rules of what may be fetched live in the fetcher
(research/retrieval/web/): nothing here can widen them.
"""

from __future__ import annotations

import hashlib
import logging
import re
import threading
from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from research.corpora import ingestion, storage
from research.corpora import services as corpora
from research.models import Corpus, CorpusKind, Document, Membership, Stage, Upload, UploadFile, WebPage
from research.platform.composition import web_fetcher
from research.platform.queue import task_send
from research.retrieval.web import Refused, WebError
from research.retrieval.web.fetching import SITEMAPS, Page
from research.retrieval.web.sitemaps import sitemap_pages
from research.web.jobs import INGEST_URL

logger = logging.getLogger(__name__)

WEB_CORPUS_NAME = "Web pages"
EXTENSIONS = {"html": ".html", "txt": ".txt", "md": ".md", "pdf": ".pdf"}
_UNSAFE = re.compile(r"[^A-Za-z0-9._~/-]+")
_locks: dict[tuple[int, str], threading.Lock] = {}
_locks_guard = threading.Lock()


@dataclass(frozen=True)
class Fetched:
    """What fetching a page did: fetched (new text), unchanged (the site said so, or the same text), cached
    (fetched recently: not asked), refused (the rules forbid it) or failed (the site did not deliver)."""

    url: str
    outcome: str
    reason: str = ""
    document: Document | None = None


def web_corpus(*, actor: Membership) -> Corpus:
    """The workspace's corpus of fetched web pages, made on first use (one per workspace, whatever races)."""
    found = Corpus.objects.filter(workspace_id=actor.workspace_id, kind=CorpusKind.WEB).first()
    if found is not None:
        return found
    for number in range(1, 20):
        name = WEB_CORPUS_NAME if number == 1 else f"{WEB_CORPUS_NAME} ({number})"
        try:
            return corpora.corpus_create(
                actor=actor,
                name=name,
                kind=CorpusKind.WEB,
                description="Pages fetched by research runs with web sources; searched like any corpus.",
            )
        except IntegrityError:  # another run made it meanwhile
            found = Corpus.objects.filter(workspace_id=actor.workspace_id, kind=CorpusKind.WEB).first()
            if found is not None:
                return found
        except ValidationError:  # a corpus of the team's has that name
            continue
    raise ValidationError("No free name for the workspace's web corpus.")


def url_clean(url: str) -> str:
    """The address without its #fragment and surrounding space; refused when it is not http(s) at all."""
    parts = urlsplit(url.strip())
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        raise Refused(f"only http and https addresses are fetched: {url[:200]!r}")
    return urlunsplit((parts.scheme.lower(), parts.netloc, parts.path or "/", parts.query, ""))


def file_name(url: str, kind: str) -> str:
    """The page's file name, made from its address: readable, unique per address, with its type's extension."""
    parts = urlsplit(url)
    base = _UNSAFE.sub("_", f"{parts.hostname or 'page'}{parts.path}").rstrip("/") or "page"
    if base.count("/") == 0 or parts.path in ("", "/"):
        base = f"{base}/index"
    if parts.query:
        base += "-" + hashlib.sha256(parts.query.encode()).hexdigest()[:8]
    if len(base) > 200:
        base = base[:180] + "-" + hashlib.sha256(base.encode()).hexdigest()[:8]
    extension = EXTENSIONS[kind]
    return base if base.lower().endswith(extension) else base + extension


def _lock(corpus: Corpus, url: str) -> threading.Lock:
    """One fetch of an address into a corpus at a time in this process (rollouts often want the same page)."""
    with _locks_guard:
        return _locks.setdefault((corpus.pk, url), threading.Lock())


def page_fetch(*, corpus: Corpus, url: str, user: User | None = None, refresh: bool = False) -> Fetched:
    """Fetch ``url`` into ``corpus`` (ingested in this thread) unless a recent copy will do; never raises for
    what the site or the rules did: the outcome says it."""
    try:
        url = url_clean(url)
    except Refused as error:
        return Fetched(url[:2000], "refused", str(error))
    with _lock(corpus, url):
        page, _ = WebPage.objects.get_or_create(corpus=corpus, url=url)
        fresh = page.fetched_at and timezone.now() - page.fetched_at < timedelta(hours=settings.WEB_CACHE_HOURS)
        document = _document(page)
        if fresh and document is not None and not refresh:
            return Fetched(url, "cached", document=document)
        try:
            got = web_fetcher().fetch(
                url, etag=page.etag if document else "", last_modified=page.last_modified if document else ""
            )
        except Refused as error:
            return _record(page, "refused", str(error))
        except WebError as error:
            return _record(page, "failed", str(error), keep=document)
        if got.not_modified and document is not None:
            return _record(page, "unchanged", "", keep=document)
        return _ingest(page, got, user)


def _document(page: WebPage) -> Document | None:
    if page.document_id is None:
        return None
    return Document.objects.filter(pk=page.document_id).first()


def _record(page: WebPage, outcome: str, reason: str, *, keep: Document | None = None) -> Fetched:
    page.outcome, page.reason, page.fetched_at = outcome, reason[:2000], timezone.now()
    page.save(update_fields=["outcome", "reason", "fetched_at"])
    return Fetched(page.url, outcome, reason, keep)


def _ingest(page: WebPage, got: Page, user: User | None) -> Fetched:
    """Store the page's bytes as an upload of its corpus and ingest it here and now."""
    digest = hashlib.sha256(got.body).hexdigest()
    current = _document(page)
    if current is not None and digest == page.content_sha256:
        _validators(page, got, digest)
        return _record(page, "unchanged", "", keep=current)
    corpus = page.corpus
    name = file_name(got.url, got.content_type)
    with transaction.atomic():
        upload = Upload.objects.create(corpus=corpus, created_by=user)
        stored = storage.store(corpus_id=corpus.pk, name=name, chunks=[got.body])
        item = UploadFile.objects.create(
            upload=upload, name=name, size=stored.size, sha256=stored.sha256, stored_path=stored.relative_path
        )
    ingestion.upload_file_ingest_safely(upload_file_id=item.pk)
    item.refresh_from_db()
    if item.stage == Stage.FAILED:
        return _record(page, "failed", f"the page could not be read: {item.error}")
    document = Document.objects.filter(corpus=corpus, source_name=name).order_by("-updated_at").first()
    if document is None:
        return _record(page, "failed", "the page held no text")
    ingestion.corpus_refresh_sparse(corpus_id=corpus.pk)
    document.metadata = {
        **(document.metadata or {}),
        "url": got.url,
        "fetched_at": timezone.now().isoformat(timespec="seconds"),
        **({"last_modified": got.published} if got.published else {}),
    }
    document.save(update_fields=["metadata"])
    page.document, page.final_url = document, got.url[:2000]
    _validators(page, got, digest)
    return _record(page, "fetched", "", keep=document)


def _validators(page: WebPage, got: Page, digest: str) -> None:
    page.etag, page.last_modified, page.content_sha256 = got.etag[:300], got.last_modified[:100], digest
    page.save(update_fields=["etag", "last_modified", "content_sha256", "document", "final_url"])


def url_add(*, actor: Membership, corpus: Corpus, url: str, sitemap: bool = False, limit: int = 20) -> WebPage:
    """Queue the page at ``url`` (or, for a sitemap, up to ``limit`` of its pages) to be fetched into ``corpus``
    by a worker; the page's row says where it stands (queued, fetching, then what happened)."""
    if not actor.can_edit:
        raise PermissionDenied("Only owners and editors add pages to a corpus.")
    if corpus.workspace_id != actor.workspace_id:
        raise PermissionDenied("That corpus is not in your workspace.")
    try:
        url = url_clean(url)
    except Refused as error:
        raise ValidationError({"url": str(error)}) from None
    limit = max(1, min(limit, settings.WEB_SITEMAP_PAGES))
    with transaction.atomic():
        page, _ = WebPage.objects.get_or_create(corpus=corpus, url=url)
        page.outcome, page.reason = "queued", f"a sitemap: up to {limit} pages" if sitemap else ""
        page.save(update_fields=["outcome", "reason"])
        user_id = actor.user_id
        transaction.on_commit(lambda: task_send(INGEST_URL, page.pk, sitemap, limit, user_id))
    return page


def page_refetch(*, actor: Membership, page: WebPage) -> WebPage:
    """Ask the site again for a page of the corpus (a changed page is re-indexed; an unchanged one is left)."""
    if not actor.can_edit or page.corpus.workspace_id != actor.workspace_id:
        raise PermissionDenied("Only owners and editors re-fetch pages.")
    return url_add(actor=actor, corpus=page.corpus, url=page.url)


def url_ingest(*, page_id: int, sitemap: bool, limit: int, user_id: int | None) -> list[Fetched]:
    """The worker's side of ``url_add``: fetch the page now (asking the site even for a recent copy), or read
    the sitemap and fetch each of its first ``limit`` pages, each with a row of its own."""
    page = WebPage.objects.select_related("corpus").filter(pk=page_id).first()
    if page is None:
        return []
    user = User.objects.filter(pk=user_id).first() if user_id else None
    WebPage.objects.filter(pk=page.pk).update(outcome="fetching")
    if not sitemap:
        return [page_fetch(corpus=page.corpus, url=page.url, user=user, refresh=True)]
    try:
        urls = _sitemap(page.url, limit)
    except WebError as error:  # Refused is one
        outcome = "refused" if isinstance(error, Refused) else "failed"
        return [_record(page, outcome, str(error))]
    _record(page, "sitemap", f"{len(urls)} page{'s' if len(urls) != 1 else ''} listed")
    for url in urls:
        WebPage.objects.update_or_create(corpus=page.corpus, url=url_clean(url), defaults={"outcome": "queued"})
    return [page_fetch(corpus=page.corpus, url=url, user=user, refresh=True) for url in urls]


def _sitemap(url: str, limit: int) -> list[str]:
    fetcher = web_fetcher()
    got = fetcher.fetch(url, readable=SITEMAPS)
    return sitemap_pages(got.body, limit=limit, fetch=lambda child: fetcher.fetch(child, readable=SITEMAPS).body)
