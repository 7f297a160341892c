"""Reads of a game: finding it (by id, by invite), its seats, and the viewer's view of it.

Lists of games are in ``game_lists``, the move log in ``move_log``, the melds check in
``meld_check``, the presets and bots in ``catalogue``.

Everything a user sees of a deal is built by the engine's per-seat view
(``deal.view(seat)``; ``view(None)`` for spectators). The raw ``Deal.deck``
and ``Deal.state`` never leave this module except through it.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.models import User as AuthUser
from django.db.models import (
    Model,
    OuterRef,
    Prefetch,
    QuerySet,
    Subquery,
)
from django.utils import timezone
from django.utils.translation import gettext as _

from games import clock, ratings
from games.chips.selectors import game_chips
from games.engine import Deal as EngineDeal
from games.engine import (
    Ruleset,
)
from games.engine.legal import legal_moves
from games.engine.seating import SeatingDraw
from games.errors import GameNotFound
from games.models import Deal, Game, PlayerSettings, Seat
from games.read.catalogue import ruleset_shown
from games.read.results import finished_deals
from games.read.rules import house_rules_of
from remi_site.prepared import PreparedQuery

User = AuthUser | AnonymousUser


def game_for_invite(*, invite_code: str) -> Game:
    """The private game in the lobby with this invite code (``GameNotFound`` if none)."""
    game = (
        Game.objects.filter(
            invite_code=invite_code,
            visibility=Game.Visibility.PRIVATE,
            status=Game.Status.LOBBY,
        )
        .order_by("-created_at")
        .first()
        if invite_code
        else None
    )
    if game is None:
        raise GameNotFound(_("no game with this invite code"))
    return game


# ------------------------------------------------------------------ finding games


def seats_with_players() -> QuerySet[Seat]:
    """Seats by position with what the answers show of their players (the rest of a
    user row is left in the database: a move reads seats every time)."""
    return (
        Seat.objects.select_related("user__profile", "user__play_settings")
        .only(*SEAT_COLUMNS)
        .order_by("position")
    )


# What the answers show of a seat and its player (``seats_with_players``), and what a
# move reads besides (``seats_for_play``).
SEAT_COLUMNS = (
    *(f.name for f in Seat._meta.concrete_fields),
    "user__id",
    "user__username",
    "user__profile__id",
    "user__profile__user_id",
    "user__profile__display_name",
    "user__profile__is_bot",
    "user__profile__bot_level",
    # The vacation badge of the seat (``away_until``), in the same query.
    "user__play_settings__id",
    "user__play_settings__user_id",
    "user__play_settings__vacation_until",
)
SEAT_PLAY_COLUMNS = (
    *SEAT_COLUMNS,
    "user__email",
    "user__play_settings__email_turns",
    "user__play_settings__push_turns",
    # Whether the player queued a draw (``games.play.premoves``), for the after-commit work.
    "premove__id",
    "premove__seat",
)


def play_fields(model: type[Model], path: str) -> list[Any]:
    """The concrete fields of ``model``, reached from a seat by ``path``, that a move
    reads (as ``SEAT_PLAY_COLUMNS`` names them), primary key first."""
    wanted = {
        column.rpartition("__")[2]
        for column in SEAT_PLAY_COLUMNS
        if column.rpartition("__")[0] == path
    }
    fields = [
        f
        for f in model._meta.concrete_fields
        if f.primary_key or f.name in wanted or f.attname in wanted
    ]
    return sorted(fields, key=lambda f: not f.primary_key)


def seats_for_play() -> QuerySet[Seat]:
    """``seats_with_players`` plus what a move needs of each player beyond the answer:
    the email address, the play settings (vacation, "your turn" messages) and any
    queued draw, in the same query (a player who never changed the settings has no
    settings row)."""
    return (
        Seat.objects.select_related("user__profile", "user__play_settings", "premove")
        .only(*SEAT_PLAY_COLUMNS)
        .order_by("position")
    )


def seats_prefetch() -> Any:
    return Prefetch("seats", queryset=seats_with_players())


# Who may open a private table they do not sit at: a moderator (the permission that
# makes one, accounts.moderation.roles), to judge a report on it from where it happened.
# They see it as a spectator does: no hand.
MODERATE = "accounts.resolve_report"


def game_get(*, public_id: str, user: User) -> Game:
    """The game, if ``user`` may see it: public games, private ones they sit in, and
    any to a moderator.

    Anything else is ``GameNotFound``, so a private game's existence is not revealed.
    """
    rows = _GAME_BY_PUBLIC_ID(public_id)
    game = rows[0] if rows else None
    if game is not None:
        _with_seats(game, _SEATS_OF_GAME(game.pk))
    if game is None or (
        game.is_private and seat_of(game, user) is None and not user.has_perm(MODERATE)
    ):
        raise GameNotFound(_("no such game"))
    return game


def _game_with_state(public_id: str) -> QuerySet[Game]:
    return (
        Game.objects.select_related("owner")
        # The current deal's snapshot in the same query (for ``game_view_for``).
        .annotate(current_state=_current_state())
        .filter(public_id=public_id)
        .order_by("pk")[:1]
    )


# Reading a game to show it is the site's most frequent query: compiled to SQL once.
_GAME_BY_PUBLIC_ID = PreparedQuery(_game_with_state, "\x00public-id\x00")
_SEATS_OF_GAME = PreparedQuery(
    lambda game_id: seats_with_players().filter(game_id=game_id), -(2**62) - 3
)


def _with_seats(game: Game, seats: list[Seat]) -> None:
    """Attach ``seats`` to ``game`` as ``prefetch_related("seats")`` would."""
    queryset: Any = game.seats.get_queryset()
    for seat in seats:
        Seat.game.field.set_cached_value(seat, game)
    queryset._result_cache = seats
    queryset._prefetch_done = True
    game._prefetched_objects_cache = {"seats": queryset}  # type: ignore[attr-defined]


def game_get_for_join(*, public_id: str, user: User, invite_code: str | None) -> Game:
    """The game a user asks to join: a private one is found by its players, or with its
    invite code. A wrong code is answered exactly as an unknown id (``GameNotFound``,
    "no such game"): it says nothing of the game's existence."""
    game = Game.objects.filter(public_id=public_id).first()
    if game is None or (
        game.is_private and not _invite_matches(game, invite_code) and not _is_seated(game, user)
    ):
        raise GameNotFound(_("no such game"))
    return game


def _invite_matches(game: Game, invite_code: str | None) -> bool:
    # In constant time: the answer's timing says nothing of how much of a guess was right.
    return bool(invite_code) and secrets.compare_digest(
        (invite_code or "").encode(), game.invite_code.encode()
    )


def _is_seated(game: Game, user: User) -> bool:
    return bool(user.is_authenticated and Seat.objects.filter(game=game, user=user).exists())


def seat_of(game: Game, user: User) -> Seat | None:
    """The user's seat (from the prefetched seats when there are)."""
    if not user.is_authenticated:
        return None
    return next((seat for seat in game.seats.all() if seat.user_id == user.pk), None)


# ------------------------------------------------------------------ the viewer's view


def _current_state() -> Subquery:
    deals = Deal.objects.filter(game=OuterRef("pk"), number=OuterRef("deal_number"))
    return Subquery(deals.values("state")[:1])


def current_deal(game: Game) -> EngineDeal | None:
    """The engine state of the deal being played (or the last one), None before the start."""
    if game.deal_number == 0:
        return None
    annotated = getattr(game, "current_state", None)
    if annotated is not None:
        return EngineDeal.from_dict(annotated, ruleset=game.engine_ruleset())
    state = (
        Deal.objects.filter(game=game, number=game.deal_number)
        .values_list("state", flat=True)
        .first()
    )
    return None if state is None else EngineDeal.from_dict(state, ruleset=game.engine_ruleset())


def game_view_for(
    *,
    game: Game,
    user: User,
    deal: EngineDeal | None = None,
    seats: Sequence[Seat] | None = None,
    views: dict[int, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The game as ``user`` may see it: the platform's data and the engine's view of the
    current deal for their seat (a spectator's view for others).

    ``deal`` and ``seats`` may be passed when the caller already has them (the
    result of a move), which saves reading them again; ``views``, the views of that
    ``deal`` by seat already built (the after-commit work's), saves building one again.
    """
    if seats is None:
        seats = list(game.seats.all())
    seat = next((s for s in seats if user.is_authenticated and s.user_id == user.pk), None)
    if deal is None:
        deal = current_deal(game)
    view: dict[str, Any] | None = None
    if seat is not None and views is not None and seat.position in views:
        view = views[seat.position]
    elif deal is not None:
        view = deal.view(None if seat is None else seat.position).to_dict()
    if view is not None and deal is not None:
        view = _with_legal_moves(view, deal, None if seat is None else seat.position)
    # The deal carries the game's ruleset, already parsed.
    ruleset = deal.ruleset if deal is not None else Ruleset.from_dict(game.ruleset)
    return {
        "id": game.public_id,
        "status": game.status,
        "preset": game.preset,
        "ruleset": ruleset_shown(game.ruleset),
        "house_rules": house_rules_of(game.preset, game.ruleset),
        "players": game.players,
        "visibility": game.visibility,
        "invite_code": game.invite_code if seat is not None and game.is_private else None,
        "owner": _owner_name(game, seats),
        "time_control": _time_control(game),
        "created_at": game.created_at,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "ply": game.ply,
        "deadline_at": game.deadline_at,
        "turn_ends_at": clock.turn_ends_at(game),
        "deal_number": game.deal_number,
        "deals_in_match": ruleset.deals_in_match(game.players),
        "to_move": None if deal is None or deal.is_over or game.is_over else deal.to_move,
        "seats": [_seat(s, user, game) for s in seats],
        "you": None if seat is None else seat.position,
        "winners": game.winners if game.status == Game.Status.FINISHED else None,
        "end_reason": game.end_reason or None,
        "rating_changes": ratings.game_rating_changes(game),
        "chips": game_chips(game=game, seats=seats),
        "seating": seating_view(game),
        "deal": view,
        "deals": finished_deals(game, deal),
        "pause": deal_pause_view(game),
        "can": _can(game, seats, seat, view),
    }


def deal_pause_view(game: Game) -> dict[str, Any] | None:
    """A live table's pause between deals: when the deal ended, when the next one is
    dealt (sooner when every person in the game is ready) and who is ready; None when
    no pause is running."""
    if game.next_deal_at is None or game.status != Game.Status.ACTIVE:
        return None
    return {
        "deal": game.deal_number,
        "ended_at": game.deal_over_at,
        "next_deal_at": game.next_deal_at,
        "ready": list(game.deal_ready),
    }


def _with_legal_moves(
    view: Mapping[str, Any], deal: EngineDeal, seat: int | None
) -> dict[str, Any]:
    """The seat's view of the deal with what it may do now, move by move (``legal``:
    null unless it is that seat's turn)."""
    moves = legal_moves(deal) if seat is not None and seat == deal.to_move else None
    return {**view, "legal": None if moves is None else moves.to_dict()}


def _owner_name(game: Game, seats: Sequence[Seat]) -> str:
    # The host sits in the game (leaving the lobby aborts it): no query for the owner.
    for seat in seats:
        if seat.user_id == game.owner_id:
            return seat.user.get_username()
    return game.owner.get_username()


def _time_control(game: Game) -> dict[str, Any]:
    return {
        "kind": game.time_control,
        "seconds_per_turn": game.seconds_per_turn,
        "days_per_move": game.days_per_move,
        "rated": game.rated,
        "strike_limit": clock.strike_limit(game),
        "absent_wait_s": (
            int(clock.absent_wait(game).total_seconds())
            if game.time_control == Game.TimeControl.LIVE
            else None
        ),
        "time_bank_s": game.time_bank_s if game.time_control == Game.TimeControl.LIVE else None,
    }


def user_card(user: Any) -> dict[str, Any]:
    profile = getattr(user, "profile", None)
    return {
        "username": user.get_username(),
        "display_name": profile.display_name if profile else user.get_username(),
        "is_bot": bool(profile and profile.is_bot),
        "bot_level": profile.bot_level if profile else None,
        # What a client shows by the name of every bot, built in or not.
        "title": "BOT" if profile and profile.is_bot else None,
    }


def _seat(seat: Seat, user: User, game: Game) -> dict[str, Any]:
    return {
        "position": seat.position,
        "user": user_card(seat.user),
        "status": seat.status,
        "total": seat.total,
        "strikes": seat.strikes,
        "time_bank_remaining_s": clock.bank_remaining_s(game, seat),
        "away_until": away_until(seat),
    }


def away_until(seat: Seat, now: datetime | None = None) -> datetime | None:
    """The end of the vacation the seat's player is on, for everyone to see (None: not
    on one). From the play settings loaded with the seat, when they were."""
    user = seat.user
    if type(user).play_settings.related.is_cached(user):
        try:
            until = user.play_settings.vacation_until
        except PlayerSettings.DoesNotExist:
            return None
    else:
        until = (
            PlayerSettings.objects.filter(user_id=seat.user_id)
            .values_list("vacation_until", flat=True)
            .first()
        )
    return until if until is not None and until > (now or timezone.now()) else None


def _can(
    game: Game, seats: Sequence[Seat], seat: Seat | None, view: Mapping[str, Any] | None
) -> dict[str, Any]:
    lobby = game.status == Game.Status.LOBBY
    active = game.status == Game.Status.ACTIVE
    is_host = seat is not None and game.owner_id == seat.user_id
    return {
        "join": (lobby and seat is None and len(seats) < game.players)
        or (active and seat is not None and seat.status == Seat.Status.LEFT),
        "leave": seat is not None and (lobby or (active and seat.status == Seat.Status.ACTIVE)),
        "start": lobby and is_host and len(seats) == game.players,
        "abort": lobby and is_host,
        "resign": active and seat is not None and seat.status != Seat.Status.OUT,
        "act": list(view["actions"]) if active and view is not None and seat is not None else [],
    }


def game_summary(game: Game, user: User) -> dict[str, Any]:
    """A game as the lists show it (no deal state)."""
    seats = list(game.seats.all())
    return {
        "id": game.public_id,
        "status": game.status,
        "preset": game.preset,
        "players": game.players,
        "visibility": game.visibility,
        "owner": game.owner.get_username(),
        "time_control": _time_control(game),
        "seats": [_seat(s, user, game) for s in seats],
        "you": next(
            (s.position for s in seats if user.is_authenticated and s.user_id == user.pk), None
        ),
        "ply": game.ply,
        "deal_number": game.deal_number,
        "to_move": getattr(game, "to_move", None) if game.status == Game.Status.ACTIVE else None,
        "deadline_at": game.deadline_at,
        "winners": game.winners if game.status == Game.Status.FINISHED else None,
        "created_at": game.created_at,
        "stake": game.stake,
        "my_turn": _my_turn(game, seats, user),
        "house_rules": _house_rules_loaded(game),
    }


def _house_rules_loaded(game: Game) -> list[dict[str, Any]] | None:
    """The game's house rules, when its ruleset was read (None: a list that left it)."""
    if "ruleset" in game.get_deferred_fields():
        return None
    return house_rules_of(game.preset, game.ruleset)


def _my_turn(game: Game, seats: Sequence[Seat], user: User) -> bool:
    """Whether the running game waits for ``user``'s move (from the seats in hand)."""
    if game.status != Game.Status.ACTIVE or game.to_move is None or not user.is_authenticated:
        return False
    return any(
        s.user_id == user.pk and s.position == game.to_move and s.status == Seat.Status.ACTIVE
        for s in seats
    )


def seating_view(game: Game) -> dict[str, Any] | None:
    """The cards drawn for the seats before the first deal, by seat (null: no draw)."""
    if game.seating_draw is None:
        return None
    return SeatingDraw.from_dict(game.seating_draw).view()


# ------------------------------------------------------------------ asking about melds


# ------------------------------------------------------------------ the move log
