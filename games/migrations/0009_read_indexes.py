"""Indexes of the reads that must not grow with the site (``bench/scale.py``).

- ``game_finished``: the ids of the games that ended, with their status and end: a
  player's recent games look up whether and when each of their games finished, one
  index-only probe per seat (its condition has no parameter: a prepared statement's
  generic plan can use it too).
- On other apps' tables, in SQL (their models keep their own migrations):
  ``auth_user_username_upper``, a player's page finds the user by username in any
  case (``username__iexact``, which PostgreSQL runs as ``UPPER(username::text) =
  UPPER(%s)``); ``auth_user_id_username``, the players' names of a list of seats by
  index-only probes (not a scan of every user); ``rating_change_user_latest``, a
  player's latest rating changes in ``RatingChange.Meta.ordering`` (newest first,
  ties by id), so that even a prepared statement's generic plan reads ``limit``
  entries instead of sorting all of a veteran's.
"""

from django.db import migrations, models


def _on_postgresql(sql):
    """Run ``sql`` on PostgreSQL only: the embedded SQLite has neither ``::`` casts nor
    ``INCLUDE``, and its ``iexact`` is a ``LIKE``."""

    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_to_move"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("accounts", "0002_ratings_and_external_bots"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="game",
            index=models.Index(
                condition=models.Q(finished_at__isnull=False),
                fields=["id"],
                include=["status", "finished_at"],
                name="game_finished",
            ),
        ),
        migrations.RunPython(
            _on_postgresql(
                'CREATE INDEX "auth_user_username_upper" ON "auth_user" (UPPER("username"::text))'
            ),
            _on_postgresql('DROP INDEX IF EXISTS "auth_user_username_upper"'),
        ),
        migrations.RunPython(
            _on_postgresql(
                'CREATE INDEX "auth_user_id_username" ON "auth_user" ("id") INCLUDE ("username")'
            ),
            _on_postgresql('DROP INDEX IF EXISTS "auth_user_id_username"'),
        ),
        migrations.RunSQL(
            'CREATE INDEX "rating_change_user_latest" ON "accounts_ratingchange" '
            '("user_id", "created_at" DESC, "id" DESC)',
            'DROP INDEX "rating_change_user_latest"',
        ),
    ]
