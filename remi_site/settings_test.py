"""Settings for the test suite: the real PostgreSQL and Redis on their standard ports.

``TEST_DATABASE_URL`` and ``TEST_REDIS_URL`` point elsewhere. Under pytest-xdist each
worker gets its own test database (pytest-django adds the ``_gwN`` suffix) and its own
Redis database number, so workers never see each other's cache, throttles or channel
messages, and a test may ``cache.clear()`` freely.
"""

import os

from remi_site.settings import *

_worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
_redis_db = 1 + int(_worker.removeprefix("gw") or 0) % 15  # 0 is left to the dev server

DATABASES = {
    "default": {
        **env.db_url_config(
            env.str("TEST_DATABASE_URL", default="postgres://postgres@127.0.0.1:5432/remi")
        ),
        "CONN_MAX_AGE": 0,
        # As in production (settings.py): server-side parameter binding, no parallel
        # workers for a request's query.
        "OPTIONS": {
            "server_side_binding": env.bool("DB_PREPARED_STATEMENTS", default=True),
            "options": POSTGRES_SESSION,
        },
    }
}

REDIS_URL = f"{env.str('TEST_REDIS_URL', default='redis://127.0.0.1:6379').rstrip('/')}/{_redis_db}"
CACHES["default"]["LOCATION"] = REDIS_URL
# Only the address changes: the tests run the channel layer's production options.
CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0]["address"] = REDIS_URL
CELERY_BROKER_URL = CELERY_RESULT_BACKEND = REDIS_URL
# Tasks run inline, in the test's transaction: no worker to wait for (a real worker
# started by a test turns this off with CELERY_TASK_ALWAYS_EAGER=false).
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=True)
CELERY_TASK_EAGER_PROPAGATES = True

# Fast hashing: tests create many users.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# No collectstatic manifest in tests.
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Generous limits, so that only the tests about throttling meet them.
REST_FRAMEWORK = {
    **REST_FRAMEWORK,
    "DEFAULT_THROTTLE_RATES": {
        scope: "100000/min" for scope in REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    },
}

# Serve static files from the source folders (no collectstatic), e.g. for browser tests.
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True

# The pseudo-locale's catalogue is reachable (tests/pseudo_locale_kit.py builds it); the
# language itself is offered only by the tests that read the site in it, so that every
# other test sees the site's five languages.
PSEUDO_LOCALE = True
LOCALE_PATHS = [*LOCALE_PATHS, PSEUDO_LOCALE_PATH]

# Bots answer at once: a test that wants the pause sets its bounds (games.play.bot_pause),
# a real worker it starts through the environment (tests/live/test_worker_bot_pause.py).
BOT_PAUSE_MIN_S = env.float("TEST_BOT_PAUSE_MIN_S", default=0.0)
BOT_PAUSE_MAX_S = env.float("TEST_BOT_PAUSE_MAX_S", default=0.0)
# The bots' measured strength: the tests' own figures (tests/games/fixtures), never the
# file bench/bots.py writes, so that pages walked in a browser show measured rows.
BOT_STRENGTH_FILE = str(BASE_DIR / "tests" / "games" / "fixtures" / "bot_strength.json")
