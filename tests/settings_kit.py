"""Python in a process of its own under a configuration of a test's choosing: the
production environment's variables, and ``run_python`` without the variables that
select a configuration (each test sets its own)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PRODUCTION_ENV = {
    "SECRET_KEY": "k3$Zq9!vB7wR2pL0xN5mT8cY4hJ6gF1dS-aQ_eW+uI*oP@zX&rV",
    "DATABASE_URL": "postgres://remi:secret@db.internal:5432/remi",
    "REDIS_URL": "redis://cache.internal:6379/0",
    "ALLOWED_HOSTS": "remi.example.com",
    "CSRF_TRUSTED_ORIGINS": "https://remi.example.com",
    "EMAIL_URL": "smtp+tls://mailer:secret@smtp.example.com:587",
    "DEFAULT_FROM_EMAIL": "Remi online <noreply@remi.example.com>",
}

# Variables that select a configuration: removed so that each test sets its own.
CONFIG_VARS = {
    "SECRET_KEY", "DATABASE_URL", "REDIS_URL", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS",
    "DEBUG", "EMAIL_URL", "DJANGO_SETTINGS_MODULE", "REMI_VAR_DIR",
}  # fmt: skip


def run_python(
    code: str, extra_env: dict[str, str], *args: str
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in CONFIG_VARS}
    env.update(extra_env)
    return subprocess.run(
        [sys.executable, *(["-c", code] if code else []), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
