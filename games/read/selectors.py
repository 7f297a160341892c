"""Reads of games: lists, the viewer's view of a game, the move log.

Everything a user sees of a deal is built by the engine's per-seat view
(``deal.view(seat)``; ``view(None)`` for spectators). The raw ``Deal.deck``
and ``Deal.state`` never leave this module except through it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.models import User as AuthUser
from django.db.models import (
    Count,
    F,
    IntegerField,
    Model,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
)
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import BUILTIN_BOTS
from games import clock, ratings
from games.chips.selectors import game_chips
from games.engine import (
    PRESETS,
    IllegalAction,
    IllegalMeld,
    Meld,
    Ruleset,
    arrange_meld,
    meld_value,
)
from games.engine import Deal as EngineDeal
from games.engine.legal import legal_moves
from games.engine.rulesets import SCORING_BY_AGREEMENT
from games.engine.seating import SeatingDraw
from games.engine_words import engine_text, preset_description, preset_display_name
from games.errors import Conflict, GameNotFound, InvalidRequest, NotAllowed
from games.models import Deal, Game, Move, PlayerSettings, Seat
from games.read.plans import as_any_player
from games.read.results import deal_log, finished_deals
from games.read.rules import house_rules_of
from games.refusals import refusal_text
from remi_site.prepared import PreparedQuery

User = AuthUser | AnonymousUser

LIST_STATUSES = ("open", "my_turn", "active", "finished", "aborted", "lobby")
# The lists of games not yet over, and of ended games ("open" lists lobbies).
RUNNING_STATUSES = ("open", "my_turn", "active", "lobby")
ENDED_STATUSES = ("finished", "aborted")


# ------------------------------------------------------------------ rulesets


def preset_name(preset: str) -> str:
    """The one name a preset goes by on every page (its ruleset's display name), in the
    active language."""
    return preset_display_name(preset)


def _ruleset_shown(ruleset: Mapping[str, Any]) -> dict[str, Any]:
    """A stored ruleset with the words players read in the active language (a preset's
    name and description; a name of the host's own stays as written)."""
    shown = dict(ruleset)
    for key in ("display_name", "description"):
        if isinstance(shown.get(key), str):
            shown[key] = engine_text(shown[key])
    return shown


def ruleset_presets() -> list[dict[str, Any]]:
    """Every preset with every field (``Ruleset.to_dict``), its name and description in
    the active language."""
    return [
        {
            "name": name,
            "ruleset": {
                **ruleset.to_dict(),
                "display_name": preset_display_name(name),
                "description": preset_description(name),
            },
            "scoring_by_agreement": name in SCORING_BY_AGREEMENT,
        }
        for name, ruleset in PRESETS.items()
    ]


def bot_users(*, usernames: Sequence[str]) -> list[AuthUser]:
    """The bot accounts with these usernames, in order; ``InvalidRequest`` names one
    that is not a bot."""
    found = {
        user.username: user
        for user in AuthUser.objects.select_related("profile").filter(
            BUILTIN_BOTS, username__in=usernames
        )
    }
    missing = [name for name in usernames if name not in found]
    if missing:
        raise InvalidRequest(
            _("no bot named %(value)s") % {"value": repr(missing[0])}, code="unknown_bot"
        )
    return [found[name] for name in usernames]


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


def _seats_prefetch() -> Any:
    return Prefetch("seats", queryset=seats_with_players())


def game_get(*, public_id: str, user: User) -> Game:
    """The game, if ``user`` may see it: public games, and private ones they sit in.

    Anything else is ``GameNotFound``, so a private game's existence is not revealed.
    """
    rows = _GAME_BY_PUBLIC_ID(public_id)
    game = rows[0] if rows else None
    if game is not None:
        _with_seats(game, _SEATS_OF_GAME(game.pk))
    if game is None or (game.is_private and seat_of(game, user) is None):
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
    """The game a user asks to join: a private one is found with its invite code too
    (the service checks the code)."""
    game = Game.objects.filter(public_id=public_id).first()
    if game is None or (game.is_private and not invite_code and not _is_seated(game, user)):
        raise GameNotFound(_("no such game"))
    return game


def _is_seated(game: Game, user: User) -> bool:
    return bool(user.is_authenticated and Seat.objects.filter(game=game, user=user).exists())


def seat_of(game: Game, user: User) -> Seat | None:
    """The user's seat (from the prefetched seats when there are)."""
    if not user.is_authenticated:
        return None
    return next((seat for seat in game.seats.all() if seat.user_id == user.pk), None)


def game_list(*, user: AuthUser, filters: Mapping[str, Any]) -> QuerySet[Game]:
    """Games the user may see, newest first, narrowed by ``filters``:

    - ``status``: ``open`` (public games in the lobby with a free seat, not yours),
      ``lobby``, ``active``, ``finished`` or ``aborted``;
    - ``mine``: only games the user sits in;
    - ``variant``: the preset name;
    - the filters of a player's history (``_history_filters``): ``played``,
      ``result``, ``opponent``, ``time_control``, ``since`` and ``until``.

    ``status=my_turn`` gives the running games waiting for the user's move (the
    game's ``to_move`` column is the seat whose turn it is).
    """
    # From the user's own seats (an index), not a check on every visible game: "mine"
    # and "my turn" stay as fast with 100,000 games in the database as with 10. A
    # status not yet over reads only the seats of games not yet over (the partial
    # index ``seat_user_running``), so a veteran's finished games cost nothing there.
    status = filters.get("status")
    mine = _seats_of(user, status).values("game_id")
    if (filters.get("mine") or status == "my_turn") and status in ENDED_STATUSES:
        games = _ended_games_of(user)
    elif filters.get("mine") or status == "my_turn":
        games = Game.objects.filter(pk__in=mine)
    else:
        games = Game.objects.filter(Q(visibility=Game.Visibility.PUBLIC) | Q(pk__in=mine))
    # A list shows no game's ruleset: its JSON stays in the database, except for the
    # games waiting for players, whose house rules are shown before anyone joins.
    games = games.select_related("owner").prefetch_related(_seats_prefetch())
    if status not in ("open", Game.Status.LOBBY):
        games = games.defer("ruleset")
    if status:
        if status not in LIST_STATUSES:
            raise InvalidRequest(
                _("unknown status filter %(status)s") % {"status": repr(status)},
                code="invalid_filter",
            )
        if status == "my_turn":
            waiting = Seat.objects.filter(
                user_id=user.pk,
                game_ended_at__isnull=True,
                status=Seat.Status.ACTIVE,
                game__status=Game.Status.ACTIVE,
                position=F("game__to_move"),
            ).values("game_id")
            # The queue: the most urgent deadline first.
            games = games.filter(pk__in=waiting, status=Game.Status.ACTIVE).order_by(
                F("deadline_at").asc(nulls_last=True), "pk"
            )
        elif status == "open":
            games = (
                games.annotate(taken=Count("seats"))
                .filter(
                    status=Game.Status.LOBBY,
                    visibility=Game.Visibility.PUBLIC,
                    taken__lt=F("players"),
                )
                .exclude(pk__in=mine)
            )
        else:
            games = games.filter(status=status)
            if status == Game.Status.FINISHED:
                # Every finished game has its end time: said so, the list may read the
                # ended games' index (``game_finished``) rather than every game's.
                games = games.filter(finished_at__isnull=False)
    variant = filters.get("variant")
    if variant:
        games = games.filter(preset=variant)
    return _history_filters(games, user, filters)


def _seats_of(user: AuthUser, status: str | None) -> QuerySet[Seat]:
    """The user's seats that can be in a list of ``status``: those of games not yet
    over, of ended games, or all."""
    seats = Seat.objects.filter(user_id=user.pk)
    if status in RUNNING_STATUSES:
        return seats.filter(game_ended_at__isnull=True)
    if status in ENDED_STATUSES:
        return seats.filter(game_ended_at__isnull=False)
    return seats


def _ended_games_of(user: AuthUser) -> QuerySet[Game]:
    """The ended games the user sat in, each annotated with ``ended_at`` (their seat's
    copy of the end time): ordered by it, newest first, a list walks the user's part
    of the index ``seat_user_ended`` and stops at its page, however many they ended."""
    return Game.objects.filter(
        seats__user_id=as_any_player(user.pk), seats__game_ended_at__isnull=False
    ).annotate(ended_at=F("seats__game_ended_at"))


def newest_ended_first(games: QuerySet[Game]) -> QuerySet[Game]:
    """A list of ended games of the user (``status`` finished or aborted, ``mine``),
    the most recently ended first."""
    return games.order_by(F("ended_at").desc(), "-pk")


HISTORY_RESULTS = ("won", "lost", "playing", "aborted")
# More seats than any table has: how many entries of ``Game.winners`` to look at.
_MOST_SEATS = 8


def _history_filters(
    games: QuerySet[Game], user: AuthUser, filters: Mapping[str, Any]
) -> QuerySet[Game]:
    """Narrow ``games`` (the user's, for a history) by:

    - ``played``: only games that started;
    - ``result``: ``won`` (finished with the user among the winners: a shared first
      counts, as in the statistics), ``lost`` (finished otherwise), ``playing`` or
      ``aborted``;
    - ``opponent``: a username (any case) that sat at the table with the user;
    - ``time_control``: ``live`` or ``correspondence``;
    - ``since``, ``until``: the dates (UTC) the game started between, both included.
    """
    if filters.get("played"):
        games = games.filter(started_at__isnull=False)
    result = filters.get("result")
    if result:
        if result not in HISTORY_RESULTS:
            raise InvalidRequest(
                _("unknown result filter %(result)s") % {"result": repr(result)},
                code="invalid_filter",
            )
        if result in ("won", "lost"):
            won = _games_won(user)
            games = games.filter(status=Game.Status.FINISHED)
            games = games.filter(pk__in=won) if result == "won" else games.exclude(pk__in=won)
        else:
            status = Game.Status.ACTIVE if result == "playing" else Game.Status.ABORTED
            games = games.filter(status=status)
    opponent = filters.get("opponent")
    if opponent:
        met = (
            Seat.objects.filter(user__username__iexact=opponent)
            .exclude(user_id=user.pk)
            .values("game_id")
        )
        games = games.filter(pk__in=met)
    time_control = filters.get("time_control")
    if time_control:
        games = games.filter(time_control=time_control)
    if filters.get("since"):
        games = games.filter(started_at__date__gte=filters["since"])
    if filters.get("until"):
        games = games.filter(started_at__date__lte=filters["until"])
    return games


def _games_won(user: AuthUser) -> QuerySet[Seat, Any]:
    """Ids of the finished games the user won: their seat's position is one of the
    game's ``winners`` (a JSON list, read entry by entry so that SQLite can too)."""
    entries = {
        f"winner_{index}": Cast(KeyTextTransform(str(index), "game__winners"), IntegerField())
        for index in range(_MOST_SEATS)
    }
    among_winners = Q()
    for name in entries:
        among_winners |= Q(**{name: F("position")})
    return (
        Seat.objects.filter(user_id=user.pk, game__status=Game.Status.FINISHED)
        .annotate(**entries)
        .filter(among_winners)
        .values("game_id")
    )


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
        "ruleset": _ruleset_shown(game.ruleset),
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


def meld_check_for(*, game: Game, user: User, melds: Sequence[Sequence[int]]) -> dict[str, Any]:
    """What the engine says of melds the seated ``user`` holds in the current deal: each
    meld laid out with its kind and value, or why it is none (``IllegalMeld`` code),
    and whether laying them all down now would be their opening (``Deal.check_opening``:
    the ruleset's minimum and its other conditions).

    ``melds`` name cards by the ids of the user's own hand; any other id is refused
    without saying what it is. Nothing is changed and nothing is revealed but the
    user's own cards.
    """
    seat = seat_of(game, user)
    if seat is None:
        raise NotAllowed(_("only the players at the table can check melds"), code="not_a_player")
    if game.status != Game.Status.ACTIVE:
        raise Conflict(_("the game is not being played"), code="game_not_active")
    deal = current_deal(game)
    assert deal is not None  # an active game has a deal
    held = set(deal.hand_ids(seat.position))
    named = [card_id for meld in melds for card_id in meld]
    foreign = sorted({card_id for card_id in named if card_id not in held})
    if foreign:
        raise InvalidRequest(
            _("not in your hand: card id(s) %(value)s") % {"value": ", ".join(map(str, foreign))},
            code="cards_not_in_hand",
            details={"ids": foreign},
        )
    twice = sorted({card_id for card_id in named if named.count(card_id) > 1})
    if twice:
        raise InvalidRequest(
            _("each card may be named once: card id(s) %(value)s")
            % {"value": ", ".join(map(str, twice))},
            code="cards_named_twice",
            details={"ids": twice},
        )
    ruleset = deal.ruleset
    answers: list[dict[str, Any]] = []
    checked: list[Meld] = []
    refusal: IllegalMeld | None = None
    for ids in melds:
        try:
            meld = arrange_meld([deal.card(card_id) for card_id in ids], ruleset)
        except IllegalMeld as error:
            refusal = refusal or error
            answers.append(_meld_answer(deal, ids, None, error))
            continue
        checked.append(meld)
        answers.append(_meld_answer(deal, ids, meld, None))
    opening: dict[str, Any] = {"valid": False, "code": None, "message": None}
    if refusal is not None:
        # A lay-down is refused at its first meld that is none (``Deal.apply``).
        opening.update(code=refusal.code, message=refusal_text(refusal))
    else:
        try:
            deal.check_opening(seat.position, checked)
            opening["valid"] = True
        except IllegalAction as error:
            opening.update(code=error.code, message=refusal_text(error))
    return {
        "melds": answers,
        "total": sum(answer["value"] or 0 for answer in answers),
        "opening_minimum": ruleset.opening_minimum,
        "opening": opening,
    }


def _meld_answer(
    deal: EngineDeal, ids: Sequence[int], meld: Meld | None, error: IllegalMeld | None
) -> dict[str, Any]:
    if meld is None:
        assert error is not None
        laid = list(ids)  # as named
        kind, value, code, message = None, None, error.code, refusal_text(error)
    else:
        # The cards as laid out, each with an id of the player's that holds that card
        # (twins are interchangeable).
        left = list(ids)
        laid = []
        for card in meld.cards:
            card_id = next(i for i in left if deal.card(i) == card)
            left.remove(card_id)
            laid.append(card_id)
        kind, value, code, message = meld.kind.value, meld_value(meld, deal.ruleset), None, None
    return {
        "valid": meld is not None,
        "kind": kind,
        "value": value,
        "code": code,
        "message": message,
        "cards": [{"id": card_id, "card": str(deal.card(card_id))} for card_id in laid],
    }


# ------------------------------------------------------------------ the move log

# What ``move_entry`` shows of a logged move (not the payload as sent, nor its key).
_MOVE_LOG_FIELDS = ("ply", "deal", "seat", "user", "kind", "public", "private", "created_at")


def move_entry(move: Move, *, position: int, full: bool, own: bool) -> dict[str, Any]:
    """A logged move as a viewer may see it: its public form, or the private one (with
    the card drawn) for the mover, and for everyone once the game is over."""
    event = move.private if (full or own) and move.private is not None else move.public
    return {
        "ply": move.ply,
        "deal": move.deal.number if move.deal is not None else None,
        "seat": position,
        "kind": move.kind,
        "by_server": move.user_id is None,
        "event": event,
        "created_at": move.created_at,
    }


def move_log_for(*, game: Game, user: User, after: int = 0, limit: int = 500) -> dict[str, Any]:
    """The game's move log from ply ``after + 1``, as ``user`` may see it.

    While the game runs, every move shows its public form (the viewer's own moves
    their private one). Once the game is over the log is complete: every move's
    private form and each deal's dealt hands (from each seat's view of the deal as
    dealt): that is the replay. Each finished deal's result is in it from the start
    (``results.deal_log``).
    """
    viewer = seat_of(game, user)
    full = game.is_over
    # Each move's seat is one of the game's (already read); of its deal only the
    # number: the deal's snapshot and deck stay in the database.
    positions = {seat.pk: seat.position for seat in game.seats.all()}
    moves = list(
        Move.objects.filter(game=game, ply__gt=after)
        .select_related("deal")
        .only(*_MOVE_LOG_FIELDS, "deal__number")
        .order_by("ply")[: limit + 1]
    )
    more = len(moves) > limit
    moves = moves[:limit]
    entries = [
        move_entry(
            move,
            position=positions[move.seat_id],
            full=full,
            own=viewer is not None and move.seat_id == viewer.pk,
        )
        for move in moves
    ]
    return {
        "complete": full,
        "ply": game.ply,
        "moves": entries,
        "next_after": entries[-1]["ply"] if more else None,
        "deals": deal_log(game, complete=full),
        "seating": seating_view(game),
    }
