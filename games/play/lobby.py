"""The lobby's commands: join (or come back to one's seat), leave, abort, and the
host's start (the stakes taken, the seats drawn, the first deal dealt)."""

from __future__ import annotations

import secrets

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from games import stats
from games.chips import services as chips
from games.engine.seating import SeatingDraw
from games.errors import Conflict, GameNotFound, NotAllowed
from games.models import Game, Seat
from games.play import events, sanctions, shuffle, store, turns


def game_join(*, game: Game, user: User, invite_code: str | None = None) -> Seat:
    """Take a free seat in the lobby, or come back to one's own seat of a running game.

    Joining is idempotent. A private game needs its invite code; without it the
    game does not exist for the user (``GameNotFound``). A seat that was left
    keeps its total: rejoining never resets a score.
    """
    with transaction.atomic():
        game = store.lock(game)
        seats = store.seats(game)
        seat = store.seat_of(seats, user)
        if seat is not None:
            if seat.status == Seat.Status.OUT:
                raise NotAllowed(gettext("you resigned from this game"), code="seat_out")
            if seat.status == Seat.Status.LEFT and not game.is_over:
                seat.status = Seat.Status.ACTIVE
                seat.save(update_fields=["status"])
                events.notify(game, {"type": "player_returned", "seat": seat.position})
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
        sanctions.account_check(user=user)
        if game.rated:
            sanctions.playban_check(user=user)
        chips.stake_affordable(users=[user], stake=game.stake)
        try:
            with transaction.atomic():
                seat = Seat.objects.create(game=game, user=user, position=free[0])
        except IntegrityError:  # pragma: no cover - the game lock makes this impossible
            raise Conflict(gettext("the seat was just taken"), code="game_full") from None
        game.save(update_fields=["updated_at"])
        events.notify(game, {"type": "player_joined", "seat": seat.position, "user": _name(user)})
    return seat


def game_leave(*, game: Game, user: User) -> None:
    """Leave a game.

    In the lobby the seat is freed (the host leaving aborts the game); a private game's
    player then no longer sees it, and their websockets stop following it at once. In a
    running game the seat stays, with its total, marked as left: the player may
    come back with ``game_join``; until then the turn deadlines play for them.
    """
    with transaction.atomic():
        game = store.lock(game)
        seat = store.seat_of(store.seats(game), user)
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
            events.notify(game, {"type": "player_left", "seat": seat.position})
            if game.is_private:
                # Seatless, they may no longer see it: their connections stop following it.
                events.access_ended(user_id=user.pk, game_id=game.public_id)
            return
        if seat.status == Seat.Status.ACTIVE:
            seat.status = Seat.Status.LEFT
            seat.save(update_fields=["status"])
            game.save(update_fields=["updated_at"])
            events.notify(game, {"type": "player_left", "seat": seat.position})


def game_abort(*, game: Game, user: User | None = None) -> Game:
    """End a game without a result.

    The host may abort a game in the lobby; the system (``user=None``: admin,
    moderation, the live-play policies) may abort any game not yet over.
    """
    with transaction.atomic():
        game = store.lock(game)
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
    Seat.objects.filter(game=game).update(game_ended_at=game.finished_at)
    events.notify(game, {"type": "game_aborted", "reason": reason})


def game_start(*, game: Game, user: User) -> Game:
    """The host starts a full game: every player puts the stake into the pot, the seats
    are drawn for where the ruleset says so, and the first deal is shuffled
    (``secrets``) and dealt."""
    with transaction.atomic():
        game = store.lock(game)
        if game.owner_id != user.pk:
            raise NotAllowed(gettext("only the host may start the game"), code="not_host")
        if game.status != Game.Status.LOBBY:
            raise Conflict(gettext("the game has already started"), code="game_not_in_lobby")
        seats = store.seats(game)
        if len(seats) < game.players:
            raise Conflict(
                ngettext(
                    "%(count)s of %(players)s seat is taken",
                    "%(count)s of %(players)s seats are taken",
                    game.players,
                )
                % {"count": len(seats), "players": game.players},
                code="not_enough_players",
            )
        for seat in seats:
            # A seat taken before its account was closed or banned (the lifecycle
            # gives such seats up; this holds against a race with it).
            sanctions.account_check(user=seat.user)
            if game.rated:
                sanctions.playban_check(user=seat.user, acting=user)
        chips.stakes_take(game=game, seats=seats)
        now = timezone.now()
        game.status = Game.Status.ACTIVE
        game.started_at = now
        ruleset = game.get_ruleset()
        dealer = None
        seating = None
        if ruleset.seating_by_card_draw:
            drawn = shuffle.seating_source(game.players)
            seats = _reseat(seats, drawn)
            game.seating_draw = drawn.to_dict()
            dealer = drawn.dealer
            seating = drawn.view()
        deal = shuffle.deal_source(ruleset, game.players, dealer=dealer, number=1)
        store.deal_create(game, deal, number=1)
        turns.turn_start(game, now, seats[deal.to_move])
        game.save()
        stats.game_started(game=game, seats=seats)
        events.notify(game, {"type": "game_started", "deal": 1, "seating": seating})
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


def _name(user: User) -> str:
    return user.get_username()
