"""A deal's snapshot leaves out the ruleset (the game row holds it once for the match)
and is kept as JSON text rather than ``jsonb``: it is only ever read and written whole."""

from typing import Any

from django.db import migrations

import games.fields

_STRIP = {
    "postgresql": "UPDATE games_deal SET state = state - 'ruleset'",
    "sqlite": "UPDATE games_deal SET state = json_remove(state, '$.ruleset')",
}
# Back: the column is jsonb (or JSON text) again; put each game's ruleset back in.
_RESTORE = {
    "postgresql": "UPDATE games_deal AS d SET state = jsonb_set(d.state, '{ruleset}', g.ruleset) "
    "FROM games_game AS g WHERE g.id = d.game_id",
    "sqlite": "UPDATE games_deal SET state = json_set(state, '$.ruleset', json("
    "(SELECT ruleset FROM games_game WHERE games_game.id = games_deal.game_id)))",
}


def _run(statements: dict[str, str]) -> Any:
    def run(apps: Any, schema_editor: Any) -> None:
        with schema_editor.connection.cursor() as cursor:
            cursor.execute(statements[schema_editor.connection.vendor])

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0015_seat_game_end"),
    ]

    operations = [
        migrations.RunPython(_run(_STRIP), _run(_RESTORE), elidable=False),
        migrations.AlterField(
            model_name="deal",
            name="state",
            field=games.fields.JSONTextField(),
        ),
    ]
