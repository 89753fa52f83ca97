"""One settings module, driven by environment variables, with safe laptop defaults.

DATABASE_URL  default: a SQLite file under var/ (the zero-setup first run)
REDIS_URL     default: none; Celery tasks then run in-process and the cache is local memory.
              Set, it is the Celery broker, the result backend, the cache and the channel layer.
SECRET_KEY    required once DEBUG is off
DEBUG         default on for the zero-setup run
ALLOWED_HOSTS comma-separated
LIVE_PUSH     default: on when REDIS_URL is set. On, the public pages take live updates over a
              WebSocket (Channels, fanned out through Redis); off, they poll with ETags.
"""

import ipaddress
import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from kombu import Queue

from config.env import env_bool, env_list
from config.settings_parts.live import channel_layers
from config.settings_parts.log import logging_config
from config.settings_parts.security import content_security_policy, https_settings

BASE_DIR = Path(__file__).resolve().parent.parent


DEBUG = env_bool("DEBUG", True)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",  # API tokens that expire, one per device (api.models.AuthToken)
    "axes",  # sign-in lockout by account and by address (config/auth.py)
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and ReDoc served from the project: docs work in a hall without internet
    "corsheaders",
    "drf_standardized_errors",
    "simple_history",
    "health_check",
    "channels",
    "tournaments",
    "api",
    "web",
    "webhooks",
]

MIDDLEWARE = [
    # First: after any answer, what is left of the body is read, so nginx's kept connection stays usable.
    "config.drain_body.DrainRequestBody",
    "django.middleware.security.SecurityMiddleware",
    # gzip for pages and JSON (the API's large answers come compressed from their cache already). BREACH: Django
    # masks the CSRF token anew in every response and pads each gzip answer with random bytes (Django >= 4.2).
    "django.middleware.gzip.GZipMiddleware",
    "corsheaders.middleware.CorsMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "web.workspace.desk_lock.DeskLockMiddleware",  # a shared tablet in desk mode opens the desk only
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "axes.middleware.AxesMiddleware",  # turns a locked-out sign-in into config.auth.lockout_response
    # Last, so a view's database fault is answered first: 503 with Retry-After, never a 500.
    "config.database_unavailable.DatabaseUnavailableMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

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
                "django.template.context_processors.i18n",
                "web.context_processors.site",
            ],
        },
    },
]

VAR_DIR = Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    # SQLite serialises writers; wait for the lock rather than failing at once.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
    # A transaction takes the write lock when it begins: one that reads, then writes (a hand entered) would
    # otherwise fail at once with "database is locked" when another writer came between, whatever the timeout.
    DATABASES["default"]["OPTIONS"]["transaction_mode"] = "IMMEDIATE"
    DATABASES["default"]["CONN_MAX_AGE"] = 0
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's backend with a health check that asks the socket, not the server (config/postgresql/base.py).
    DATABASES["default"]["ENGINE"] = "config.postgresql"
    # The hand POST's statements bind their parameters on the server (tournaments/services/rows.py):
    # psycopg prepares each after a connection ran it five times. Django's own statements bind on the
    # client and are never prepared. 0 turns preparing off (a pooler that cannot keep prepared statements).
    prepare = int(os.environ.get("DATABASE_PREPARE_THRESHOLD", "5"))
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("prepare_threshold", prepare or None)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# The ASGI server (config/asgi.py) hands HTTP to Django's WSGI handler in this many threads a process:
# each keeps one database connection, so they bound the process's connections (README "Sizing").
ASGI_HTTP_THREADS = int(os.environ.get("ASGI_HTTP_THREADS", "4"))

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

from django.utils.translation import gettext_lazy as _  # noqa: E402

LANGUAGE_CODE = "en"
# The site's languages: the browser's choice by default (LocaleMiddleware), a picker on every page.
LANGUAGES = [("en", _("English")), ("nl", _("Dutch")), ("fr", _("French")), ("es", _("Spanish")),
             ("ca", _("Catalan"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Brussels")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# --- Redis: Celery broker, result backend and cache -------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "manille"),
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    # No broker: tasks run in-process, so the first run needs nothing else installed.
    CELERY_BROKER_URL = "memory://localhost/"
    CELERY_RESULT_BACKEND = "cache+memory://"
    CELERY_TASK_ALWAYS_EAGER = True
# The standings go to queues of their own so that a deployment can give them single-process workers
# (docker-compose.yml does): a worker keeps each tournament's inputs in memory between recomputes
# (tournaments/services/standings.py). STANDINGS_SHARDS = 1: one queue, "standings". N > 1: the
# queues "standings.0" ... "standings.N-1", a tournament's recomputes always on the same one
# (tournaments.services.standings.standings_queue), each served by one single-process worker, on
# any machine. Every process (web, workers, beat) must have the same number. A worker started
# without -Q consumes every queue.
STANDINGS_SHARDS = int(os.environ.get("STANDINGS_SHARDS", "1"))
if STANDINGS_SHARDS < 1:
    raise ImproperlyConfigured("STANDINGS_SHARDS must be 1 or more")
STANDINGS_QUEUES = (["standings"] if STANDINGS_SHARDS == 1
                    else [f"standings.{k}" for k in range(STANDINGS_SHARDS)])
# Coalescing: a recompute is queued this many seconds after the result that asked for it, so a burst
# of results computes once (it bounds the standings' lag from below).
STANDINGS_COALESCE_SECONDS = float(os.environ.get("STANDINGS_COALESCE_SECONDS", "2"))
# How many tournaments' inputs a standings worker process keeps; more active tournaments than this on
# one process (one shard) and recomputes read everything again.
STANDINGS_KEEP_TOURNAMENTS = int(os.environ.get("STANDINGS_KEEP_TOURNAMENTS", "32"))
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_QUEUES = [Queue("celery", routing_key="celery"), *(Queue(q, routing_key=q) for q in STANDINGS_QUEUES)]
# A recompute goes to its tournament's shard (tournaments.tasks.task_route, which reads STANDINGS_SHARDS
# when the task is queued, wherever it is queued from); the sweep, which only queues the recomputes of
# stale standings (each to its shard), goes with the other tasks.
CELERY_TASK_ROUTES = ["tournaments.tasks.task_route"]
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_TRACK_STARTED = True
CELERY_RESULT_EXTENDED = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
# A task whose worker process dies (kill -9, out of memory) goes back to the queue: both tasks are
# safe to run again (tournaments/tasks.py). A whole worker lost with its messages is covered by the
# task's lease instead (TASK_LEASE_SECONDS), as Redis gives an unacknowledged message back only
# after its visibility timeout (an hour).
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# The periodic sweep (tournaments/services/sweep.py): standings whose changes waited longer than
# STANDINGS_STALE_SECONDS are recomputed, lost tasks reported failed, never-started pair requests
# queued again. Run by `celery -A config beat` (./dev beat) with a broker, by a thread of the web
# process without one. A sweep not started within its interval is dropped (the next one follows).
SWEEP_SECONDS = float(os.environ.get("SWEEP_SECONDS", "5"))
STANDINGS_STALE_SECONDS = float(os.environ.get("STANDINGS_STALE_SECONDS", "10"))
TASK_LEASE_SECONDS = float(os.environ.get("TASK_LEASE_SECONDS", "30"))
RESULT_EVENTS_KEEP_DAYS = int(os.environ.get("RESULT_EVENTS_KEEP_DAYS", "400"))  # a result step's phone: README
CELERY_BEAT_SCHEDULE = {
    "sweep": {"task": "tournaments.sweep_task", "schedule": SWEEP_SECONDS, "options": {"expires": SWEEP_SECONDS}},
}
# Fault injection for the robustness tests and bench/probe_faults.py only: a pairing (at its
# "loading" stage, inside its transaction) or a standings recompute (before its commit) waits this
# long, so a test can kill its worker or cut its connection mid-way. 0 (no wait) outside them.
FAULT_TASK_DELAY_SECONDS = float(os.environ.get("FAULT_TASK_DELAY_SECONDS", "0"))

# --- Sign-in: proxies, lockout, tokens (issue #11, points 6 and 7; config/auth.py) ----------
# How many reverse proxies in front of the app append to X-Forwarded-For. 0 (the default): the
# header is ignored and the client is the socket's address, so a client cannot pick its own.
TRUSTED_PROXIES = int(os.environ.get("TRUSTED_PROXIES", "0"))
AUTHENTICATION_BACKENDS = [
    "config.auth.LockoutBackend",  # axes.backends.AxesStandaloneBackend, first: refuses locked-out sign-ins
    "django.contrib.auth.backends.ModelBackend",
]
# django-axes: after LOGIN_FAILURE_LIMIT failures an account (LOGIN_FAILURE_LIMIT_ADDRESS an address) is locked
# out for LOGIN_COOLOFF_MINUTES (the token endpoint, the admin and the site's sign-in page alike).
# Attempts are kept in PostgreSQL (works with Redis down); a success resets the account's count.
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "10"))
# An address (a club's hall shares one behind its Wi-Fi) is locked out only after this many (config/auth.py).
LOGIN_FAILURE_LIMIT_ADDRESS = int(os.environ.get("LOGIN_FAILURE_LIMIT_ADDRESS", "100"))
AXES_COOLOFF_TIME = timedelta(minutes=float(os.environ.get("LOGIN_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username"], ["ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False  # hammering a locked account does not extend it
AXES_HANDLER = "config.auth.LockoutHandler"
AXES_CLIENT_IP_CALLABLE = "config.auth.client_ip"
AXES_IPWARE_PROXY_COUNT = TRUSTED_PROXIES  # used only if django-ipware replaces the callable above
AXES_LOCKOUT_CALLABLE = "config.auth.lockout_response"
AXES_HTTP_RESPONSE_CODE = 429
AXES_SENSITIVE_PARAMETERS = ["password", "password1", "password2", "new_password1", "new_password2"]
# API tokens (django-rest-knox, api.models.AuthToken): they expire TOKEN_TTL_DAYS after their last
# use (renewed at most hourly), and TOKEN_MAX_TTL_DAYS after they were issued whatever the use.
KNOX_TOKEN_MODEL = "api.AuthToken"
# knox's own migrations would create its unused knox_authtoken table (the model is swapped for
# api.AuthToken), whose foreign key to the users then blocks the test database's flush.
MIGRATION_MODULES = {"knox": None}
REST_KNOX = {
    "TOKEN_TTL": timedelta(days=float(os.environ.get("TOKEN_TTL_DAYS", "30"))),
    "AUTO_REFRESH": True,
    "AUTO_REFRESH_MAX_TTL": timedelta(days=float(os.environ.get("TOKEN_MAX_TTL_DAYS", "365"))),
    "MIN_REFRESH_INTERVAL": 3600,
    "AUTH_HEADER_PREFIX": "Token",
    "TOKEN_MODEL": "api.AuthToken",
}

# Webhooks (webhooks/): each attempt waits WEBHOOK_TIMEOUT seconds at most; a failed delivery is
# retried WEBHOOK_MAX_RETRIES times after 2, 4, 8... seconds (jittered, at most WEBHOOK_BACKOFF_MAX).
WEBHOOK_TIMEOUT = float(os.environ.get("WEBHOOK_TIMEOUT", "5"))
WEBHOOK_MAX_RETRIES = int(os.environ.get("WEBHOOK_MAX_RETRIES", "6"))
WEBHOOK_BACKOFF_MAX = int(os.environ.get("WEBHOOK_BACKOFF_MAX", "600"))
WEBHOOK_LOG_SIZE = int(os.environ.get("WEBHOOK_LOG_SIZE", "50"))
# Webhooks reach only public internet addresses (webhooks/targets.py); a club's LAN install lists the networks
# its own receivers live in, e.g. WEBHOOK_ALLOWED_NETWORKS=192.168.1.0/24 (comma-separated CIDRs, none by default).
WEBHOOK_ALLOWED_NETWORKS = env_list("WEBHOOK_ALLOWED_NETWORKS")
for _network in WEBHOOK_ALLOWED_NETWORKS:
    try:
        ipaddress.ip_network(_network, strict=False)
    except ValueError as _exc:
        raise ImproperlyConfigured(f"WEBHOOK_ALLOWED_NETWORKS: {_exc}") from _exc

# The push channel (docs/api.md "The push channel"; webhooks/push_store.py, api/push.py): the webhooks' events as
# Server-Sent Events, kept PUSH_REPLAY_SECONDS for a reconnect's Last-Event-ID; a ticket lives PUSH_TICKET_SECONDS.
PUSH_REPLAY_SECONDS = int(os.environ.get("PUSH_REPLAY_SECONDS", "600"))
PUSH_REPLAY_MAX = int(os.environ.get("PUSH_REPLAY_MAX", "5000"))
PUSH_TICKET_SECONDS = int(os.environ.get("PUSH_TICKET_SECONDS", "60"))
PUSH_HEARTBEAT_SECONDS = float(os.environ.get("PUSH_HEARTBEAT_SECONDS", "15"))
PUSH_STREAM_MAX_SECONDS = float(os.environ.get("PUSH_STREAM_MAX_SECONDS", "3600"))
PUSH_CONNECTIONS_PER_USER = int(os.environ.get("PUSH_CONNECTIONS_PER_USER", "20"))
PUSH_CONNECTIONS_PER_ADDRESS = int(os.environ.get("PUSH_CONNECTIONS_PER_ADDRESS", "100"))

# Who may create a tournament (and so organize it, and register its webhooks): "anyone" signed in (the
# default), or only "staff" (superusers and staff outside the Volunteers group), who then list its organizers.
TOURNAMENT_CREATORS = os.environ.get("TOURNAMENT_CREATORS", "anyone").strip().lower() or "anyone"
if TOURNAMENT_CREATORS not in ("anyone", "staff"):
    raise ImproperlyConfigured("TOURNAMENT_CREATORS must be 'anyone' or 'staff'")

# --- Django REST framework ---------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # X-Forwarded-For is trusted only as far as TRUSTED_PROXIES proxies (none by default).
    "NUM_PROXIES": TRUSTED_PROXIES,
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": [
        "django_filters.rest_framework.DjangoFilterBackend",
        "api.filters.SearchFilter",
        "api.filters.OrderingFilter",
    ],
    "DEFAULT_SCHEMA_CLASS": "api.openapi.AutoSchema",
    # JSON bodies only (issue 29): one content type a body, so generated clients send what the schema says.
    # The token endpoint also reads forms, for curl (api/views/auth.py).
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    # Keep the library's handler function (its AutoSchema documents errors only for it); the
    # project's translations of domain errors plug in through DRF_STANDARDIZED_ERRORS below.
    "EXCEPTION_HANDLER": "drf_standardized_errors.handler.exception_handler",
    "DEFAULT_THROTTLE_CLASSES": ["api.throttling.WritesThrottle"],
    # `?format=` filters tournaments by their format (swiss, knockout...), not the renderer.
    "URL_FORMAT_OVERRIDE": None,
    "DEFAULT_THROTTLE_RATES": {
        "writes": os.environ.get("THROTTLE_WRITES", "600/min"),
        "token": os.environ.get("THROTTLE_TOKEN", "60/min"),
    },
}
DRF_STANDARDIZED_ERRORS = {
    "ENABLE_IN_DEBUG_FOR_UNHANDLED_EXCEPTIONS": True,
    "EXCEPTION_HANDLER_CLASS": "api.exceptions.ExceptionHandler",
    "EXCEPTION_FORMATTER_CLASS": "api.exceptions.ExceptionFormatter",
    "ALLOWED_ERROR_STATUS_CODES": ["400", "401", "403", "404", "405", "406", "409", "415", "429", "500"],
    "ERROR_SCHEMAS": {"409": "api.openapi.ErrorResponse409Serializer"},
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Manille Tournaments API",
    "DESCRIPTION": "Clubs, tournaments, hand results checked by the rules engine, standings and pairings.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and ReDoc from drf-spectacular-sidecar's static files, not a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "TAGS": [
        {"name": "variants", "description": "The variants' rules: decks, scores, options; score a hand or check a "
                                            "play without storing anything."},
        {"name": "clubs and teams", "description": "The registry a club keeps: clubs, players, teams."},
        {"name": "tournaments", "description": "Tournaments (by id or slug), their entries and standings."},
        {"name": "rounds", "description": "Rounds and their tables; pairing the next round (in a worker)."},
        {"name": "matches", "description": "Match scoreboards (ETag, 304) and entering hands."},
        {"name": "hands", "description": "A stored hand: read, correct, delete the last, its audit history."},
        {"name": "tasks", "description": "Following a pairing task."},
        {"name": "auth", "description": "Tokens and the signed-in user."},
        {"name": "push", "description": "The push channel: the tournaments' events as Server-Sent Events."},
    ],
    "COMPONENT_SPLIT_REQUEST": True,
    # Issue 29: OpenAPI 3.1 (a null is a type: strict validators accept `bonus: null`; the webhooks' payloads),
    # JSON request bodies only, the server's own origin. Headers, 304s and nullables: api/openapi_http.py.
    "OAS_VERSION": "3.1.0",
    "PARSER_WHITELIST": ["rest_framework.parsers.JSONParser"],
    "SERVERS": [{"url": "/", "description": "This server"}],
    "WEBHOOKS": [f"api.openapi_events.{name}" for name in (
        "HAND_ENTERED", "HAND_CORRECTED", "HAND_DELETED", "MATCH_FINISHED", "ROUND_PAIRED", "ROUND_PUBLISHED",
        "STANDINGS_UPDATED", "STAGE_CLOSED", "STAGE_STARTED", "DIRECTOR_ACTION", "RESULT_CONFIRMED",
        "RESULT_DISPUTED", "RESULT_SETTLED", "WEBHOOK_TEST")],
    "ENUM_NAME_OVERRIDES": {
        "ValidationErrorEnum": "drf_standardized_errors.openapi_serializers.ValidationErrorEnum.choices",
        "ClientErrorEnum": "drf_standardized_errors.openapi_serializers.ClientErrorEnum.choices",
        "ServerErrorEnum": "drf_standardized_errors.openapi_serializers.ServerErrorEnum.choices",
        "SeatEnum": "api.serializers.variants.SEATS",
        "SideEnum": "api.serializers.variants.SIDES",
        "WinnerEnum": "api.serializers.variants.WINNERS",
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "MatchStatusEnum": "tournaments.models.Match.Status",
        "GameStatusEnum": "tournaments.models.Game.Status",
        "RoundStatusEnum": "tournaments.models.Round.Status",
        "FormatEnum": "tournaments.models.Tournament.Format",  # a stage's formats too (the same set)
        "KindEnum": "tournaments.models.TaskRecord.Kind",
        "StageStatusEnum": "tournaments.models.Stage.Status",
        "QualificationKindEnum": "tournaments.models.Stage.Rule",
        "PushResetReasonEnum": "api.openapi_push.RESET_REASONS",
        "DirectorActionKindEnum": "tournaments.models.DirectorAction.Kind",
    },
    # The library's hook replaces drf-spectacular's (it is a copy that leaves the error components alone).
    "POSTPROCESSING_HOOKS": ["drf_standardized_errors.openapi_hooks.postprocess_schema_enums",
                             "api.openapi_http.postprocess"],
}

# CORS: club websites may read the API from their own pages. Origins come from the environment
# (comma-separated, e.g. https://dezwartekat.be); none by default. Only the API's paths answer CORS.
CORS_ALLOWED_ORIGINS = env_list("CORS_ALLOWED_ORIGINS")
CORS_URLS_REGEX = r"^/api/.*$"
CORS_ALLOW_CREDENTIALS = False  # tokens, not the admin's session cookies
CORS_ALLOW_HEADERS = (
    "accept", "authorization", "content-type", "if-none-match", "idempotency-key", "accept-language",
    "last-event-id",
)
# What a browser client may read of an answer: the ETag for its conditional GETs, the rate limits and deprecations.
CORS_EXPOSE_HEADERS = ["ETag", "Idempotent-Replayed", "Location", "Retry-After", "RateLimit", "RateLimit-Policy",
                       "Deprecation", "Sunset", "Link"]

# ?updated_after= lists only changes older than this many seconds (and, on PostgreSQL, than the oldest write still
# open), so that a change committed late is never passed over by a client's cursor (tournaments/selectors/changes.py).
API_CHANGES_SETTLE_SECONDS = float(os.environ.get("API_CHANGES_SETTLE_SECONDS", "1"))

# The site's own sign-in (the workspace at /my/); the admin keeps its own login page.
LOGIN_URL = "ws:login"
LOGIN_REDIRECT_URL = "ws:home"
LOGOUT_REDIRECT_URL = "web:home"
# How long an invitation link (an organizer inviting a scorekeeper or co-organizer) stays valid.
INVITE_MAX_AGE = int(os.environ.get("INVITE_MAX_AGE", 7 * 24 * 3600))

# --- E-mail (invitations) -----------------------------------------------------
# EMAIL_HOST set: sent by SMTP (EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS).
# Else EMAIL_BACKEND: default the console in development, none (the link is only shown) otherwise.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", 587))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
    EMAIL_TIMEOUT = 10
else:
    EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND") or (
        "django.core.mail.backends.console.EmailBackend" if DEBUG else "django.core.mail.backends.dummy.EmailBackend")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Manille Tournaments <noreply@localhost>")

# Logging: one handler, on the root logger, each line written once (config/settings_parts/log.py).
LOG_LEVEL = os.environ.get("LOG_LEVEL", "INFO")
LOGGING = logging_config(LOG_LEVEL)

if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", True)
    CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", True)

# --- Live updates (Django Channels) ----------------------------------------
# Through Redis to every web process, else in memory (config/settings_parts/live.py).
CHANNEL_LAYERS = channel_layers(REDIS_URL)
LIVE_PUSH = env_bool("LIVE_PUSH", bool(REDIS_URL))
# The live publisher sends to a group at most once in this many seconds (the changes in between go as
# one message at its end): a busy tournament's pages render a few times a second, not once per hand.
LIVE_COALESCE_SECONDS = float(os.environ.get("LIVE_COALESCE_SECONDS", "0.25"))
# A region of a whole tournament (its round, standings and wall: every table, every player) changes with every
# hand of every table: it is rendered again, pushed and polled anew at most once in this many seconds.
LIVE_WIDE_SECONDS = float(os.environ.get("LIVE_WIDE_SECONDS", "1.0"))

# --- Faults and hostile input (issue #11; README "Faults and hostile input") -----------------
# PostgreSQL is the source of truth; Redis (cache, broker, channel layer) may be down without a
# result being refused: every Redis client gets short timeouts, the throttles fail open, queueing
# and live publishing after commit log their failures (api/throttling.py, tournaments/tasks.py).
REDIS_TIMEOUT = float(os.environ.get("REDIS_TIMEOUT", "1"))
if REDIS_URL:
    CACHES["default"].setdefault("OPTIONS", {}).update(
        {"SOCKET_CONNECT_TIMEOUT": REDIS_TIMEOUT, "SOCKET_TIMEOUT": REDIS_TIMEOUT})
    CELERY_BROKER_CONNECTION_TIMEOUT = REDIS_TIMEOUT
    CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": REDIS_TIMEOUT}
    CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = REDIS_TIMEOUT
    CELERY_REDIS_SOCKET_TIMEOUT = max(REDIS_TIMEOUT, 5.0)
    CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"retry_policy": {"max_retries": 1, "interval_start": 0,
                                                                "interval_step": 0.1, "interval_max": 0.1}}
    CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0]["socket_connect_timeout"] = REDIS_TIMEOUT
# Publishing a task: one quick retry, then the failure is logged (never a 500 after the commit).
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.1,
                                    "interval_max": 0.1}

# Request bodies: Django's 2.5 MB limit stays (the API answers 413 in its error shape beyond it).
DATA_UPLOAD_MAX_MEMORY_SIZE = int(os.environ.get("DATA_UPLOAD_MAX_MEMORY_SIZE", 2621440))
# Unknown URLs under /api/ (a path with a newline included) answer the API's JSON 404.
API_PATH_PREFIX = "/api/"

# HTTPS: HSTS, the redirect and secure cookies, on by default once DEBUG is off. A plain-HTTP
# install on a club's LAN turns them off with SECURE_HTTPS=0 (then nothing below is forced).
SECURE_HTTPS = env_bool("SECURE_HTTPS", not DEBUG)
globals().update(https_settings(SECURE_HTTPS))  # SECURE_SSL_REDIRECT, SECURE_HSTS_*, the cookies' flags
SESSION_COOKIE_HTTPONLY = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

# Content-Security-Policy (django-csp): everything from the site itself (config/settings_parts/security.py).
# On by default when DEBUG is off; CSP=0 turns it off, CSP=1 on in development too.
CSP_ENABLED = env_bool("CSP", not DEBUG)
if CSP_ENABLED:
    INSTALLED_APPS.append("csp")
    MIDDLEWARE.insert(MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1,
                      "csp.middleware.CSPMiddleware")
    CONTENT_SECURITY_POLICY = content_security_policy()
