"""What a move reads, in one statement on PostgreSQL: the game row locked, its current
deal, and its seats by position with their players, the players' play settings and
any queued draw.

The ORM can say this query (``store._seats_with_locked_game``), but then it builds the
game again from every seat's row, decodes the deal's own copy of its deck (the
snapshot holds the deck: that copy is for replays only) and walks its generic
machinery for each related object. Here the statement is written once from the
models' metadata, the game's and the deal's columns come with the first seat's row
only, and each row becomes its model instances through ``Model.from_db`` (Django's
own way in) with the converters Django would apply to each column.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import models
from django.db.models.base import ModelState
from django.db.models.signals import post_init, pre_init
from django.db.transaction import TransactionManagementError

from accounts.models import Profile
from games.models import Deal, Game, PlayerSettings, PreMove, Seat
from games.read.selectors import play_fields

# The deal's own copy of its deck, card ids and reshuffle seeds: replays read them, a
# move reads the snapshot.
_DEAL_LEFT_OUT = frozenset({"deck", "card_ids", "reshuffle_seeds"})


@dataclass(frozen=True)
class _Part:
    """One model's columns in the row: where they start, the fields' attribute names
    for ``from_db`` and each column's converters."""

    model: type[models.Model]
    start: int
    names: tuple[str, ...]
    converters: tuple[tuple[int, tuple[Callable[..., Any], ...], Any], ...]
    # Whether an instance may be made without ``Model.__init__`` (``_instance``).
    bare: bool

    @property
    def end(self) -> int:
        return self.start + len(self.names)

    def build(self, row: Sequence[Any], db: str, connection: Any) -> Any:
        values = list(row[self.start : self.end])
        if values[0] is None:  # its primary key: no such row (an outer join)
            return None
        for index, converters, expression in self.converters:
            value = values[index]
            for converter in converters:
                value = converter(value, expression, connection)
            values[index] = value
        if not self.bare:
            return self.model.from_db(db, self.names, values)
        return _instance(self.model, db, self.names, values)


def _instance(model: type[models.Model], db: str, names: Sequence[str], values: list[Any]) -> Any:
    """What ``model.from_db(db, names, values)`` makes, without ``Model.__init__``: each
    field's value set in the instance's ``__dict__`` (a field left out is deferred, as
    ``from_db`` leaves it) and its state that of a loaded row. ``__init__`` sets each
    field through its descriptor and sends ``pre_init`` and ``post_init``; a move makes
    eleven instances, and that was a fifth of its read's CPU. Only for a model nobody
    listens to those signals for (``_bare``)."""
    instance = model.__new__(model)
    instance.__dict__.update(zip(names, values, strict=True))
    state = ModelState()
    state.adding = False
    state.db = db
    instance._state = state
    return instance


def _bare(model: type[models.Model]) -> bool:
    """Whether ``_instance`` may make ``model``'s instances: no receiver of ``pre_init``
    or ``post_init`` for it (Django's own, such as an image field's dimensions or a
    generic foreign key's, connect when the models are loaded, before any request)."""
    return not (pre_init.has_listeners(model) or post_init.has_listeners(model))


@dataclass(frozen=True)
class _Statement:
    sql: str
    seat: _Part
    user: _Part
    profile: _Part
    settings: _Part
    premove: _Part
    game: _Part
    deal: _Part


def _statement(connection: Any, by_public_id: bool) -> _Statement:
    quote = connection.ops.quote_name

    def table(model: type[models.Model]) -> str:
        return quote(model._meta.db_table)

    def column(model: type[models.Model], name: str) -> str:
        field: Any = model._meta.get_field(name)
        return str(quote(field.column))

    # (The deal is joined to the first seat's row only; the game is joined to every
    # row, for the lock, but its columns are selected on the first one only.)
    tables: list[tuple[str, type[models.Model], list[Any], bool]] = [
        ("s", Seat, list(Seat._meta.concrete_fields), False),
        ("u", User, play_fields(User, "user"), False),
        ("p", Profile, play_fields(Profile, "user__profile"), False),
        ("ps", PlayerSettings, play_fields(PlayerSettings, "user__play_settings"), False),
        ("pm", PreMove, play_fields(PreMove, "premove"), False),
        ("g", Game, list(Game._meta.concrete_fields), True),
        ("d", Deal, [f for f in Deal._meta.concrete_fields if f.name not in _DEAL_LEFT_OUT], False),
    ]
    columns: list[str] = []
    parts: list[_Part] = []
    for alias, model, fields, first_row_only in tables:
        assert fields[0].primary_key, "a part's first column tells whether its row exists"
        converters = []
        for index, field in enumerate(fields):
            expression = field.get_col(alias)
            found = tuple(
                connection.ops.get_db_converters(expression)
                + expression.get_db_converters(connection)
            )
            if found:
                converters.append((index, found, expression))
            selected = f"{alias}.{quote(field.column)}"
            if first_row_only:  # the other rows' copies would be decoded for nothing
                selected = f"CASE WHEN s.{column(Seat, 'position')} = 0 THEN {selected} END"
            columns.append(selected)
        parts.append(
            _Part(
                model,
                len(columns) - len(fields),
                tuple(f.attname for f in fields),
                tuple(converters),
                _bare(model),
            )
        )

    pk = quote("id")
    where = f"g.{column(Game, 'public_id')}" if by_public_id else f"g.{pk}"
    sql = (
        f"SELECT {', '.join(columns)} FROM {table(Seat)} s "
        f"JOIN {table(Game)} g ON g.{pk} = s.{column(Seat, 'game')} "
        f"JOIN {table(User)} u ON u.{pk} = s.{column(Seat, 'user')} "
        f"LEFT JOIN {table(Profile)} p ON p.{column(Profile, 'user')} = u.{pk} "
        f"LEFT JOIN {table(PlayerSettings)} ps ON ps.{column(PlayerSettings, 'user')} = u.{pk} "
        f"LEFT JOIN {table(PreMove)} pm ON pm.{column(PreMove, 'seat')} = s.{pk} "
        f"LEFT JOIN {table(Deal)} d ON d.{column(Deal, 'game')} = g.{pk} "
        f"AND d.{column(Deal, 'number')} = g.{column(Game, 'deal_number')} "
        f"AND s.{column(Seat, 'position')} = 0 "
        f"WHERE {where} = %s ORDER BY s.{column(Seat, 'position')} FOR UPDATE OF g"
    )
    return _Statement(sql, *parts)


_statements: dict[tuple[str, bool], _Statement] = {}


def _statement_for(connection: Any, by_public_id: bool) -> _Statement:
    key = (connection.alias, by_public_id)
    found = _statements.get(key)
    if found is None:
        found = _statements[key] = _statement(connection, by_public_id)
    return found


_PROFILE = User._meta.get_field("profile")
_PLAY_SETTINGS = User._meta.get_field("play_settings")
_PREMOVE = Seat._meta.get_field("premove")
_SEAT_GAME = Seat._meta.get_field("game")
_SEAT_USER = Seat._meta.get_field("user")
_DEAL_GAME = Deal._meta.get_field("game")
_PROFILE_USER = Profile._meta.get_field("user")
_SETTINGS_USER = PlayerSettings._meta.get_field("user")
_PREMOVE_SEAT = PreMove._meta.get_field("seat")


def read_locked(connection: Any, game: int | str) -> tuple[Game, Deal | None, list[Seat]] | None:
    """The game ``game`` (its primary key, or its public id) locked, its current deal
    (None before the first) and its seats by position, each with its player (and
    their profile and play settings) and any queued draw, related as
    ``select_related`` relates them; None when the game has no seat 0 (not found,
    or a lobby without its host)."""
    if connection.get_autocommit():
        # As Django refuses select_for_update outside a transaction: the lock would end
        # with the statement.
        raise TransactionManagementError("a move's read locks the game: run it in a transaction")
    statement = _statement_for(connection, isinstance(game, str))
    with connection.cursor() as cursor:
        cursor.execute(statement.sql, [game])
        rows = cursor.fetchall()
    if not rows or rows[0][statement.seat.start + _POSITION] != 0:
        return None
    db = connection.alias
    first = rows[0]
    locked = statement.game.build(first, db, connection)
    deal = statement.deal.build(first, db, connection)
    if deal is not None:
        _DEAL_GAME.set_cached_value(deal, locked)
        # The snapshot's text as stored and what it was read into, for
        # ``store.restore`` to know it again (while the state is not replaced).
        deal.__dict__[SNAPSHOT_TEXT] = (first[statement.deal.start + _STATE], deal.state)
    seats = []
    for row in rows:
        seat = statement.seat.build(row, db, connection)
        user = statement.user.build(row, db, connection)
        _relate(user, _PROFILE, _PROFILE_USER, statement.profile.build(row, db, connection))
        _relate(user, _PLAY_SETTINGS, _SETTINGS_USER, statement.settings.build(row, db, connection))
        _relate(seat, _PREMOVE, _PREMOVE_SEAT, statement.premove.build(row, db, connection))
        _SEAT_GAME.set_cached_value(seat, locked)
        _SEAT_USER.set_cached_value(seat, user)
        seats.append(seat)
    return locked, deal, seats


_POSITION = [f.name for f in Seat._meta.concrete_fields].index("position")
_STATE = [f.name for f in Deal._meta.concrete_fields if f.name not in _DEAL_LEFT_OUT].index("state")
# Where a deal read by ``read_locked`` keeps its snapshot's text.
SNAPSHOT_TEXT = "_snapshot_text"


def _relate(owner: Any, reverse: Any, forward: Any, related: Any) -> None:
    """``owner``'s reverse one-to-one cache set to ``related`` (None: there is none,
    so that reading it raises ``DoesNotExist`` without a query), and back."""
    reverse.set_cached_value(owner, related)
    if related is not None:
        forward.set_cached_value(related, owner)
