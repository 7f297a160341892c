"""The two configurations: the embedded default and production from the environment."""

from __future__ import annotations

import json

import pytest

from tests.settings_kit import PRODUCTION_ENV, run_python


def test_production_settings_pass_check_deploy():
    result = run_python(
        "", PRODUCTION_ENV, "manage.py", "check", "--deploy", "--fail-level", "WARNING"
    )

    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "System check identified no issues" in output


def read_settings(extra_env: dict[str, str]) -> dict[str, object]:
    code = """
import json, django
from django.conf import settings
django.setup()
print(json.dumps({
    "DEBUG": settings.DEBUG,
    "ENGINE": settings.DATABASES["default"]["ENGINE"],
    "NAME": str(settings.DATABASES["default"]["NAME"]),
    "CONN_MAX_AGE": settings.DATABASES["default"].get("CONN_MAX_AGE"),
    "ALLOWED_HOSTS": settings.ALLOWED_HOSTS,
    "CACHE": settings.CACHES["default"]["LOCATION"],
    "BROKER": settings.CELERY_BROKER_URL,
    "CHANNELS": settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"],
    "EMAIL_BACKEND": settings.EMAIL_BACKEND,
    "SECURE_SSL_REDIRECT": settings.SECURE_SSL_REDIRECT,
    "SESSION_COOKIE_SECURE": settings.SESSION_COOKIE_SECURE,
    "SECRET_KEY": settings.SECRET_KEY,
    "DB_SESSION": settings.DATABASES["default"].get("OPTIONS", {}).get("options"),
}))
"""
    result = run_python(code, {"DJANGO_SETTINGS_MODULE": "remi_site.settings", **extra_env})
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_embedded_default_is_sqlite_and_the_local_redis_socket(tmp_path):
    values = read_settings({"REMI_VAR_DIR": str(tmp_path)})

    assert values["DEBUG"] is False
    assert values["ENGINE"] == "django.db.backends.sqlite3"
    assert values["NAME"] == str(tmp_path / "remi.sqlite3")
    assert values["ALLOWED_HOSTS"] == ["localhost", "127.0.0.1", "[::1]"]
    assert values["CACHE"] == f"unix://{tmp_path}/redis.sock"
    assert [host["address"] for host in values["CHANNELS"]] == [f"unix://{tmp_path}/redis.sock"]
    assert values["BROKER"] == f"redis+socket://{tmp_path}/redis.sock"
    assert values["EMAIL_BACKEND"] == "remi_site.mail.ConsoleAndFileBackend"
    assert values["SECURE_SSL_REDIRECT"] is False


def test_production_uses_postgres_redis_and_secure_defaults():
    values = read_settings(PRODUCTION_ENV)

    assert values["DEBUG"] is False
    assert values["ENGINE"] == "django.db.backends.postgresql"
    # A psycopg pool per process (ASGI runs each request in its own thread, so
    # persistent per-thread connections would pile up), hence no CONN_MAX_AGE.
    assert values["CONN_MAX_AGE"] == 0
    # A request's query is never handed to parallel workers (their start is the cost).
    assert values["DB_SESSION"] == "-c max_parallel_workers_per_gather=0"
    assert values["ALLOWED_HOSTS"] == ["remi.example.com"]
    assert values["CACHE"] == values["BROKER"] == "redis://cache.internal:6379/0"
    assert values["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert values["SECURE_SSL_REDIRECT"] is True
    assert values["SESSION_COOKIE_SECURE"] is True


def test_the_embedded_default_makes_its_secret_key_once_and_keeps_it(tmp_path):
    first = read_settings({"REMI_VAR_DIR": str(tmp_path)})
    again = read_settings({"REMI_VAR_DIR": str(tmp_path)})
    elsewhere = read_settings({"REMI_VAR_DIR": str(tmp_path / "other")})

    assert len(str(first["SECRET_KEY"])) >= 50
    assert "insecure" not in str(first["SECRET_KEY"])
    assert again["SECRET_KEY"] == first["SECRET_KEY"]
    assert elsewhere["SECRET_KEY"] != first["SECRET_KEY"]
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0


def test_debug_pages_only_when_asked_for(tmp_path):
    asked = read_settings({"REMI_VAR_DIR": str(tmp_path), "DEBUG": "true"})

    assert asked["DEBUG"] is True
    assert asked["SECURE_SSL_REDIRECT"] is False


def test_importing_the_engine_does_not_import_django():
    result = run_python("import sys, games.engine; print('django' in sys.modules)", {})

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def test_collectstatic_works_in_production(tmp_path):
    env = {**PRODUCTION_ENV, "STATIC_ROOT": str(tmp_path)}

    result = run_python("", env, "manage.py", "collectstatic", "--noinput", "-v", "0")

    assert result.returncode == 0, result.stderr
    manifest = json.loads((tmp_path / "staticfiles.json").read_text())
    assert manifest["paths"]["css/site.css"].startswith("css/site.")
    assert (tmp_path / "drf_spectacular_sidecar").is_dir()  # the offline API docs


@pytest.mark.django_db
def test_a_request_query_runs_in_its_connections_own_process():
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SHOW max_parallel_workers_per_gather")
        assert cursor.fetchone() == ("0",)
