"""Every write to games, seats, deals and moves.

Each public function is one transaction: it locks the game row
(``select_for_update``), checks the request against the locked state (the
expected ``ply`` for moves), calls the engine, appends to the move log, saves
the deal snapshot and the seats' totals, and registers its notifications to
run after commit (``games.live.outbox``). Views, consumers, tasks, admin actions
and bots all come through here; nothing else writes these tables.

The current deal's engine state is cached in ``Deal.state`` (a snapshot);
the deck order, card ids and reshuffle seeds in the ``Deal`` row plus the
move log are the truth and rebuild it exactly (see ``games.read.replay``).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import F, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import is_builtin_bot
from games import clock, ratings, stats
from games.bots import server_moves
from games.chips import services as chips
from games.engine import (
    PRESETS,
    Action,
    IllegalAction,
    Match,
    Ruleset,
    action_from_dict,
)
from games.engine import Deal as EngineDeal
from games.engine.scoring import DealResult
from games.engine.seating import SeatingDraw, draw_cards
from games.errors import (
    Conflict,
    GameNotFound,
    IdempotencyKeyReused,
    InvalidRequest,
    NotAllowed,
    StalePly,
    illegal_move,
)
from games.live import outbox, publisher
from games.models import Deal, Game, Move, PlayerSettings, Seat, new_invite_code
from games.play import sanctions
from games.read.results import deal_result
from games.read.selectors import seats_for_play
from remi_site.prepared import PreparedQuery

# Default time controls (the live-play part enforces them).
DEFAULT_SECONDS_PER_TURN = 60
DEFAULT_DAYS_PER_MOVE = 3
MAX_SECONDS_PER_TURN = 3600
MAX_DAYS_PER_MOVE = 14
MAX_STRIKE_LIMIT = 10
MAX_ABSENT_WAIT_S = 1800
MAX_TIME_BANK_S = 600

# What a move may change of a game and its seats (saved with update_fields).
_GAME_PLAY_FIELDS = [
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
_SEAT_PLAY_FIELDS = ["status", "strikes", "total", "time_bank_used_ms"]

# Ruleset fields a house rule may not change: the preset's identity.
_FIXED_RULESET_FIELDS = frozenset({"name"})


# ------------------------------------------------------------------ shuffling


def deal_source(ruleset: Ruleset, players: int, *, dealer: int | None, number: int) -> EngineDeal:
    """Shuffle and deal deal ``number`` of a match with the OS's randomness (``secrets``).

    ``dealer`` is None for the first deal: the engine's ``Match`` decides who deals
    it (the last seat, or a random one where the ruleset draws for the start).
    Tests replace this function to get seeded or scripted deals.
    """
    rng = secrets.SystemRandom()
    if dealer is None:
        return Match.new(ruleset, players, rng=rng).deal
    return EngineDeal.new(ruleset, players, dealer=dealer, rng=rng)


def seating_source(players: int) -> SeatingDraw:
    """Draw a card for each player (``secrets``), ties again, where the ruleset seats
    players by drawn cards. Tests replace this function to script the draw."""
    return SeatingDraw.from_draws(draw_cards(players, secrets.SystemRandom()))


# ------------------------------------------------------------------ results


@dataclass
class ActResult:
    """What ``game_act`` did: the move logged for the request (the first result again
    for a retried idempotency key), and the engine state after everything it caused."""

    game: Game
    seat: Seat
    move: Move
    replayed: bool = False
    deal: EngineDeal | None = None
    seats: list[Seat] = field(default_factory=list)
    # Views of ``deal`` per seat built by the after-commit work (shared with the answer).
    views: dict[int, dict[str, Any]] = field(default_factory=dict)


# ------------------------------------------------------------------ create, join, leave


def game_create(
    *,
    owner: User,
    preset: str,
    overrides: Mapping[str, Any] | None = None,
    players: int,
    visibility: str = Game.Visibility.PUBLIC,
    time_control: str = Game.TimeControl.CORRESPONDENCE,
    seconds_per_turn: int | None = None,
    days_per_move: int | None = None,
    rated: bool = False,
    bots: Sequence[User] = (),
    strike_limit: int | None = None,
    absent_wait_s: int | None = None,
    time_bank_s: int | None = None,
    stake: int = 0,
) -> Game:
    """A new game in the lobby with ``owner`` in seat 0 (and ``bots`` in the next seats).

    The ruleset is the preset with the house-rule ``overrides`` (JSON values, as
    ``Ruleset.to_dict`` writes them), stored whole: editing a preset later never
    changes this game. ``stake``: the chips each player puts into the pot when the
    game starts (``games.chips``); everyone seated must be able to cover it.
    """
    ruleset = ruleset_build(preset=preset, overrides=overrides or {})
    if not ruleset.min_players <= players <= ruleset.max_players:
        raise InvalidRequest(
            gettext("%(preset)s is played by %(min_players)s to %(max_players)s players")
            % {
                "preset": preset,
                "min_players": ruleset.min_players,
                "max_players": ruleset.max_players,
            },
            code="invalid_players",
        )
    if visibility not in Game.Visibility.values:
        raise InvalidRequest(
            gettext("unknown visibility %(visibility)s") % {"visibility": repr(visibility)},
            code="invalid_visibility",
        )
    seconds_per_turn, days_per_move = _time_control_check(
        time_control, seconds_per_turn, days_per_move
    )
    _timeout_policy_check(time_control, strike_limit, absent_wait_s)
    _time_bank_check(time_control, time_bank_s)
    if len(bots) > players - 1:
        raise InvalidRequest(gettext("more bots than free seats"), code="too_many_bots")
    for bot in bots:
        if not is_builtin_bot(bot):
            raise InvalidRequest(gettext("%(bot)s is not a bot") % {"bot": bot}, code="not_a_bot")
    if rated and bots:
        # The server plays for built-in bots: a rated game is between players only.
        raise InvalidRequest(
            gettext("a rated game cannot seat built-in bots; make it casual (rated: false)"),
            code="rated_with_bots",
        )
    if rated:
        sanctions.playban_check(user=owner)
    chips.stake_check(stake)

    with transaction.atomic():
        chips.stake_affordable(users=[owner, *bots], stake=stake)
        game = Game.objects.create(
            preset=preset,
            ruleset=ruleset.to_dict(),
            players=players,
            visibility=visibility,
            invite_code=new_invite_code() if visibility == Game.Visibility.PRIVATE else "",
            owner=owner,
            time_control=time_control,
            seconds_per_turn=seconds_per_turn,
            days_per_move=days_per_move,
            rated=rated,
            strike_limit=strike_limit,
            absent_wait_s=absent_wait_s,
            time_bank_s=time_bank_s or 0,
            stake=stake,
        )
        Seat.objects.bulk_create(
            Seat(game=game, user=user, position=position)
            for position, user in enumerate([owner, *bots])
        )
    return game


def ruleset_build(*, preset: str, overrides: Mapping[str, Any]) -> Ruleset:
    """The preset with house-rule overrides; ``InvalidRequest`` names what is wrong."""
    if preset not in PRESETS:
        raise InvalidRequest(
            gettext("unknown preset %(preset)s (one of %(value)s)")
            % {"preset": repr(preset), "value": ", ".join(PRESETS)},
            code="unknown_preset",
        )
    fixed = _FIXED_RULESET_FIELDS & set(overrides)
    if fixed:
        raise InvalidRequest(
            gettext("a house rule cannot change %(value)s") % {"value": ", ".join(sorted(fixed))},
            code="invalid_ruleset",
        )
    data = {**PRESETS[preset].to_dict(), **overrides}
    try:
        ruleset = Ruleset.from_dict(data)
        # A trial deal proves the switches fit together (enough cards for the hands...).
        EngineDeal.new(ruleset, ruleset.max_players, dealer=0, rng=secrets.SystemRandom())
        EngineDeal.new(ruleset, ruleset.min_players, dealer=0, rng=secrets.SystemRandom())
        ruleset.deals_in_match(ruleset.min_players)
        if min(ruleset.match_deals) < 1:
            raise ValueError("a match has at least one deal")
    except (ValueError, TypeError, IndexError) as error:
        raise InvalidRequest(
            gettext("invalid house rules: %(error)s") % {"error": error}, code="invalid_ruleset"
        ) from None
    return ruleset


def _time_control_check(
    kind: str, seconds_per_turn: int | None, days_per_move: int | None
) -> tuple[int | None, int | None]:
    if kind == Game.TimeControl.LIVE:
        seconds = DEFAULT_SECONDS_PER_TURN if seconds_per_turn is None else seconds_per_turn
        if not 10 <= seconds <= MAX_SECONDS_PER_TURN:
            raise InvalidRequest(
                gettext("seconds_per_turn must be from 10 to %(max_seconds_per_turn)s")
                % {"max_seconds_per_turn": MAX_SECONDS_PER_TURN},
                code="invalid_time_control",
            )
        return seconds, None
    if kind == Game.TimeControl.CORRESPONDENCE:
        days = DEFAULT_DAYS_PER_MOVE if days_per_move is None else days_per_move
        if not 1 <= days <= MAX_DAYS_PER_MOVE:
            raise InvalidRequest(
                gettext("days_per_move must be from 1 to %(max_days_per_move)s")
                % {"max_days_per_move": MAX_DAYS_PER_MOVE},
                code="invalid_time_control",
            )
        return None, days
    raise InvalidRequest(
        gettext("unknown time control %(kind)s") % {"kind": repr(kind)}, code="invalid_time_control"
    )


def _timeout_policy_check(kind: str, strike_limit: int | None, absent_wait_s: int | None) -> None:
    if strike_limit is not None and not 1 <= strike_limit <= MAX_STRIKE_LIMIT:
        raise InvalidRequest(
            gettext("strike_limit must be from 1 to %(max_strike_limit)s")
            % {"max_strike_limit": MAX_STRIKE_LIMIT},
            code="invalid_time_control",
        )
    if absent_wait_s is not None:
        if kind != Game.TimeControl.LIVE:
            raise InvalidRequest(
                gettext("absent_wait_s is for live games"), code="invalid_time_control"
            )
        if not 10 <= absent_wait_s <= MAX_ABSENT_WAIT_S:
            raise InvalidRequest(
                gettext("absent_wait_s must be from 10 to %(max_absent_wait_s)s")
                % {"max_absent_wait_s": MAX_ABSENT_WAIT_S},
                code="invalid_time_control",
            )


def _time_bank_check(kind: str, time_bank_s: int | None) -> None:
    if time_bank_s is None:
        return
    if kind != Game.TimeControl.LIVE:
        raise InvalidRequest(
            gettext("time_bank_s is for live games (correspondence games have no time bank)"),
            code="invalid_time_control",
        )
    if not 0 <= time_bank_s <= MAX_TIME_BANK_S:
        raise InvalidRequest(
            gettext("time_bank_s must be from 0 to %(max_time_bank_s)s seconds")
            % {"max_time_bank_s": MAX_TIME_BANK_S},
            code="invalid_time_control",
        )


def game_join(*, game: Game, user: User, invite_code: str | None = None) -> Seat:
    """Take a free seat in the lobby, or come back to one's own seat of a running game.

    Joining is idempotent. A private game needs its invite code; without it the
    game does not exist for the user (``GameNotFound``). A seat that was left
    keeps its total: rejoining never resets a score.
    """
    with transaction.atomic():
        game = _lock(game)
        seats = _seats(game)
        seat = _seat_of(seats, user)
        if seat is not None:
            if seat.status == Seat.Status.OUT:
                raise NotAllowed(gettext("you resigned from this game"), code="seat_out")
            if seat.status == Seat.Status.LEFT and not game.is_over:
                seat.status = Seat.Status.ACTIVE
                seat.save(update_fields=["status"])
                _notify(game, {"type": "player_returned", "seat": seat.position})
            return seat
        if game.is_private and not secrets.compare_digest(
            (invite_code or "").encode(), game.invite_code.encode()
        ):
            raise GameNotFound(gettext("no such game"))
        if game.status != Game.Status.LOBBY:
            raise Conflict(gettext("the game has already started"), code="game_not_in_lobby")
        taken = {s.position for s in seats}
        free = [position for position in range(game.players) if position not in taken]
        if not free:
            raise Conflict(gettext("the game is full"), code="game_full")
        if game.rated:
            sanctions.playban_check(user=user)
        chips.stake_affordable(users=[user], stake=game.stake)
        try:
            with transaction.atomic():
                seat = Seat.objects.create(game=game, user=user, position=free[0])
        except IntegrityError:  # pragma: no cover - the game lock makes this impossible
            raise Conflict(gettext("the seat was just taken"), code="game_full") from None
        game.save(update_fields=["updated_at"])
        _notify(game, {"type": "player_joined", "seat": seat.position, "user": _name(user)})
    return seat


def game_leave(*, game: Game, user: User) -> None:
    """Leave a game.

    In the lobby the seat is freed (the host leaving aborts the game). In a
    running game the seat stays, with its total, marked as left: the player may
    come back with ``game_join``; until then the turn deadlines play for them.
    """
    with transaction.atomic():
        game = _lock(game)
        seat = _seat_of(_seats(game), user)
        if seat is None:
            raise NotAllowed(gettext("you are not playing in this game"), code="not_a_player")
        if game.is_over:
            raise Conflict(gettext("the game is over"), code="game_over")
        if game.status == Game.Status.LOBBY:
            if game.owner_id == user.pk:
                _abort(game, reason="host_left")
                return
            seat.delete()
            game.save(update_fields=["updated_at"])
            _notify(game, {"type": "player_left", "seat": seat.position})
            return
        if seat.status == Seat.Status.ACTIVE:
            seat.status = Seat.Status.LEFT
            seat.save(update_fields=["status"])
            game.save(update_fields=["updated_at"])
            _notify(game, {"type": "player_left", "seat": seat.position})


def game_abort(*, game: Game, user: User | None = None) -> Game:
    """End a game without a result.

    The host may abort a game in the lobby; the system (``user=None``: admin,
    moderation, the live-play policies) may abort any game not yet over.
    """
    with transaction.atomic():
        game = _lock(game)
        if game.is_over:
            raise Conflict(gettext("the game is over"), code="game_over")
        if user is not None:
            if game.owner_id != user.pk:
                raise NotAllowed(gettext("only the host may abort the game"), code="not_host")
            if game.status != Game.Status.LOBBY:
                raise Conflict(
                    gettext("a game that has started cannot be aborted; resign instead"),
                    code="game_not_in_lobby",
                )
        _abort(game, reason="aborted")
    return game


def _abort(game: Game, *, reason: str) -> None:
    stats.game_aborted(game=game)  # before the status changes: a lobby was never counted
    chips.stakes_refund(game=game)  # a lobby took no stakes: nothing to give back
    game.status = Game.Status.ABORTED
    game.end_reason = reason
    game.finished_at = timezone.now()
    game.deadline_at = None
    game.save(update_fields=["status", "end_reason", "finished_at", "deadline_at", "updated_at"])
    _notify(game, {"type": "game_aborted", "reason": reason})


# ------------------------------------------------------------------ start


def game_start(*, game: Game, user: User) -> Game:
    """The host starts a full game: every player puts the stake into the pot, the seats
    are drawn for where the ruleset says so, and the first deal is shuffled
    (``secrets``) and dealt."""
    with transaction.atomic():
        game = _lock(game)
        if game.owner_id != user.pk:
            raise NotAllowed(gettext("only the host may start the game"), code="not_host")
        if game.status != Game.Status.LOBBY:
            raise Conflict(gettext("the game has already started"), code="game_not_in_lobby")
        seats = _seats(game)
        if len(seats) < game.players:
            raise Conflict(
                gettext("%(count)s of %(players)s seats are taken")
                % {"count": len(seats), "players": game.players},
                code="not_enough_players",
            )
        if game.rated:
            for seat in seats:
                sanctions.playban_check(user=seat.user, acting=user)
        chips.stakes_take(game=game, seats=seats)
        now = timezone.now()
        game.status = Game.Status.ACTIVE
        game.started_at = now
        ruleset = game.get_ruleset()
        dealer = None
        seating = None
        if ruleset.seating_by_card_draw:
            drawn = seating_source(game.players)
            seats = _reseat(seats, drawn)
            game.seating_draw = drawn.to_dict()
            dealer = drawn.dealer
            seating = drawn.view()
        deal = deal_source(ruleset, game.players, dealer=dealer, number=1)
        _deal_create(game, deal, number=1)
        _turn_start(game, now, seats[deal.to_move])
        game.save()
        stats.game_started(game=game, seats=seats)
        _notify(game, {"type": "game_started", "deal": 1, "seating": seating})
    return game


def _reseat(seats: list[Seat], drawn: SeatingDraw) -> list[Seat]:
    """Move the players to the seats their drawn cards give (``drawn.seats``, by lobby
    seat); returns the seats in their new order. Two steps: a position is unique in a
    game at every moment."""
    moved = [seat for seat in seats if drawn.seats[seat.position] != seat.position]
    if moved:
        Seat.objects.filter(pk__in=[seat.pk for seat in moved]).update(
            position=F("position") + len(seats)
        )
        for seat in moved:
            seat.position = drawn.seats[seat.position]
        Seat.objects.bulk_update(moved, ["position"])
    return sorted(seats, key=lambda seat: seat.position)


def _deal_create(game: Game, deal: EngineDeal, *, number: int) -> Deal:
    game.deal_number = number
    row = Deal.objects.create(
        game=game,
        number=number,
        dealer=deal.dealer,
        deck=[str(card) for card in deal.deck],
        card_ids=list(deal.card_ids),
        reshuffle_seeds=list(deal.reshuffle_seeds),
        state=deal.to_dict(),
    )
    return row


# ------------------------------------------------------------------ play


def game_act(
    *,
    game: Game | str,
    user: User,
    action: Action | Mapping[str, Any],
    expected_ply: int,
    idempotency_key: str | None = None,
) -> ActResult:
    """Apply ``user``'s ``action`` if the game is still at ``expected_ply``.

    A stale ply raises ``StalePly`` (nothing applied). A repeated
    ``idempotency_key`` returns the move logged the first time, whatever the ply
    is now; the same key with another action raises ``IdempotencyKeyReused``.
    When a deal ends the next one is dealt at once (a live table first pauses: see
    ``game_deal_ready``; moves meanwhile raise ``Conflict`` ``deal_paused``), or the
    match ends. Turns of
    seats that are out (resigned) are then played by the server.

    ``game`` may be given by its public id: the game row is then read only once,
    locked (this is the hottest path of the site).
    """
    parsed = _parse_action(action)
    payload = parsed.to_dict()
    try:
        with transaction.atomic():
            return _act(game, user, parsed, payload, expected_ply, idempotency_key)
    except IntegrityError:
        # The only unique index a sound move can meet is the idempotency key's: a key
        # already used (at an earlier ply) for another request of this user.
        if idempotency_key is not None and _key_used(game, user, idempotency_key):
            raise IdempotencyKeyReused(
                gettext("this idempotency key was used for another action")
            ) from None
        raise


def _act(
    game_ref: Game | str,
    user: User,
    parsed: Action,
    payload: dict[str, Any],
    expected_ply: int,
    idempotency_key: str | None,
) -> ActResult:
    game, row = _lock_with_deal(game_ref)
    seats = _seats(game)
    seat = _seat_of(seats, user)
    if seat is None:
        if game.is_private:
            raise GameNotFound(gettext("no such game"))
        raise NotAllowed(gettext("you are not playing in this game"), code="not_a_player")
    if idempotency_key is not None and expected_ply != game.ply:
        # A retry of a move that was applied comes with the ply it was made at, now
        # stale: answer it with the move logged the first time. (A key reused with the
        # current ply can only be a new request: the insert below refuses it.)
        first = (
            Move.objects.filter(game=game, user=user, idempotency_key=idempotency_key)
            .select_related("deal")
            .first()
        )
        if first is not None:
            if first.payload != payload:
                raise IdempotencyKeyReused(
                    gettext("this idempotency key was used for another action"),
                    details={"ply": first.ply},
                )
            return ActResult(game=game, seat=seat, move=first, replayed=True, seats=seats)
    if game.status != Game.Status.ACTIVE:
        raise Conflict(gettext("the game is not being played"), code="game_not_active")
    if game.next_deal_at is not None:
        raise Conflict(
            gettext("the deal is over: the next deal starts when every player is ready"),
            code="deal_paused",
            details={"next_deal_at": game.next_deal_at.isoformat()},
        )
    if expected_ply != game.ply:
        raise StalePly(game.ply, expected_ply)
    if seat.status == Seat.Status.OUT:
        raise NotAllowed(gettext("you resigned from this game"), code="seat_out")
    assert row is not None  # an active game has a deal
    deal = EngineDeal.from_dict(row.state)
    if deal.to_move != seat.position:
        raise NotAllowed(gettext("it is not your turn"), code="not_your_turn")
    try:
        deal = deal.apply(parsed)
    except IllegalAction as error:
        raise illegal_move(error) from None

    deal_number = game.deal_number
    changed_seats: set[Seat] = set()
    if seat.status != Seat.Status.ACTIVE or seat.strikes:
        # Playing is coming back: a seat that had left is active again.
        seat.status = Seat.Status.ACTIVE
        seat.strikes = 0
        changed_seats.add(seat)
    move = _log(
        game,
        row,
        seat,
        deal,
        user=user,
        payload=payload,
        idempotency_key=idempotency_key,
        save=False,
    )
    deal, row = _after_move(
        game, row, deal, seats, changed_seats, mover=seat.position, save_deal=False
    )
    for changed in changed_seats:
        changed.save(update_fields=_SEAT_PLAY_FIELDS)
    _save_play(game, row, move)
    new_deal = game.deal_number != deal_number
    state = _committed(
        game,
        deal,
        seats,
        hands=None if new_deal else _hands_played(seats, seat),
        new_turn=new_deal or deal.to_move != seat.position,
    )
    views = state.views if state is not None else {}
    return ActResult(game=game, seat=seat, move=move, deal=deal, seats=seats, views=views)


def _save_play(game: Game, row: Deal, move: Move | None) -> None:
    """The three writes of a move in one statement on PostgreSQL: insert ``move`` (a
    unique index refuses a reused idempotency key: ``IntegrityError``), save the
    current deal's snapshot, save the game (``_GAME_PLAY_FIELDS``); without ``move``
    (a server's turn, its moves inserted already), the last two. Elsewhere (the
    embedded SQLite), a statement each. Values are prepared by the model fields, as
    ``save()`` prepares them (``auto_now`` fields included); no model has save signals.
    """
    connection = transaction.get_connection()
    if connection.vendor != "postgresql":
        if move is not None:
            move.save(force_insert=True)
        row.save(update_fields=["state"])
        game.save(update_fields=_GAME_PLAY_FIELDS)
        return
    move_fields, state_field, game_fields, sql = _play_statement(connection, move is not None)
    params = []
    if move is not None:
        params += [f.get_db_prep_save(f.pre_save(move, True), connection) for f in move_fields]
    params += [state_field.get_db_prep_save(row.state, connection), row.pk]
    params += [f.get_db_prep_save(f.pre_save(game, False), connection) for f in game_fields]
    params.append(game.pk)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchone()
    if found is None:  # pragma: no cover - the game row is locked by this transaction
        raise Conflict(gettext("the game was not saved"), code="conflict")
    if move is not None:
        move.pk = found[0]
        move._state.adding = False
        move._state.db = connection.alias


_play_statements: dict[tuple[str, bool], Any] = {}


def _play_statement(connection: Any, with_move: bool) -> Any:
    found = _play_statements.get((connection.alias, with_move))
    if found is not None:
        return found
    quote = connection.ops.quote_name
    move_fields = [f for f in Move._meta.concrete_fields if not f.primary_key]
    state_field: Any = Deal._meta.get_field("state")
    game_fields: list[Any] = [Game._meta.get_field(name) for name in _GAME_PLAY_FIELDS]
    columns = ", ".join(quote(f.column) for f in move_fields)
    values = ", ".join(["%s"] * len(move_fields))
    sets = ", ".join(f"{quote(f.column)} = %s" for f in game_fields)
    insert = (
        f"m AS (INSERT INTO {quote(Move._meta.db_table)} ({columns}) VALUES ({values}) "
        f"RETURNING {quote(Move._meta.pk.column)}), "
    )
    sql = (
        f"WITH {insert if with_move else ''}"
        f"d AS (UPDATE {quote(Deal._meta.db_table)} SET {quote(state_field.column)} = %s "
        f"WHERE {quote(Deal._meta.pk.column)} = %s) "
        f"UPDATE {quote(Game._meta.db_table)} SET {sets} "
        f"WHERE {quote(Game._meta.pk.column)} = %s RETURNING "
        + ("(SELECT * FROM m)" if with_move else quote(Game._meta.pk.column))
    )
    found = (move_fields, state_field, game_fields, sql)
    _play_statements[(connection.alias, with_move)] = found
    return found


def _key_used(game: Game | str, user: User, key: str) -> bool:
    games = Game.objects.filter(public_id=game) if isinstance(game, str) else [game]
    return Move.objects.filter(game__in=games, user=user, idempotency_key=key).exists()


def _parse_action(action: Action | Mapping[str, Any]) -> Action:
    if isinstance(action, Mapping):
        try:
            return action_from_dict(action)
        except IllegalAction as error:
            raise illegal_move(error) from None
    return action


def _log(
    game: Game,
    row: Deal,
    seat: Seat,
    deal: EngineDeal,
    *,
    user: User | None,
    payload: dict[str, Any],
    idempotency_key: str | None = None,
    save: bool = True,
) -> Move:
    """Append the move the engine just applied (``deal.last_event``) to the log
    (``save=False``: the caller inserts it, see ``_save_play``)."""
    event = deal.last_event
    assert event is not None
    game.ply += 1
    public = event.public
    private = event.private
    move = Move(
        game=game,
        ply=game.ply,
        deal=row,
        seat=seat,
        user=user,
        kind=payload["type"],
        payload=payload,
        public=public,
        private=None if private == public else private,
        idempotency_key=idempotency_key,
    )
    if save:
        move.save(force_insert=True)
    _notify(game, {"type": "move", "deal": row.number, "move": public})
    return move


def _after_move(
    game: Game,
    row: Deal,
    deal: EngineDeal,
    seats: list[Seat],
    changed: set[Seat],
    *,
    mover: int | None,
    save_deal: bool = True,
) -> tuple[EngineDeal, Deal]:
    """Save the deal after a move by seat ``mover``: end it, deal the next one (or pause
    a live table before it) or end the match; play the turns of seats that are out;
    restart the turn clock when the turn has passed. ``mover`` None: ``deal`` was just
    dealt. Returns the current engine deal and its row (``save_deal=False``: its new
    state is left for the caller to save, see ``_save_play``)."""
    new_deal = mover is None
    while True:
        if deal.is_over:
            row = _deal_finish(game, row, deal, seats, changed)
            if game.status != Game.Status.ACTIVE:
                return deal, row
            if game.next_deal_at is not None:
                if mover is not None and clock.bank_charge(game, seats[mover], timezone.now()):
                    changed.add(seats[mover])
                return deal, row
            deal = EngineDeal.from_dict(row.state)
            new_deal = True
            continue
        seat = seats[deal.to_move]
        if seat.status != Seat.Status.OUT:
            break
        # A resigned seat keeps its cards and plays on: draw, discard the worst card.
        action = server_moves.server_action(deal)
        deal = deal.apply(action)
        _log(game, row, seat, deal, user=None, payload=action.to_dict())
    row.state = deal.to_dict()
    if save_deal:
        row.save(update_fields=["state"])
    if new_deal or deal.to_move != mover:
        now = timezone.now()
        if mover is not None and clock.bank_charge(game, seats[mover], now):
            changed.add(seats[mover])
        _turn_start(game, now, seats[deal.to_move])
    return deal, row


def _deal_finish(
    game: Game, row: Deal, deal: EngineDeal, seats: list[Seat], changed: set[Seat]
) -> Deal:
    """Score a finished deal into the seats' totals, then deal the next one or end
    the match. Returns the row of the deal now current."""
    result = deal.result()
    assert result is not None
    now = timezone.now()
    row.state = deal.to_dict()
    row.result = result.to_dict()
    row.finished_at = now
    row.save(update_fields=["state", "result", "finished_at"])
    stats.deal_finished(game=game, seats=seats, result=row.result)
    for seat, score in zip(seats, result.scores, strict=True):
        seat.total += score
        changed.add(seat)

    match = _match_of(game, row, deal)
    # The game view's and the move log's own shape of the result (games.read.results).
    summary = deal_result(number=row.number, match=match)
    pause = not match.is_over and _pauses(game, seats)
    next_deal_at = now + deal_pause() if pause else None
    _notify(
        game,
        {
            "type": "deal_over",
            "deal": row.number,
            "result": summary,
            "ended_at": now.isoformat(),
            "next_deal_at": None if next_deal_at is None else next_deal_at.isoformat(),
        },
    )
    if match.is_over:
        _game_finish(game, seats, reason="completed", now=now)
        return row
    if next_deal_at is not None:
        # A live table shows the deal's summary first (docs/rules.md): the sweep or
        # the players' "ready" deals the next one.
        game.deal_over_at = now
        game.next_deal_at = next_deal_at
        game.deal_ready = []
        game.deadline_at = None
        game.turn_started_at = None
        game.to_move = None
        game.bot_to_move = False
        return row
    return _next_deal(game, row, deal, match)


def _match_of(game: Game, row: Deal, deal: EngineDeal) -> Match:
    """The match with ``deal`` (the finished deal of ``row``) as its current deal."""
    past = [
        DealResult.from_dict(r)
        for r in Deal.objects.filter(game=game, number__lt=row.number, result__isnull=False)
        .order_by("number")
        .values_list("result", flat=True)
        if r is not None
    ]
    return Match(deal, tuple(past))


def deal_pause() -> timedelta:
    """How long a live table waits between deals (``REMI_DEAL_PAUSE_SECONDS``)."""
    return timedelta(seconds=float(settings.REMI_DEAL_PAUSE_SECONDS))


def _pauses(game: Game, seats: Sequence[Seat]) -> bool:
    """A live table with a person still in it pauses between deals; bots never wait,
    and a correspondence game deals the next one at once."""
    return (
        game.time_control == Game.TimeControl.LIVE
        and deal_pause() > timedelta(0)
        and bool(_people_in(seats))
    )


def _people_in(seats: Sequence[Seat]) -> list[int]:
    """The positions of the persons (not bots) still in the game."""
    return [
        seat.position
        for seat in seats
        if seat.status != Seat.Status.OUT and not is_builtin_bot(seat.user)
    ]


def _next_deal(game: Game, row: Deal, deal: EngineDeal, match: Match) -> Deal:
    """Deal the deal after ``row`` (whose finished engine state is ``deal``)."""
    number = row.number + 1
    following = deal_source(deal.ruleset, game.players, dealer=match.next_dealer, number=number)
    match.with_next_deal(following)  # checks the dealer and the ruleset
    new_row = _deal_create(game, following, number=number)
    game.deal_over_at = None
    game.next_deal_at = None
    game.deal_ready = []
    _notify(game, {"type": "deal_started", "deal": number, "dealer": following.dealer})
    return new_row


# ------------------------------------------------------------------ the pause between deals


def game_deal_ready(*, game: Game | str, user: User) -> Game:
    """``user`` has seen the finished deal's summary of a live table: the next deal is
    dealt once every person still in the game is ready (bots always are), else when
    the pause's due time passes (``game_next_deal``). Saying it twice changes nothing."""
    with transaction.atomic():
        game, row = _lock_with_deal(game)
        seats = _seats(game)
        seat = _seat_of(seats, user)
        if seat is None:
            if game.is_private:
                raise GameNotFound(gettext("no such game"))
            raise NotAllowed(gettext("you are not playing in this game"), code="not_a_player")
        if game.status != Game.Status.ACTIVE:
            raise Conflict(gettext("the game is not being played"), code="game_not_active")
        if game.next_deal_at is None or row is None:
            raise Conflict(gettext("no deal is waiting to be dealt"), code="no_deal_pause")
        if seat.status == Seat.Status.OUT:
            raise NotAllowed(gettext("you resigned from this game"), code="seat_out")
        if seat.position not in game.deal_ready:
            game.deal_ready = sorted([*game.deal_ready, seat.position])
            _notify(
                game,
                {
                    "type": "deal_ready",
                    "deal": row.number,
                    "seat": seat.position,
                    "ready": list(game.deal_ready),
                },
            )
        if set(_people_in(seats)) <= set(game.deal_ready):
            _deal_after_pause(game, row, seats)
        else:
            game.save(update_fields=["deal_ready", "updated_at"])
    return game


def game_next_deal(*, game: Game, expected_ply: int, now: datetime | None = None) -> Game | None:
    """The pause of a live table is over (``next_deal_at`` passed): deal the next deal.
    The game row is claimed with ``SKIP LOCKED``: None when another transaction holds
    it, the ply moved on, or no pause is due (a sweep never deals twice)."""
    now = now or timezone.now()
    with transaction.atomic():
        rows = _CLAIM_AT_PLY(game.pk, expected_ply)
        if not rows:
            return None
        game, row = rows[0].game, rows[0]
        if game.next_deal_at is None or game.next_deal_at > now:
            return None
        _deal_after_pause(game, row, _seats(game))
    return game


def due_deal_pauses(now: datetime, limit: int = 500) -> list[tuple[int, int]]:
    """(game pk, ply) of the active games whose pause between deals is over, oldest
    first (the partial index ``game_active_next_deal``)."""
    rows = (
        Game.objects.filter(
            status=Game.Status.ACTIVE, next_deal_at__isnull=False, next_deal_at__lte=now
        )
        .order_by("next_deal_at")
        .values_list("pk", "ply")[:limit]
    )
    return list(rows)


def _deal_after_pause(game: Game, row: Deal, seats: list[Seat]) -> None:
    """Deal the next deal of the locked, paused ``game`` (``row``: the finished deal),
    play the turns of seats that are out, start the turn clock and save."""
    finished = EngineDeal.from_dict(row.state)
    new_row = _next_deal(game, row, finished, _match_of(game, row, finished))
    changed: set[Seat] = set()
    deal, new_row = _after_move(
        game, new_row, EngineDeal.from_dict(new_row.state), seats, changed, mover=None
    )
    for changed_seat in changed:
        changed_seat.save(update_fields=_SEAT_PLAY_FIELDS)
    game.save(update_fields=_GAME_PLAY_FIELDS)
    _committed(game, deal, seats, hands=None, new_turn=True)


def _resume_if_ready(game: Game, row: Deal, seats: list[Seat]) -> None:
    """A seat left a paused table (resigned, put out): deal on when nobody still in
    is waited for."""
    if game.next_deal_at is not None and set(_people_in(seats)) <= set(game.deal_ready):
        _deal_after_pause(game, row, seats)


def _game_finish(game: Game, seats: list[Seat], *, reason: str, now: datetime) -> None:
    """The match is over: the lowest total among the seats still in wins (ties share)."""
    contenders = [seat for seat in seats if seat.status != Seat.Status.OUT] or seats
    best = min(seat.total for seat in contenders)
    winners = [seat.position for seat in contenders if seat.total == best]
    _game_over(game, seats, winners=winners, reason=reason, now=now)


def _game_over(
    game: Game, seats: list[Seat], *, winners: list[int], reason: str, now: datetime
) -> None:
    """End the match: the result, the ratings of a rated game, the ``game_over`` event."""
    game.winners = winners
    game.status = Game.Status.FINISHED
    game.end_reason = reason
    game.finished_at = now
    game.deadline_at = None
    game.next_deal_at = None
    game.deal_ready = []
    stats.game_finished(game=game, seats=seats)  # before the ratings: the lock order
    changes = ratings.game_rate(game=game, seats=seats)
    split = chips.pot_settle(game=game, seats=seats)
    _notify(
        game,
        {
            "type": "game_over",
            "reason": reason,
            "winners": game.winners,
            "totals": [seat.total for seat in seats],
            "rating_changes": ratings.seat_changes(changes) if game.rated else None,
            "payouts": None if split is None else list(split.payouts),
        },
    )


def game_resign(*, game: Game, user: User) -> Game:
    """Give up: the seat is out (its total stays and its cards stay in the deal;
    the server plays its turns). With fewer than two players left the game ends
    and the others win."""
    with transaction.atomic():
        game = _lock(game)
        seats = _seats(game)
        seat = _seat_of(seats, user)
        if seat is None:
            if game.is_private:
                raise GameNotFound(gettext("no such game"))
            raise NotAllowed(gettext("you are not playing in this game"), code="not_a_player")
        if game.status != Game.Status.ACTIVE:
            raise Conflict(gettext("the game is not being played"), code="game_not_active")
        if seat.status == Seat.Status.OUT:
            raise Conflict(gettext("you have already resigned"), code="seat_out")
        changed = {seat}
        row = _current_deal(game)
        _log_seat_out(game, row, seat, by=user)
        still_in = [s for s in seats if s.status != Seat.Status.OUT]
        if len(still_in) < 2:
            winners = [s.position for s in still_in]
            _game_over(game, seats, winners=winners, reason="resigned", now=timezone.now())
        elif game.next_deal_at is not None:
            _resume_if_ready(game, row, seats)
        else:
            deal = EngineDeal.from_dict(row.state)
            _after_move(game, row, deal, seats, changed, mover=deal.to_move)
        for changed_seat in changed:
            changed_seat.save(update_fields=_SEAT_PLAY_FIELDS)
        game.save(update_fields=_GAME_PLAY_FIELDS)
    return game


# ------------------------------------------------------------------ helpers


def _lock(game: Game) -> Game:
    """The game row, locked until the transaction ends (``SELECT ... FOR UPDATE``)."""
    try:
        return Game.objects.select_for_update().get(pk=game.pk)
    except Game.DoesNotExist:
        raise GameNotFound(gettext("no such game")) from None


def _seats(game: Game) -> list[Seat]:
    """The game's seats by position, with their users (the answer shows them) and
    what the turn's deadline and the after-commit work need of their play settings."""
    return _SEATS(game.pk)


def _seat_of(seats: Iterable[Seat], user: User) -> Seat | None:
    return next((seat for seat in seats if seat.user_id == user.pk), None)


def _deal_with_locked_game(*, skip_locked: bool = False, **where: Any) -> QuerySet[Deal]:
    # The snapshot holds the deck too: the row's own copy is for replays only.
    return (
        Deal.objects.select_related("game")
        .select_for_update(of=("game",), skip_locked=skip_locked)
        .defer("deck", "card_ids", "reshuffle_seeds")
        .filter(number=F("game__deal_number"), **where)[:1]
    )


# The two ways a move finds its game, compiled to SQL once (the hottest query).
_LOCK_BY_PUBLIC_ID = PreparedQuery(
    lambda public_id: _deal_with_locked_game(game__public_id=public_id), "\x00public-id\x00"
)
_LOCK_BY_PK = PreparedQuery(lambda pk: _deal_with_locked_game(game_id=pk), -(2**62) - 1)
_SEATS = PreparedQuery(lambda game_id: seats_for_play().filter(game_id=game_id), -(2**62) - 2)
# A timeout claims its game (skipping it when another transaction holds it) if it is
# still active at the ply the deadline belongs to, with its current deal. (A ply
# marker within the column's range: a value outside it compiles to no query at all.)
_CLAIM_AT_PLY = PreparedQuery(
    lambda pk, ply: _deal_with_locked_game(
        skip_locked=True, game_id=pk, game__status=Game.Status.ACTIVE, game__ply=ply
    ),
    -(2**62) - 4,
    2**31 - 7,
)


def _lock_with_deal(game: Game | str) -> tuple[Game, Deal | None]:
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
    return _lock(game), None


def _current_deal(game: Game) -> Deal:
    # The snapshot holds the deck too: the row's own copy is for replays only.
    return Deal.objects.defer("deck", "card_ids", "reshuffle_seeds").get(
        game=game, number=game.deal_number
    )


def _turn_start(game: Game, now: datetime, to_move: Seat) -> None:
    """Start the clock of ``to_move``'s turn: its start and its deadline."""
    game.turn_started_at = now
    game.deadline_at = _deadline(game, now, to_move)
    game.bot_to_move = is_builtin_bot(to_move.user)
    game.to_move = to_move.position


def _deadline(game: Game, now: datetime, to_move: Seat) -> datetime | None:
    # The live-play part (games.clock) owns the rule: vacations move a
    # correspondence clock, a live mover's time bank extends theirs. ``to_move`` is
    # the seat whose turn starts (loaded by ``_seats`` with its player's settings: no
    # query).
    return clock.turn_deadline(
        game,
        now,
        away_until=_away_until(to_move),
        bank_ms=clock.bank_left_ms(game, to_move),
    )


def _away_until(seat: Seat) -> datetime | None:
    """The end of the vacation of the seat's player, if they ever took one."""
    try:
        prefs = seat.user.play_settings
    except PlayerSettings.DoesNotExist:
        return None
    return prefs.vacation_until


def _name(user: User) -> str:
    return user.get_username()


def _notify(game: Game, event: Mapping[str, Any]) -> None:
    """Queue a public event for after the commit. The game row locked by this
    transaction collects them, so that one commit publishes its events at once."""
    _outbox(game).events.append((game.ply, dict(event)))


def _outbox(game: Game) -> outbox.Outbox:
    pending: outbox.Outbox | None = getattr(game, "_outbox", None)
    if pending is None:
        pending = game._outbox = outbox.Outbox(game.public_id)  # type: ignore[attr-defined]
        outbox.outbox_on_commit(pending)
    return pending


def _hands_played(seats: Sequence[Seat], mover: Seat) -> frozenset[int]:
    """The hands a move in the same deal changed: the mover's, and those of the seats
    the server played for (out). A new deal changes every hand."""
    return frozenset({mover.position, *(s.position for s in seats if s.status == Seat.Status.OUT)})


def _committed(
    game: Game,
    deal: EngineDeal | None,
    seats: list[Seat],
    *,
    hands: frozenset[int] | None,
    new_turn: bool,
) -> publisher.CommittedState | None:
    """Hand the state this transaction is about to commit to its after-commit work, so
    that it need not read it again; called last in the transaction. Not when the
    transaction is nested in another (a savepoint): the outer one may change the game
    again before it commits, so the work then reads the state it committed."""
    if transaction.get_connection().savepoint_ids:
        return None
    state = publisher.CommittedState(
        game=game, deal=deal, seats=seats, hands=hands, new_turn=new_turn
    )
    _outbox(game).state = state
    return state


# ------------------------------------------------------------------ server turns
# The writes of the timeout policy (games.play.timeouts decides when and how hard; this
# plays the turn under the game lock with the ply guard).


@dataclass
class ServerTurn:
    """What ``game_timeout_turn`` did to the seat whose time ran out."""

    game: Game
    position: int
    strikes: int
    out: bool


def game_timeout_turn(
    *,
    game: Game,
    expected_ply: int,
    strike_limit: int | None,
    now: datetime | None = None,
) -> ServerTurn | None:
    """The deadline of ``expected_ply`` passed: the server plays the turn of the seat
    to move (draw from the stock, discard the highest-penalty card that is not a
    joker, or what the rules require: the taken card back, undo a take) and counts
    a strike. With ``strike_limit`` strikes in a row the seat is out (the server
    plays its turns from now on); fewer than two seats left ends the game and the
    others win.

    The game row is claimed with ``SKIP LOCKED``: None when another transaction
    holds it, the ply moved on, the game is not active or the deadline has not
    passed (so a sweep and an ETA task never apply a timeout twice).
    """
    now = now or timezone.now()
    with transaction.atomic():
        rows = _CLAIM_AT_PLY(game.pk, expected_ply)
        claimed = rows[0].game if rows else None
        if claimed is None or claimed.deadline_at is None or claimed.deadline_at > now:
            return None
        game, row = claimed, rows[0]
        seats = _seats(game)
        deal = EngineDeal.from_dict(row.state)
        seat = seats[deal.to_move]
        deal_number = game.deal_number
        played = []
        for _ in range(8):  # a turn is at most: undo a take, draw, discard
            if deal.is_over or deal.to_move != seat.position:
                break
            action = server_moves.timeout_action(deal)
            deal = deal.apply(action)
            played.append(
                _log(game, row, seat, deal, user=None, payload=action.to_dict(), save=False)
            )
        Move.objects.bulk_create(played)  # the turn's moves in one statement
        seat.strikes += 1
        clock.bank_exhaust(game, seat)  # the deadline passed: nothing is left
        changed: set[Seat] = {seat}
        out = strike_limit is not None and seat.strikes >= strike_limit
        _notify(
            game,
            {"type": "timed_out", "seat": seat.position, "strikes": seat.strikes, "out": out},
        )
        deal, row = _after_move(
            game, row, deal, seats, changed, mover=seat.position, save_deal=False
        )
        if out and game.status == Game.Status.ACTIVE:
            _seat_out(game, row, seat, seats, changed, reason="timeout")
        for changed_seat in changed:
            changed_seat.save(update_fields=_SEAT_PLAY_FIELDS)
        _save_play(game, row, None)
        if not out:
            # (A seat put out played on in ``_seat_out``: its deal is read after the commit.)
            new_deal = game.deal_number != deal_number
            _committed(
                game,
                deal,
                seats,
                hands=None if new_deal else _hands_played(seats, seat),
                new_turn=new_deal or deal.to_move != seat.position,
            )
    return ServerTurn(game=game, position=seat.position, strikes=seat.strikes, out=out)


def _lock_at_ply(game: Game, expected_ply: int) -> tuple[Game, list[Seat]] | None:
    """The locked game and its seats, if it is still active at ``expected_ply`` (the
    guard of the system's own moves: a sweep or timer acts only on what it saw)."""
    game = _lock(game)
    if game.status != Game.Status.ACTIVE or game.ply != expected_ply:
        return None
    return game, _seats(game)


def game_seat_out(*, game: Game, position: int, expected_ply: int, reason: str) -> Game | None:
    """The system takes a seat out of a running game (a live player away past the
    wait): as a resignation, logged with ``user=None`` and the reason. None when the
    game moved on from ``expected_ply`` or is not active."""
    with transaction.atomic():
        locked = _lock_at_ply(game, expected_ply)
        if locked is None:
            return None
        game, seats = locked
        seat = seats[position]
        if seat.status == Seat.Status.OUT:
            return game
        changed: set[Seat] = {seat}
        _seat_out(game, _current_deal(game), seat, seats, changed, reason=reason)
        for changed_seat in changed:
            changed_seat.save(update_fields=_SEAT_PLAY_FIELDS)
        game.save(update_fields=_GAME_PLAY_FIELDS)
    return game


def _seat_out(
    game: Game, row: Deal, seat: Seat, seats: list[Seat], changed: set[Seat], *, reason: str
) -> None:
    """Mark ``seat`` out (logged as a server ``resign`` with the reason); end the game
    when fewer than two seats are left, else play on (its turns by the server)."""
    changed.add(seat)
    _log_seat_out(game, row, seat, reason=reason)
    still_in = [s for s in seats if s.status != Seat.Status.OUT]
    if len(still_in) < 2:
        winners = [s.position for s in still_in]
        _game_over(game, seats, winners=winners, reason=reason, now=timezone.now())
        return
    if game.next_deal_at is not None:
        _resume_if_ready(game, row, seats)
        return
    deal = EngineDeal.from_dict(row.state)
    _after_move(game, row, deal, seats, changed, mover=deal.to_move)


def _log_seat_out(
    game: Game, row: Deal, seat: Seat, *, reason: str | None = None, by: User | None = None
) -> None:
    """Mark ``seat`` out and log it as a ``resign`` move: the player's own (``by``),
    or the server's, carrying the ``reason`` (timeouts, absence)."""
    seat.status = Seat.Status.OUT
    game.ply += 1
    why = {} if reason is None else {"reason": reason}
    public = {"type": "resign", "seat": seat.position, **why}
    Move.objects.create(
        game=game,
        ply=game.ply,
        deal=row,
        seat=seat,
        user=by,
        kind="resign",
        payload={"type": "resign", **why},
        public=public,
    )
    _notify(game, {"type": "move", "deal": row.number, "move": public})
    if reason is not None:
        sanctions.seat_abandoned(game=game, seat=seat, reason=reason)


def game_seat_out_and_end(
    *, game: Game, position: int, expected_ply: int, reason: str
) -> Game | None:
    """The system takes a seat out and ends the match at once (a live table's host
    ending the game for an absent player, docs/rules.md §10): logged as a server ``resign``
    with the reason; the lowest total among the seats still in wins (2 players: the
    other one). None when the game moved on from ``expected_ply`` or is not active."""
    with transaction.atomic():
        locked = _lock_at_ply(game, expected_ply)
        if locked is None:
            return None
        game, seats = locked
        seat = seats[position]
        _log_seat_out(game, _current_deal(game), seat, reason=reason)
        _game_finish(game, seats, reason=reason, now=timezone.now())
        seat.save(update_fields=_SEAT_PLAY_FIELDS)
        game.save(update_fields=_GAME_PLAY_FIELDS)
    return game
