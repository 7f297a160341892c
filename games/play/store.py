"""Where a command finds, locks and saves a game: the game row locked
(``select_for_update``), its seats and current deal read with it, a deal's snapshot
created, and a move's writes in one statement on PostgreSQL (``save_play``).

The prepared queries and the fast-path SQL live here and nowhere else (with
``games.play.move_read``, the statement of what a move reads). The current
deal's engine state is cached in ``Deal.state`` (a snapshot); the deck order, card
ids and reshuffle seeds in the ``Deal`` row plus the move log are the truth and
rebuild it exactly (see ``games.read.replay``).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from typing import Any

import orjson
from django.contrib.auth.models import User
from django.db import models, transaction
from django.db.models import Case, F, FilteredRelation, Q, QuerySet, Value, When
from django.utils.translation import gettext

from accounts.models import Profile
from games.engine import Deal as EngineDeal
from games.errors import Conflict, GameNotFound, NotAllowed
from games.models import Deal, Game, Move, PlayerSettings, PreMove, Seat
from games.play import move_read
from games.read.selectors import play_fields, seats_for_play
from remi_site.prepared import PreparedQuery

# What a move may change of a game and its seats (saved with update_fields).
GAME_PLAY_FIELDS = [
    "ply",
    "deadline_at",
    "turn_started_at",
    "bot_to_move",
    "to_move",
    "deal_number",
    "deal_over_at",
    "next_deal_at",
    "deal_ready",
    "status",
    "winners",
    "end_reason",
    "finished_at",
    "updated_at",
]
SEAT_PLAY_FIELDS = ["status", "strikes", "total", "time_bank_used_ms"]


def lock(game: Game) -> Game:
    """The game row, locked until the transaction ends (``SELECT ... FOR UPDATE``)."""
    try:
        return Game.objects.select_for_update().get(pk=game.pk)
    except Game.DoesNotExist:
        raise GameNotFound(gettext("no such game")) from None


def seats(game: Game) -> list[Seat]:
    """The game's seats by position, with their users (the answer shows them) and
    what the turn's deadline and the after-commit work need of their play settings
    and queued draws."""
    return _SEATS(game.pk)


def seat_of(seats: Iterable[Seat], user: User) -> Seat | None:
    return next((seat for seat in seats if seat.user_id == user.pk), None)


def player_seat(game: Game, seats: Iterable[Seat], user: User) -> Seat:
    """``user``'s seat at ``game``; refused for anyone else (a private game is not
    even said to exist)."""
    seat = seat_of(seats, user)
    if seat is None:
        if game.is_private:
            raise GameNotFound(gettext("no such game"))
        raise NotAllowed(gettext("you are not playing in this game"), code="not_a_player")
    return seat


def _deal_with_locked_game(*, skip_locked: bool = False, **where: Any) -> QuerySet[Deal]:
    # The snapshot holds the deck too: the row's own copy is for replays only.
    return (
        Deal.objects.select_related("game")
        .select_for_update(of=("game",), skip_locked=skip_locked)
        .defer("deck", "card_ids", "reshuffle_seeds")
        .filter(number=F("game__deal_number"), **where)[:1]
    )


# The game locked with its current deal, compiled to SQL once (``lock_with_deal``).
_LOCK_BY_PUBLIC_ID = PreparedQuery(
    lambda public_id: _deal_with_locked_game(game__public_id=public_id), "\x00public-id\x00"
)
_LOCK_BY_PK = PreparedQuery(lambda pk: _deal_with_locked_game(game_id=pk), -(2**62) - 1)
_SEATS = PreparedQuery(lambda game_id: seats_for_play().filter(game_id=game_id), -(2**62) - 2)
# A timeout claims its game (skipping it when another transaction holds it) if it is
# still active at the ply the deadline belongs to, with its current deal. (A ply
# marker within the column's range: a value outside it compiles to no query at all.)
CLAIM_AT_PLY = PreparedQuery(
    lambda pk, ply: _deal_with_locked_game(
        skip_locked=True, game_id=pk, game__status=Game.Status.ACTIVE, game__ply=ply
    ),
    -(2**62) - 4,
    2**31 - 7,
)


def _left_out(path: str, model: type[models.Model]) -> list[str]:
    read = set(play_fields(model, path))
    return [f"{path}__{f.name}" for f in model._meta.concrete_fields if f not in read]


# ``only()`` does not take a relation joined with a condition: what a move reads, said
# by the columns it leaves out. (Nor does ``defer()`` reach into that relation: the
# deal's own copy of its deck, ids and seeds comes along, about a kilobyte, once.)
_MOVE_DEFERRED = (
    *_left_out("user", User),
    *_left_out("user__profile", Profile),
    *_left_out("user__play_settings", PlayerSettings),
    *_left_out("premove", PreMove),
)


def _seats_with_locked_game(**where: Any) -> QuerySet[Seat]:
    # Each row: a seat, its player and any queued draw (as ``seats`` reads them), and
    # the game row (locked); the current deal is joined to the row
    # of seat 0 only, so that its columns come once (a dealt game has every seat from
    # 0 up: ``lock_for_move`` reads another way any game without one).
    return (
        Seat.objects.annotate(
            current_deal=FilteredRelation(
                "game__deals",
                condition=Q(
                    game__deals__number=Case(
                        When(position=0, then=F("game__deal_number")), default=Value(-1)
                    )
                ),
            )
        )
        .select_related(  # type: ignore[misc]  # the stubs know no filtered relation
            "game", "current_deal", "premove", "user__profile", "user__play_settings"
        )
        .defer(*_MOVE_DEFERRED)
        .select_for_update(of=("game",))
        .filter(**where)
        .order_by("position")
    )


_MOVE_BY_PUBLIC_ID = PreparedQuery(
    lambda public_id: _seats_with_locked_game(game__public_id=public_id), "\x00public-id\x00"
)
_MOVE_BY_PK = PreparedQuery(lambda pk: _seats_with_locked_game(game_id=pk), -(2**62) - 5)


def lock_for_move(game: Game | str) -> tuple[Game, Deal | None, list[Seat]]:
    """The game row locked, its current deal (None before the first) and its seats by
    position (as ``seats`` reads them), in one query: what a move reads. ``game`` may
    be its public id."""
    connection = transaction.get_connection()
    if connection.vendor == "postgresql":
        found = move_read.read_locked(connection, game if isinstance(game, str) else game.pk)
    else:
        found = read_joined(game)
    if found is None:
        # No seat 0 (a game not found, or a lobby missing its host): read as ever.
        locked, row = lock_with_deal(game)
        return locked, row, seats(locked)
    return found


def read_joined(game: Game | str) -> tuple[Game, Deal | None, list[Seat]] | None:
    """What ``lock_for_move`` reads, as the ORM reads it (any database): None when the
    game has no seat 0."""
    rows = _MOVE_BY_PUBLIC_ID(game) if isinstance(game, str) else _MOVE_BY_PK(game.pk)
    if not rows or rows[0].position != 0:
        return None
    locked = rows[0].game
    # (A seat without a deal joined has no attribute at all.)
    current: Deal | None = getattr(rows[0], "current_deal", None)
    for seat in rows:
        seat.game = locked
    if current is not None:
        current.game = locked
    return locked, current, rows


def lock_with_deal(game: Game | str) -> tuple[Game, Deal | None]:
    """The game row locked, and its current deal, in one query (a join on the deal
    being played). ``game`` may be its public id. A game not yet dealt has no deal."""
    rows = _LOCK_BY_PUBLIC_ID(game) if isinstance(game, str) else _LOCK_BY_PK(game.pk)
    row = rows[0] if rows else None
    if row is not None:
        return row.game, row
    if isinstance(game, str):
        found = Game.objects.filter(public_id=game).first()
        if found is None:
            raise GameNotFound(gettext("no such game"))
        game = found
    return lock(game), None


def current_deal(game: Game) -> Deal:
    # The snapshot holds the deck too: the row's own copy is for replays only.
    return Deal.objects.defer("deck", "card_ids", "reshuffle_seeds").get(
        game=game, number=game.deal_number
    )


def lock_at_ply(game: Game, expected_ply: int) -> tuple[Game, list[Seat]] | None:
    """The locked game and its seats, if it is still active at ``expected_ply`` (the
    guard of the system's own moves: a sweep or timer acts only on what it saw)."""
    game = lock(game)
    if game.status != Game.Status.ACTIVE or game.ply != expected_ply:
        return None
    return game, seats(game)


def deal_create(game: Game, deal: EngineDeal, *, number: int) -> Deal:
    game.deal_number = number
    row = Deal.objects.create(
        game=game,
        number=number,
        dealer=deal.dealer,
        deck=[str(card) for card in deal.deck],
        card_ids=list(deal.card_ids),
        reshuffle_seeds=list(deal.reshuffle_seeds),
        state=deal.to_dict(with_ruleset=False),
    )
    return row


# The engine deal of each of the last snapshots this process saved (by deal row): a
# move's next read finds its snapshot's text unchanged when the previous move of the
# game was saved here, and takes the deal as it was instead of building it again from
# the text and the game's ruleset (``Deal.restore``: 0.07 ms of the web process's CPU,
# 3 % of a move's). The engine's deals are immutable, and a snapshot is the whole
# state of its deal (tests/engine/test_snapshots.py): the same text, the same deal. A
# game whose moves go through several processes finds it when its last move went
# through the same one; a move rolled back leaves a text that no read finds.
_SAVED_DEALS: dict[int, tuple[str, EngineDeal, Any]] = {}
_SAVED_DEALS_KEPT = 512
_saved_deals_lock = threading.Lock()


def restore(game: Game, row: Deal) -> EngineDeal:
    """``row``'s engine deal: the one this process saved as the very snapshot the row
    holds (read by ``lock_for_move``), else built from it (``Deal.restore``)."""
    read: tuple[str, Any] | None = row.__dict__.get(move_read.SNAPSHOT_TEXT)
    if read is not None and read[1] is row.state:
        saved = _SAVED_DEALS.get(row.pk)
        # (The same match's ruleset too, as the game row holds it.)
        if saved is not None and saved[0] == read[0] and saved[2] == _ruleset_text(game):
            return saved[1]
    return row.restore(game.engine_ruleset())


def _ruleset_text(game: Game) -> bytes:
    return orjson.dumps(game.ruleset, option=orjson.OPT_SORT_KEYS)


def _saved(game: Game, row: Deal, text: str) -> None:
    """Remember the engine deal whose snapshot ``text`` was saved for ``row`` (a deal
    of a match is built from its game's ruleset: ``Game.engine_ruleset``)."""
    deal = row.kept()
    with _saved_deals_lock:
        _SAVED_DEALS.pop(row.pk, None)
        if deal is None:
            return
        _SAVED_DEALS[row.pk] = (text, deal, _ruleset_text(game))
        while len(_SAVED_DEALS) > _SAVED_DEALS_KEPT:
            del _SAVED_DEALS[next(iter(_SAVED_DEALS))]


def save_play(game: Game, row: Deal, moves: Sequence[Move]) -> None:
    """The writes of a move (or of a whole turn) in one statement on PostgreSQL: insert
    ``moves`` (a unique index refuses a reused idempotency key: ``IntegrityError``),
    save the current deal's snapshot, save the game (``GAME_PLAY_FIELDS``); without
    moves (a server's turn, its moves inserted already), the last two. Elsewhere (the
    embedded SQLite), a statement each. Values are prepared by the model fields, as
    ``save()`` prepares them (``auto_now`` fields included); no model has save signals.
    """
    connection = transaction.get_connection()
    if connection.vendor != "postgresql":
        for move in moves:
            move.save(force_insert=True)
        row.save(update_fields=["state"])
        game.save(update_fields=GAME_PLAY_FIELDS)
        return
    move_fields, state_field, game_fields, sql = _play_statement(connection, len(moves))
    params = []
    for move in moves:
        params += _values(move, move_fields, connection, adding=True)
    text = state_field.get_db_prep_save(row.state, connection)
    params += [text, row.pk]
    params += _values(game, game_fields, connection, adding=False)
    params.append(game.pk)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchone()
    if found is None:  # pragma: no cover - the game row is locked by this transaction
        raise Conflict(gettext("the game was not saved"), code="conflict")
    _saved(game, row, text)
    # The moves' ids in the order of their values (one statement draws them in order).
    for move, pk in zip(moves, found[0] if moves else (), strict=True):
        move.pk = pk
        move._state.adding = False
        move._state.db = connection.alias


# How the hottest write prepares a field's value. ``save()`` runs every field's
# ``pre_save`` and ``get_db_prep_save``; for most of a move's fields both return the
# value as the model holds it (preparing all of them was 4 % of a move's profiled time
# in ``bench/move_cost.py --cprofile``).
_AS_HELD = 0  # the driver takes the value as it is (numbers, text, keys)
_NONE_AS_HELD = 1  # a null is sent as it is; any other value is prepared
_PREPARED = 2  # always prepared (JSON, timestamps set on save)
_AS_HELD_FIELDS = (models.BooleanField, models.CharField, models.ForeignKey, models.IntegerField)


def _preparation(field: Any) -> int:
    if isinstance(field, _AS_HELD_FIELDS):
        return _AS_HELD
    stamped = getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False)
    if isinstance(field, models.DateTimeField) and not stamped:
        return _NONE_AS_HELD
    return _PREPARED


def _values(obj: Any, fields: list[tuple[Any, int]], connection: Any, *, adding: bool) -> list[Any]:
    values = []
    for field, preparation in fields:
        value = getattr(obj, field.attname)
        if preparation == _PREPARED or (preparation == _NONE_AS_HELD and value is not None):
            value = field.get_db_prep_save(field.pre_save(obj, adding), connection)
        values.append(value)
    return values


_play_statements: dict[tuple[str, int], Any] = {}


def _play_statement(connection: Any, moves: int) -> Any:
    """``save_play``'s statement for ``moves`` moves (a turn has a few), built once."""
    found = _play_statements.get((connection.alias, moves))
    if found is not None:
        return found
    quote = connection.ops.quote_name
    move_fields = [f for f in Move._meta.concrete_fields if not f.primary_key]
    state_field: Any = Deal._meta.get_field("state")
    game_fields: list[Any] = [Game._meta.get_field(name) for name in GAME_PLAY_FIELDS]
    columns = ", ".join(quote(f.column) for f in move_fields)
    values = ", ".join([f"({', '.join(['%s'] * len(move_fields))})"] * moves)
    sets = ", ".join(f"{quote(f.column)} = %s" for f in game_fields)
    move_pk = quote(Move._meta.pk.column)
    insert = (
        f"m AS (INSERT INTO {quote(Move._meta.db_table)} ({columns}) VALUES {values} "
        f"RETURNING {move_pk}), "
    )
    sql = (
        f"WITH {insert if moves else ''}"
        f"d AS (UPDATE {quote(Deal._meta.db_table)} SET {quote(state_field.column)} = %s "
        f"WHERE {quote(Deal._meta.pk.column)} = %s) "
        f"UPDATE {quote(Game._meta.db_table)} SET {sets} "
        f"WHERE {quote(Game._meta.pk.column)} = %s RETURNING "
        + (
            f"(SELECT array_agg({move_pk} ORDER BY {move_pk}) FROM m)"
            if moves
            else quote(Game._meta.pk.column)
        )
    )
    found = (
        [(f, _preparation(f)) for f in move_fields],
        state_field,
        [(f, _preparation(f)) for f in game_fields],
        sql,
    )
    _play_statements[(connection.alias, moves)] = found
    return found
