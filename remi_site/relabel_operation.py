"""A migration operation for the words a model's fields show their readers.

Django keeps a field's verbose name, help text and choices' labels in the migration
state, so a change to them is an ``AlterField`` each. Each one re-renders the model and
every model related to it. The admin's translated names were 289 of them, and they made
a new database's ``migrate`` take twice as long: ``make run``'s first start, a deployment
and every test database. ``Relabel`` changes all of one model's fields in one step and
renders the model once. It writes no SQL, and it refuses a field whose change would
need some: it compares everything but ``Field.non_db_attrs``.
"""

from __future__ import annotations

from typing import Any

from django.db.migrations.operations.base import Operation
from django.db.migrations.state import ProjectState
from django.db.migrations.utils import field_is_referenced  # type: ignore[attr-defined]
from django.db.models import Field


def _stored_part(field: Field[Any, Any]) -> dict[str, Any]:
    """What of a field reaches the database: its definition without the words."""
    _name, path, args, kwargs = field.deconstruct()
    kept = {key: value for key, value in kwargs.items() if key not in field.non_db_attrs}
    return {"path": path, "args": args, "kwargs": kept}


class Relabel(Operation):
    """New words (verbose names, help texts, choices) for some fields of one model."""

    reduces_to_sql = False
    reversible = True

    def __init__(self, model_name: str, fields: list[tuple[str, Field[Any, Any]]]) -> None:
        self.model_name = model_name
        self.fields = fields

    def deconstruct(self) -> tuple[str, list[Any], dict[str, Any]]:
        return (self.__class__.__name__, [], {"model_name": self.model_name, "fields": self.fields})

    def state_forwards(self, app_label: str, state: ProjectState) -> None:
        model_key = (app_label, self.model_name.lower())
        fields = state.models[model_key].fields
        render_related = False
        for name, field in self.fields:
            old_field = fields[name]
            if _stored_part(old_field) != _stored_part(field):
                raise ValueError(
                    f"Relabel changes how {app_label}.{self.model_name}.{name} is stored: "
                    "use AlterField"
                )
            # As ProjectState.alter_field keeps its index of relations, once it is built.
            if state._relations is not None:  # type: ignore[attr-defined]
                del fields[name]
                if old_field.is_relation:
                    state.resolve_model_field_relations(model_key, name, old_field)
                fields[name] = field
                if field.is_relation:
                    state.resolve_model_field_relations(model_key, name, field)
            else:
                fields[name] = field
            render_related |= field.is_relation or field_is_referenced(
                state, model_key, (name, field)
            )
        state.reload_model(*model_key, delay=not render_related)

    def database_forwards(
        self, app_label: str, schema_editor: Any, from_state: Any, to_state: Any
    ) -> None:
        """Nothing: the words live in the migration state only."""

    def database_backwards(
        self, app_label: str, schema_editor: Any, from_state: Any, to_state: Any
    ) -> None:
        """Nothing, as forwards."""

    def describe(self) -> str:
        return f"Relabel {', '.join(name for name, _ in self.fields)} of {self.model_name}"

    @property
    def migration_name_fragment(self) -> str:
        return f"relabel_{self.model_name.lower()}"
