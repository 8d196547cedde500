"""Django settings: everything comes from environment variables, read by strict helpers (see .env.example)."""

from __future__ import annotations

import secrets
import sys
from pathlib import Path

import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured

from context1_web.backing_services import chroma_config, database_config, redis_config
from context1_web.env import Env
from research.harness.budget import HARD_FRACTION
from research.inference.registry import PRODUCT_BACKENDS
from research.retrieval.embedders import EMBEDDERS
from research.retrieval.rerankers import RERANKERS
from research.retrieval.web.search import PROVIDERS as SEARCH_PROVIDERS
from research.writing.writers import WRITERS
from worker.queues import QUEUE_NAMES

django_stubs_ext.monkeypatch()  # lets admin and generic classes be subscripted for the type checker

env = Env()

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = env.path("DATA_DIR", BASE_DIR / "data")

DEBUG = env.boolean("DEBUG", False)
ALLOWED_HOSTS = env.strings("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.strings("CSRF_TRUSTED_ORIGINS", [])


# manage.py commands that serve web traffic: like the web server (Daphne), the worker and everything else that
# is not a manage.py command, they need a real key. Other commands (migrate, check, evaluate, bench_*, ...)
# sign nothing that outlives them, so without one they get a random key of their own, never a fixed one.
SERVING_COMMANDS = frozenset({"runserver", "runworker", "testserver"})


def _secret_key(argv: list[str]) -> str:
    """SECRET_KEY from the environment, else the key `make run` keeps in DATA_DIR/secret_key, else (commands
    that serve nothing only) a random per-process key."""
    value = env.optional_string("SECRET_KEY")
    if value is not None:
        return value
    key_file = DATA_DIR / "secret_key"
    if key_file.is_file():
        return key_file.read_text().strip()
    if argv and Path(argv[0]).name == "manage.py" and (argv[1:2] or ["help"])[0] not in SERVING_COMMANDS:
        return secrets.token_urlsafe(50)
    raise ImproperlyConfigured(
        f"SECRET_KEY is not set and {key_file} does not exist (`make run` creates it; see .env.example)"
    )


SECRET_KEY = _secret_key(sys.argv)

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_celery_beat",
    "django_htmx",
    "template_partials",
    "ninja",  # the API docs page's assets come from its static files, not a CDN
    "research",
    "research.bench",  # benchmark commands and their Celery task; the product imports nothing from it
]

MIDDLEWARE = [
    "research.platform.proxy.TrustedProxyMiddleware",  # the client's address, from X-Forwarded-For of a trusted proxy
    "django.middleware.security.SecurityMiddleware",
    "research.platform.csp.ContentSecurityPolicyMiddleware",  # before WhiteNoise: static answers carry it too
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "research.platform.database_down.DatabaseUnavailableMiddleware",  # a database that does not answer: a 503
]

ROOT_URLCONF = "context1_web.urls"
ASGI_APPLICATION = "context1_web.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "research.notifications.context.unread",
            ],
            "builtins": ["template_partials.templatetags.partials"],
            # Each feature's cards drawn on other features' pages (research/platform/panels.py).
            "libraries": {
                feature: f"research.{feature}.panels"
                for feature in (
                    "batches",
                    "corpora",
                    "investigations",
                    "invitations",
                    "schedules",
                    "sharing",
                    "timeline",
                    "web_sources",
                )
            }
            | {"run_kinds": "research.reporting.kinds.template_tags"},
        },
    }
]

DATABASES = {
    "default": database_config(
        url=env.url("DATABASE_URL", schemes=("postgres", "postgresql", "sqlite")),
        data_dir=DATA_DIR,
        conn_max_age=env.integer("DATABASE_CONN_MAX_AGE", 0, minimum=0),
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SECURE = env.boolean("SECURE_COOKIES", False)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
# HTTPS (docker-compose.yml sets these; the embedded default serves plain HTTP on loopback)
SECURE_SSL_REDIRECT = env.boolean("SECURE_SSL_REDIRECT", False)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # the container health check asks over plain HTTP
SECURE_HSTS_SECONDS = env.integer("SECURE_HSTS_SECONDS", 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.boolean("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env.boolean("SECURE_HSTS_PRELOAD", False)
# e.g. "X-Forwarded-Proto: https" behind a TLS proxy that sets (and strips clients' own) X-Forwarded-Proto
SECURE_PROXY_SSL_HEADER = env.header_match("SECURE_PROXY_SSL_HEADER")
# The proxies whose X-Forwarded-For names the client (addresses or networks); nobody else's is believed.
TRUSTED_PROXIES = env.networks("TRUSTED_PROXIES")
# Failed logins per username and per client address (Redis, every web process) before a lockout of
# LOGIN_LOCKOUT_SECONDS; failures count for that long from the first (research/platform/throttle.py).
LOGIN_FAILURES_PER_USERNAME = env.integer("LOGIN_FAILURES_PER_USERNAME", 5, minimum=1)
LOGIN_FAILURES_PER_ADDRESS = env.integer("LOGIN_FAILURES_PER_ADDRESS", 30, minimum=1)
LOGIN_LOCKOUT_SECONDS = env.integer("LOGIN_LOCKOUT_SECONDS", 900, minimum=1, maximum=86400)

LANGUAGE_CODE = "en-us"
TIME_ZONE = env.string("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = env.path("STATIC_ROOT", DATA_DIR / "static")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
MEDIA_ROOT = env.path("MEDIA_ROOT", DATA_DIR / "media")
# Serve static files straight from static/ too, so a server started without collectstatic still has its JS and CSS.
WHITENOISE_USE_FINDERS = True

# --- Redis: Celery broker and Channels layer (embedded server on a unix socket when REDIS_URL is unset)
REDIS = redis_config(
    url=env.url("REDIS_URL", schemes=("redis", "rediss", "unix")),
    data_dir=DATA_DIR,
    key_prefix=env.string("REDIS_KEY_PREFIX", "c1w"),
)
CHANNEL_LAYERS = {"default": REDIS.channel_layer()}

CELERY_BROKER_URL = REDIS.celery_url
# Longer than the longest task's hard time limit, so a running task is never redelivered.
CELERY_VISIBILITY_TIMEOUT = env.integer("CELERY_VISIBILITY_TIMEOUT", 4 * 3600, minimum=60)
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "global_keyprefix": f"{REDIS.key_prefix}:celery:",
    "visibility_timeout": CELERY_VISIBILITY_TIMEOUT,
    "socket_timeout": 10,
    "socket_connect_timeout": 5,
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# A lost broker connection (Redis restarting) leaves running tasks running while the worker reconnects: a run
# keeps its lease and its events in the database, and a redelivered message finds it claimed or done. Celery 6
# means to cancel them by default; pinned here (tests/integration/test_redis_restart.py: one attempt).
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = env.integer("CELERY_TASK_SOFT_TIME_LIMIT", 3 * 3600, minimum=10)
CELERY_TASK_TIME_LIMIT = CELERY_TASK_SOFT_TIME_LIMIT + 300
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
if CELERY_VISIBILITY_TIMEOUT <= CELERY_TASK_TIME_LIMIT:
    raise ImproperlyConfigured("CELERY_VISIBILITY_TIMEOUT must exceed CELERY_TASK_SOFT_TIME_LIMIT + 300")

# Research runs: a worker holds a run under a lease it renews about every second; a run whose lease
# expires (its worker died) is re-queued by the sweeper (Celery beat) until it has been claimed
# RUN_MAX_ATTEMPTS times, then failed with the reason.
RUN_LEASE_SECONDS = env.integer("RUN_LEASE_SECONDS", 60, minimum=2, maximum=3600)
RUN_MAX_ATTEMPTS = env.integer("RUN_MAX_ATTEMPTS", 3, minimum=1, maximum=20)
RUN_SWEEP_SECONDS = env.integer("RUN_SWEEP_SECONDS", 30, minimum=1, maximum=3600)
# Limits on runs (research/runs/admission.py): waiting or running at once per member (a batch counts once) and per
# workspace (every run), and how many of one workspace's runs the workers run at once, so that one workspace's
# queue never starves another's (research/runs/dispatch.py)
RUNS_ACTIVE_PER_USER = env.integer("RUNS_ACTIVE_PER_USER", 20, minimum=1)
RUNS_ACTIVE_PER_WORKSPACE = env.integer("RUNS_ACTIVE_PER_WORKSPACE", 300, minimum=1)
RUNS_CONCURRENT_PER_WORKSPACE = env.integer("RUNS_CONCURRENT_PER_WORKSPACE", 2, minimum=1)
# Ingestion: a worker holds a file under a lease while it parses, chunks or embeds it (a file's work is bounded
# by MAX_FILE_CHUNKS); a file whose lease expired (its worker died) is re-queued by the same sweep.
INGEST_LEASE_SECONDS = env.integer("INGEST_LEASE_SECONDS", 1200, minimum=2, maximum=86400)
CELERY_BEAT_SCHEDULE = {
    "sweep-runs": {
        "task": "research.tasks.sweep_runs",
        "schedule": float(RUN_SWEEP_SECONDS),
        "options": {"expires": float(RUN_SWEEP_SECONDS)},  # a sweep nobody ran in time is dropped, not piled up
    },
    "sweep-ingest": {
        "task": "research.tasks.sweep_ingest",
        "schedule": float(RUN_SWEEP_SECONDS),
        "options": {"expires": float(RUN_SWEEP_SECONDS)},
    },
    "sweep-webhooks": {  # a webhook delivery whose next attempt is overdue (its worker died) is sent again
        "task": "research.tasks.webhooks_sweep",
        "schedule": 60.0,
        "options": {"expires": 60.0},
    },
}

# Worker process shape: one process with threads by default, so an embedded Chroma has one writer.
WORKER_POOL = env.choice("WORKER_POOL", "threads", choices=("threads", "prefork", "solo"))
WORKER_CONCURRENCY = env.integer("WORKER_CONCURRENCY", 4, minimum=1, maximum=64)
# The queues a worker consumes (comma-separated): all by default; a deployment runs one worker per queue group
# (e.g. "ingest" and "runs,reports,default") so a long ingestion never holds up a run
WORKER_QUEUES = env.strings("WORKER_QUEUES", list(QUEUE_NAMES))
if not WORKER_QUEUES or set(WORKER_QUEUES) - set(QUEUE_NAMES):
    raise ImproperlyConfigured(f"WORKER_QUEUES={','.join(WORKER_QUEUES)!r} must name some of: {', '.join(QUEUE_NAMES)}")

# --- Chroma: PersistentClient under DATA_DIR unless CHROMA_URL points at a Chroma server
CHROMA = chroma_config(url=env.url("CHROMA_URL", schemes=("http", "https")), data_dir=DATA_DIR)

# --- vLLM (OpenAI-compatible API); unset means the offline heuristic backend is used
VLLM_BASE_URL = env.url("VLLM_BASE_URL", schemes=("http", "https"))
VLLM_API_KEY = env.optional_string("VLLM_API_KEY")
VLLM_MODEL = env.string("VLLM_MODEL", "chromadb/context-1")
VLLM_TIMEOUT = env.number("VLLM_TIMEOUT", 120.0, minimum=1.0)
VLLM_TEMPERATURE = env.number("VLLM_TEMPERATURE", 1.0, minimum=0.0)  # sampling makes the rollouts differ
# The search agent: heuristic (offline, the default) or openai (vLLM at VLLM_BASE_URL)
INFERENCE_BACKEND = env.choice(
    "INFERENCE_BACKEND", "openai" if VLLM_BASE_URL else "heuristic", choices=PRODUCT_BACKENDS
)
BUDGET_SOFT_NUDGE = env.boolean("BUDGET_SOFT_NUDGE", True)
if INFERENCE_BACKEND == "openai" and VLLM_BASE_URL is None:
    raise ImproperlyConfigured("INFERENCE_BACKEND=openai needs VLLM_BASE_URL (the vLLM server's root URL)")
BUDGET_HARD_FRACTION = env.number("BUDGET_HARD_FRACTION", HARD_FRACTION, minimum=0.5)
# The Context-1 reward's F-beta over supporting documents (corpus health checks; `evaluate --reward-beta`)
REWARD_BETA = env.number("REWARD_BETA", 2.0, minimum=0.1)
if REWARD_BETA > 100:
    raise ImproperlyConfigured("REWARD_BETA must lie between 0.1 and 100")
if BUDGET_HARD_FRACTION > 1.0:
    raise ImproperlyConfigured("BUDGET_HARD_FRACTION must lie between 0.5 and 1.0")

# --- Writers: what turns a run's chunks into verified claims (research/writing); separate from the search agent
WRITER_BASE_URL = env.url("WRITER_BASE_URL", schemes=("http", "https"))  # openai: a writer model's server root
WRITER_API_KEY = env.optional_string("WRITER_API_KEY")
WRITER_MODEL = env.string("WRITER_MODEL", "")
WRITER_TIMEOUT = env.number("WRITER_TIMEOUT", 120.0, minimum=1.0)
WRITER_BACKEND = env.choice("WRITER_BACKEND", "openai" if WRITER_BASE_URL else "extractive", choices=WRITERS.names)
if WRITER_BACKEND == "openai" and WRITER_BASE_URL is None:
    raise ImproperlyConfigured("WRITER_BACKEND=openai needs WRITER_BASE_URL (the writer model server's root URL)")
# evidence older than this many days is marked as possibly stale in answers and reports
REPORT_STALE_DAYS = env.integer("REPORT_STALE_DAYS", 365, minimum=1)

# --- Retrieval: embeddings, reranking, chunking, search budgets
EMBEDDER_BACKEND = env.choice("EMBEDDER_BACKEND", "minilm", choices=EMBEDDERS.names)
EMBEDDER_MODEL_PATH = env.optional_string("EMBEDDER_MODEL_PATH")  # minilm: a local sentence-transformers folder
EMBEDDINGS_URL = env.url("EMBEDDINGS_URL", schemes=("http", "https"))  # openai: server root
EMBEDDINGS_MODEL = env.string("EMBEDDINGS_MODEL", "")
RERANKER_BACKEND = env.choice("RERANKER_BACKEND", "none", choices=RERANKERS.names)
RERANKER_MODEL_PATH = env.optional_string("RERANKER_MODEL_PATH")
RERANKER_URL = env.url("RERANKER_URL", schemes=("http", "https"))  # full URL of the /rerank endpoint
RERANKER_MODEL = env.string("RERANKER_MODEL", "")
CHUNK_TOKENS = env.integer("CHUNK_TOKENS", 512, minimum=32, maximum=4096)
SEARCH_CANDIDATES = env.integer("SEARCH_CANDIDATES", 50, minimum=1, maximum=1000)
SEARCH_BUDGET_TOKENS = env.integer("SEARCH_BUDGET_TOKENS", 3000, minimum=100)
MAX_UPLOAD_MB = env.integer("MAX_UPLOAD_MB", 100, minimum=1)
PARSE_TIMEOUT = env.number("PARSE_TIMEOUT", 120.0, minimum=1.0)
PARSE_MEMORY_MB = env.integer("PARSE_MEMORY_MB", 1024, minimum=128)
MAX_FILE_CHUNKS = env.integer("MAX_FILE_CHUNKS", 1000, minimum=1)  # chunks one file may add (embedding cost)
# A workspace's storage quota (uploaded bytes kept on disk) and embedding budget (chunks its corpora hold), over all
# its corpora; an archive's members count one by one (research/corpora/quota.py)
WORKSPACE_STORAGE_MB = env.integer("WORKSPACE_STORAGE_MB", 2048, minimum=1)
WORKSPACE_MAX_CHUNKS = env.integer("WORKSPACE_MAX_CHUNKS", 100_000, minimum=1)
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 2**20  # larger uploads stream to temporary files
DATA_UPLOAD_MAX_NUMBER_FILES = env.integer("MAX_UPLOAD_FILES", 500, minimum=1)

# --- Web sources (research/web): a search provider, and the rules of the page fetcher
# none (the default: no web tools), searxng (SEARXNG_URL) or brave (BRAVE_API_KEY)
WEB_SEARCH_PROVIDER = env.choice("WEB_SEARCH_PROVIDER", "none", choices=("none", *SEARCH_PROVIDERS.names))
SEARXNG_URL = env.url("SEARXNG_URL", schemes=("http", "https"))
BRAVE_API_KEY = env.optional_string("BRAVE_API_KEY")
BRAVE_API_URL = env.url("BRAVE_API_URL", schemes=("http", "https")) or "https://api.search.brave.com"
WEB_SEARCH_TIMEOUT = env.number("WEB_SEARCH_TIMEOUT", 10.0, minimum=1.0)
# Hosts ("host" or "host:port") the fetcher may reach though they resolve to private addresses or use another port
WEB_FETCH_ALLOWED_HOSTS = env.strings("WEB_FETCH_ALLOWED_HOSTS", [])
WEB_FETCH_TIMEOUT = env.number("WEB_FETCH_TIMEOUT", 10.0, minimum=0.5)
WEB_FETCH_MAX_MB = env.integer("WEB_FETCH_MAX_MB", 5, minimum=1, maximum=100)
WEB_FETCH_INTERVAL = env.number("WEB_FETCH_INTERVAL", 1.0, minimum=0.0)  # seconds between two requests to a host
WEB_FETCH_ROBOTS = env.boolean("WEB_FETCH_ROBOTS", True)
WEB_CACHE_HOURS = env.integer("WEB_CACHE_HOURS", 24, minimum=0)  # a page fetched this recently is not asked again
WEB_SITEMAP_PAGES = env.integer("WEB_SITEMAP_PAGES", 50, minimum=1, maximum=1000)  # pages a sitemap may add at most

# --- Webhooks (research/webhooks): a signed POST when a run ends, by the fetcher's address rules
# Hosts ("host" or "host:port") a webhook may reach though they resolve to private addresses or use another port
WEBHOOK_ALLOWED_HOSTS = env.strings("WEBHOOK_ALLOWED_HOSTS", [])
WEBHOOK_TIMEOUT = env.number("WEBHOOK_TIMEOUT", 10.0, minimum=0.5)  # seconds, connect and answer
WEBHOOK_ATTEMPTS = env.integer("WEBHOOK_ATTEMPTS", 5, minimum=1, maximum=10)  # 30 s, 2, 8 and 32 min apart

# --- Links and e-mail (invitations, digests of scheduled reports)
# The address people open the product at: absolute links in e-mails (the launcher sets it from HOST and PORT)
SITE_URL = env.url("SITE_URL", schemes=("http", "https")) or "http://127.0.0.1:8000"
# SMTP when EMAIL_HOST is set; otherwise every e-mail is written as a file under DATA_DIR/mail (no mail server)
EMAIL_HOST = env.optional_string("EMAIL_HOST")
EMAIL_PORT = env.integer("EMAIL_PORT", 587, minimum=1, maximum=65535)
EMAIL_HOST_USER = env.string("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env.string("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env.boolean("EMAIL_USE_TLS", True)  # STARTTLS (port 587)
EMAIL_USE_SSL = env.boolean("EMAIL_USE_SSL", False)  # implicit TLS (port 465)
if EMAIL_USE_TLS and EMAIL_USE_SSL and EMAIL_HOST:
    raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL exclude each other: set one of them to false")
EMAIL_TIMEOUT = env.number("EMAIL_TIMEOUT", 10.0, minimum=1.0)
DEFAULT_FROM_EMAIL = env.string("DEFAULT_FROM_EMAIL", "Context-1 Web <noreply@localhost>")
EMAIL_FILE_PATH = env.path("EMAIL_FILE_PATH", DATA_DIR / "mail")
EMAIL_BACKEND = env.string(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST else "django.core.mail.backends.filebased.EmailBackend",
)
# The public API (research/api): requests one token may make a minute (counted in Redis by every web process)
API_REQUESTS_PER_MINUTE = env.integer("API_REQUESTS_PER_MINUTE", 120, minimum=1)
# Invitations into a workspace expire after this many days
INVITATION_DAYS = env.integer("INVITATION_DAYS", 7, minimum=1, maximum=90)
# At most this many invitation e-mails an hour for one workspace, and from one member over all their workspaces
INVITATIONS_PER_HOUR = env.integer("INVITATIONS_PER_HOUR", 20, minimum=1)
# Schedules: how often beat looks for due schedules, and the shortest interval a schedule may have
SCHEDULE_TICK_SECONDS = env.integer("SCHEDULE_TICK_SECONDS", 30, minimum=5, maximum=3600)
SCHEDULE_MIN_INTERVAL_MINUTES = env.integer("SCHEDULE_MIN_INTERVAL_MINUTES", 60, minimum=1, maximum=10080)
CELERY_BEAT_SCHEDULE["fire-schedules"] = {
    "task": "research.tasks.schedules_fire",
    "schedule": float(SCHEDULE_TICK_SECONDS),
    "options": {"expires": float(SCHEDULE_TICK_SECONDS)},
}

HEALTH_CHECK_TIMEOUT = env.number("HEALTH_CHECK_TIMEOUT", 3.0, minimum=0.1)

# Dotted paths of callables run once in each worker process before it takes tasks.
WORKER_WARMUP = env.strings(
    "WORKER_WARMUP",
    [
        "research.platform.warmup.open_chroma",
        "research.platform.warmup.load_embedder",
        "research.platform.warmup.load_places",
    ],
)

LOG_LEVEL = env.choice("LOG_LEVEL", "INFO", choices=("DEBUG", "INFO", "WARNING", "ERROR"))
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    # A refused request in one line, no warning for an invalid form's 422, Daphne's HTTP/2 notice said plainly
    "filters": {
        "request_noise": {"()": "context1_web.log_filters.RequestNoise"},
        "daphne_start_noise": {"()": "context1_web.log_filters.DaphneStartNoise"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    # httpx logs every request at INFO: with a Chroma server, each search and each stored batch wrote lines
    "loggers": {
        "django.channels.server": {"level": "WARNING"},
        "httpx": {"level": "WARNING"},
        "django.request": {"filters": ["request_noise"]},
        "daphne.server": {"filters": ["daphne_start_noise"]},
    },
}
