"""What a move writes to PostgreSQL, made smaller (docs/performance.md, "PostgreSQL's
share of a move").

- ``games_move`` and ``games_deal`` lose the index of their ``game`` foreign key: the
  unique (game, ply) and (game, number) indexes lead with it and serve every query and
  every cascade by game. A move inserts a row into ``games_move``: one index fewer.
- ``game_bot_to_move`` is keyed on ``id`` instead of ``updated_at``, which every move
  changes: PostgreSQL updates a row in place of its old version (a heap-only update,
  with no new entry in any index) only when no column an index names has changed.
- ``games_game`` loses the ``varchar_pattern_ops`` copy of its public id's unique
  index, which only a ``LIKE 'prefix%'`` could use (nothing asks one; the admin's
  search is a ``UPPER(...) LIKE '%...%'``, which no index serves).
- ``games_game`` and ``games_deal`` leave a quarter of each new page free, so that the
  row a move updates finds room for its new version on its own page, as a heap-only
  update needs. (Pages already full keep their rows until they are rewritten.)

The last two are PostgreSQL's own; the embedded SQLite has neither.
"""

from typing import Any

from django.db import migrations, models

_FILLFACTOR = 75
_TABLES = ("games_game", "games_deal")


def _like_index(schema_editor: Any, apps: Any) -> tuple[str, str, str]:
    game = apps.get_model("games", "Game")
    column = game._meta.get_field("public_id").column
    table = game._meta.db_table
    name = schema_editor._create_index_name(table, [column], suffix="_like")
    return schema_editor.quote_name(name), schema_editor.quote_name(table), column


def _forwards(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    name, _table, _column = _like_index(schema_editor, apps)
    schema_editor.execute(f"DROP INDEX IF EXISTS {name}")
    for table in _TABLES:
        schema_editor.execute(f"ALTER TABLE {table} SET (fillfactor = {_FILLFACTOR})")


def _backwards(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    name, table, column = _like_index(schema_editor, apps)
    schema_editor.execute(
        f'CREATE INDEX IF NOT EXISTS {name} ON {table} ("{column}" varchar_pattern_ops)'
    )
    for table_name in _TABLES:
        schema_editor.execute(f"ALTER TABLE {table_name} RESET (fillfactor)")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0021_deal_review"),
    ]

    operations = [
        migrations.AlterField(
            model_name="deal",
            name="game",
            field=models.ForeignKey(
                db_index=False,
                on_delete=models.CASCADE,
                related_name="deals",
                to="games.game",
            ),
        ),
        migrations.AlterField(
            model_name="move",
            name="game",
            field=models.ForeignKey(
                db_index=False,
                on_delete=models.CASCADE,
                related_name="moves",
                to="games.game",
            ),
        ),
        migrations.RemoveIndex(model_name="game", name="game_bot_to_move"),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(
                condition=models.Q(("bot_to_move", True), ("status", "active")),
                fields=["id"],
                name="game_bot_to_move",
            ),
        ),
        migrations.RunPython(_forwards, _backwards, elidable=False),
    ]
