"""The migrations describe the models, and new words for fields reach the migration
state the cheap way (``remi_site.relabel_operation.Relabel``): the same state as an
``AlterField`` per field, no SQL, and no migration of ours spending a re-render of the
models on each of many fields."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection, migrations, models
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.state import ProjectState

from remi_site.relabel_operation import Relabel, _stored_part

OUR_APPS = ("accounts", "games")
RELABELLED = [
    ("games", "0025_translated_names_and_labels"),
    ("accounts", "0009_admin_names_translated"),
]
# Each AlterField re-renders its model and those related to it; this many that only
# change words is where one Relabel is due (the most any migration of ours has).
MOST_WORDS_ONLY_ALTERATIONS = 3


def loader() -> MigrationLoader:
    return MigrationLoader(None, ignore_no_migrations=True)


@pytest.mark.django_db
def test_the_migrations_describe_the_models() -> None:
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


@pytest.mark.parametrize("key", RELABELLED, ids=lambda key: key[0])
def test_a_relabel_leaves_the_state_an_alter_field_per_field_would(key: tuple[str, str]) -> None:
    graph = loader()
    migration = graph.get_migration(*key)
    expected = graph.project_state(key, at_end=False)
    app = key[0]
    for operation in migration.operations:
        if isinstance(operation, Relabel):
            for name, field in operation.fields:
                migrations.AlterField(operation.model_name, name, field).state_forwards(
                    app, expected
                )
        else:
            operation.state_forwards(app, expected)

    assert any(isinstance(operation, Relabel) for operation in migration.operations)
    assert graph.project_state(key).models == expected.models


@pytest.mark.parametrize("key", RELABELLED, ids=lambda key: key[0])
def test_a_relabel_writes_no_sql(key: tuple[str, str]) -> None:
    with connection.schema_editor(collect_sql=True, atomic=False) as editor:
        graph = loader()
        migration = graph.get_migration(*key)
        migration.apply(graph.project_state(key, at_end=False), editor, collect_sql=True)

    assert [line for line in editor.collected_sql if not line.startswith("--")] == []


def test_a_relabel_refuses_a_change_the_database_would_need() -> None:
    state = loader().project_state(("games", "0025_translated_names_and_labels"))
    wider = models.CharField(max_length=400, verbose_name="public id")

    with pytest.raises(ValueError, match="games.game.public_id is stored"):
        Relabel("game", [("public_id", wider)]).state_forwards("games", state)


def words_only_alterations() -> dict[tuple[str, str], int]:
    """For each migration of ours, how many of its AlterFields change only the words."""
    graph = loader()
    plan: list[tuple[str, str]] = []
    for leaf in graph.graph.leaf_nodes():
        plan += [key for key in graph.graph.forwards_plan(leaf) if key not in plan]
    state = ProjectState(real_apps=graph.unmigrated_apps)
    counts: dict[tuple[str, str], int] = {}
    for key in plan:
        for operation in graph.graph.nodes[key].operations:
            if key[0] in OUR_APPS and isinstance(operation, migrations.AlterField):
                model: Any = state.models[key[0], operation.model_name_lower]
                if _stored_part(model.fields[operation.name]) == _stored_part(operation.field):
                    counts[key] = counts.get(key, 0) + 1
            operation.state_forwards(key[0], state)
    return counts


def test_no_migration_of_ours_re_renders_the_models_for_words_field_by_field() -> None:
    many = {
        f"{app}.{name}: {count}"
        for (app, name), count in words_only_alterations().items()
        if count > MOST_WORDS_ONLY_ALTERATIONS
    }

    assert not many, f"AlterFields that change only words, where one Relabel is due: {many}"
