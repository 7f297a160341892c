"""The embedded mode's database (SQLite) refuses to change or delete a modlog row too:
migration 0004 creates SQLite triggers there (PostgreSQL's are in test_modlog.py), and
makes the moderator group (a database that a migration alone has filled)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from accounts.moderation.roles import MODERATOR_PERMISSIONS

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_sqlite_refuses_to_update_or_delete_a_modlog_row(tmp_path: Path) -> None:
    database = tmp_path / "remi.sqlite3"
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DATABASE_URL", "DJANGO_SETTINGS_MODULE", "SECRET_KEY"))
    }
    env.update(
        DJANGO_SETTINGS_MODULE="remi_site.settings",
        DATABASE_URL=f"sqlite:///{database}",
        REMI_VAR_DIR=str(tmp_path),
    )
    migrated = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert migrated.returncode == 0, migrated.stderr

    with sqlite3.connect(database) as db:
        db.execute(
            "INSERT INTO accounts_modaction (action, reason, details, created_at) "
            "VALUES ('ban', 'spam', '{}', '2026-01-01 00:00:00')"
        )
        with pytest.raises(sqlite3.IntegrityError, match="append-only: UPDATE refused"):
            db.execute("UPDATE accounts_modaction SET reason = 'nothing'")
        with pytest.raises(sqlite3.IntegrityError, match="append-only: DELETE refused"):
            db.execute("DELETE FROM accounts_modaction")
        assert db.execute("SELECT reason FROM accounts_modaction").fetchall() == [("spam",)]
        granted = db.execute(
            "SELECT app_label || '.' || codename FROM auth_group_permissions"
            " JOIN auth_group ON auth_group.id = auth_group_permissions.group_id"
            " JOIN auth_permission ON auth_permission.id = auth_group_permissions.permission_id"
            " JOIN django_content_type ON django_content_type.id = auth_permission.content_type_id"
            " WHERE auth_group.name = 'moderator'"
        ).fetchall()
    # The data migration made the group with exactly the moderators' powers.
    assert {name for (name,) in granted} == set(MODERATOR_PERMISSIONS)
