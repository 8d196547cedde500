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
import time
from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from research.corpora import ingestion, storage
from research.corpora import services as corpora
from research.models import Corpus, CorpusKind, Document, Membership, Stage, Upload, UploadFile, WebPage
from research.platform.composition import web_fetcher
from research.platform.queue import task_send
from research.retrieval.web import Refused, WebError
from research.retrieval.web.fetching import SITEMAPS, Page
from research.retrieval.web.sitemaps import sitemap_pages
from research.web_sources.task_names import INGEST_URL

logger = logging.getLogger(__name__)

WEB_CORPUS_NAME = "Web pages"
EXTENSIONS = {"html": ".html", "txt": ".txt", "md": ".md", "pdf": ".pdf"}
_UNSAFE = re.compile(r"[^A-Za-z0-9._~/-]+")
_STRIPES = tuple(threading.Lock() for _ in range(64))  # in-process: a lock per address's hash, bounded
CLAIM_SECONDS = 300  # a fetch and its ingestion hold the page at most this long (a dead worker's claim expires)
WAIT_STEP = 0.25


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
    """Rollouts of this process wanting the same page wait for one download (a stripe of locks, bounded)."""
    return _STRIPES[hash((corpus.pk, url)) % len(_STRIPES)]


def _claim(page: WebPage) -> bool:
    """Hold the page for this fetch with one conditional UPDATE, across every worker process."""
    now = timezone.now()
    free = Q(claimed_until__isnull=True) | Q(claimed_until__lt=now)
    return WebPage.objects.filter(free, pk=page.pk).update(claimed_until=now + timedelta(seconds=CLAIM_SECONDS)) == 1


ALLOW_NOTE = "To allow it, a server administrator"  # how the row's note for administrators starts


def _refusal(stored: str) -> str:
    """A stored reason without the row's note for administrators (what a run's model is told)."""
    return stored.split(f" {ALLOW_NOTE}", 1)[0]


def _await_other(page: WebPage) -> Fetched:
    """Another worker is fetching the page: wait for it (bounded) and take what it got."""
    deadline = time.monotonic() + CLAIM_SECONDS
    while time.monotonic() < deadline:
        page.refresh_from_db()
        if page.claimed_until is None or page.claimed_until < timezone.now():
            document = _document(page)
            outcome = "cached" if document is not None else page.outcome or "failed"
            return Fetched(page.url, outcome, "" if document else _refusal(page.reason), document)
        time.sleep(WAIT_STEP)
    return Fetched(page.url, "failed", "another worker is still fetching this page")


def page_fetch(*, corpus: Corpus, url: str, user: User | None = None, refresh: bool = False) -> Fetched:
    """Fetch ``url`` into ``corpus`` (ingested in this thread) unless a recent copy will do; never raises for
    what the site or the rules did: the outcome says it. One download of an address at a time, whichever process
    asks (a worker that finds it being fetched waits for that fetch and takes its result)."""
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
        if not _claim(page):
            return _await_other(page)
        try:
            return _download(page, document, user)
        finally:
            WebPage.objects.filter(pk=page.pk).update(claimed_until=None)


def _download(page: WebPage, document: Document | None, user: User | None) -> Fetched:
    try:
        got = web_fetcher().fetch(
            page.url, etag=page.etag if document else "", last_modified=page.last_modified if document else ""
        )
    except Refused as error:
        return _record(page, "refused", str(error), note=allow_note(error))
    except WebError as error:
        return _record(page, "failed", str(error), keep=document)
    if got.not_modified and document is not None:
        return _record(page, "unchanged", "", keep=document)
    try:
        return _ingest(page, got, user)
    except Exception as error:  # an embedding server down, a full disk: this page fails, the run goes on
        logger.exception("page %s could not be indexed", page.url)
        return _record(page, "failed", f"the page could not be indexed: {type(error).__name__}: {error}", keep=document)


def _document(page: WebPage) -> Document | None:
    if page.document_id is None:
        return None
    return Document.objects.filter(pk=page.document_id).first()


def allow_note(error: Refused) -> str:
    """For a page the address rules refused (a private address, another port): the setting that allows it and how
    to change it, for the page's row (the run's model is told the refusal alone)."""
    if not error.allowable:
        return ""
    return (
        f"{ALLOW_NOTE} adds {error.allowable} to WEB_FETCH_ALLOWED_HOSTS (a comma-separated "
        "list in the server's environment or .env), restarts the web server and the worker, and adds the page again."
    )


def _record(page: WebPage, outcome: str, reason: str, *, keep: Document | None = None, note: str = "") -> Fetched:
    """Store what became of the page (``note``: said on its row only) and return it."""
    stored = f"{reason.rstrip('.')}. {note}" if note else reason
    page.outcome, page.reason, page.fetched_at = outcome, stored[:2000], timezone.now()
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
    the sitemap and fetch each of its first ``limit`` pages, each with a row of its own. Whatever fails is
    recorded on its row with the reason; no row is left "fetching"."""
    page = WebPage.objects.select_related("corpus").filter(pk=page_id).first()
    if page is None:
        return []
    user = User.objects.filter(pk=user_id).first() if user_id else None
    WebPage.objects.filter(pk=page.pk).update(outcome="fetching")
    try:
        if not sitemap:
            return [page_fetch(corpus=page.corpus, url=page.url, user=user, refresh=True)]
        return _sitemap_ingest(page, limit, user)
    except Exception as error:  # a bug or a broken service: said on the page's row, not left spinning
        logger.exception("adding %s failed", page.url)
        return [_record(page, "failed", f"{type(error).__name__}: {error}")]


def _sitemap_ingest(page: WebPage, limit: int, user: User | None) -> list[Fetched]:
    try:
        listed = _sitemap(page.url, limit)
    except Refused as error:
        return [_record(page, "refused", str(error), note=allow_note(error))]
    except WebError as error:
        return [_record(page, "failed", str(error))]
    urls: list[str] = []
    for listed_url in listed:
        try:
            if len(listed_url) <= 2000:
                urls.append(url_clean(listed_url))
        except (Refused, ValueError):
            continue
    skipped = len(listed) - len(urls)
    note = f"{len(urls)} page{'s' if len(urls) != 1 else ''} listed" + (
        f", {skipped} not web addresses" if skipped else ""
    )
    _record(page, "sitemap", note)
    for url in urls:
        WebPage.objects.update_or_create(corpus=page.corpus, url=url, defaults={"outcome": "queued", "reason": ""})
    return [_fetch_listed(page.corpus, url, user) for url in urls]


def _fetch_listed(corpus: Corpus, url: str, user: User | None) -> Fetched:
    try:
        return page_fetch(corpus=corpus, url=url, user=user, refresh=True)
    except Exception as error:
        logger.exception("adding %s failed", url)
        listed = WebPage.objects.get(corpus=corpus, url=url)
        return _record(listed, "failed", f"{type(error).__name__}: {error}")


def _sitemap(url: str, limit: int) -> list[str]:
    fetcher = web_fetcher()
    got = fetcher.fetch(url, readable=SITEMAPS)
    return sitemap_pages(got.body, limit=limit, fetch=lambda child: fetcher.fetch(child, readable=SITEMAPS).body)
