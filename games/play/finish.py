"""The end of a deal and of a game: a finished deal scored into the seats' totals,
then the next deal dealt, the pause of a live table before it, or the match over
(its winners, statistics, ratings and pot)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from accounts.models import is_builtin_bot
from games import ratings, stats
from games.chips import services as chips
from games.engine import Deal as EngineDeal
from games.engine import Match
from games.engine.scoring import DealResult
from games.models import Deal, Game, Seat
from games.play import events, shuffle, store
from games.read.results import deal_result


def deal_finish(
    game: Game, row: Deal, deal: EngineDeal, seats: list[Seat], changed: set[Seat]
) -> Deal:
    """Score a finished deal into the seats' totals, then deal the next one or end
    the match. Returns the row of the deal now current."""
    result = deal.result()
    assert result is not None
    now = timezone.now()
    row.keep(deal)
    row.result = result.to_dict()
    row.finished_at = now
    row.save(update_fields=["state", "result", "finished_at"])
    stats.deal_finished(game=game, seats=seats, result=row.result)
    for seat, score in zip(seats, result.scores, strict=True):
        seat.total += score
        changed.add(seat)

    match = match_of(game, row, deal)
    # The game view's and the move log's own shape of the result (games.read.results).
    summary = deal_result(number=row.number, match=match)
    pause = not match.is_over and _pauses(game, seats)
    next_deal_at = now + deal_pause() if pause else None
    events.notify(
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
        game_finish(game, seats, reason="completed", now=now)
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
    return next_deal(game, row, deal, match)


def match_of(game: Game, row: Deal, deal: EngineDeal) -> Match:
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
        and bool(people_in(seats))
    )


def people_in(seats: Sequence[Seat]) -> list[int]:
    """The positions of the persons (not bots) still in the game."""
    return [
        seat.position
        for seat in seats
        if seat.status != Seat.Status.OUT and not is_builtin_bot(seat.user)
    ]


def next_deal(game: Game, row: Deal, deal: EngineDeal, match: Match) -> Deal:
    """Deal the deal after ``row`` (whose finished engine state is ``deal``)."""
    number = row.number + 1
    following = shuffle.deal_source(
        deal.ruleset, game.players, dealer=match.next_dealer, number=number
    )
    match.with_next_deal(following)  # checks the dealer and the ruleset
    new_row = store.deal_create(game, following, number=number)
    game.deal_over_at = None
    game.next_deal_at = None
    game.deal_ready = []
    events.notify(game, {"type": "deal_started", "deal": number, "dealer": following.dealer})
    return new_row


def game_finish(game: Game, seats: list[Seat], *, reason: str, now: datetime) -> None:
    """The match is over: the lowest total among the seats still in wins (ties share)."""
    contenders = [seat for seat in seats if seat.status != Seat.Status.OUT] or seats
    best = min(seat.total for seat in contenders)
    winners = [seat.position for seat in contenders if seat.total == best]
    game_over(game, seats, winners=winners, reason=reason, now=now)


def game_over(
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
    Seat.objects.filter(game=game).update(game_ended_at=now)
    stats.game_finished(game=game, seats=seats)  # before the ratings: the lock order
    changes = ratings.game_rate(game=game, seats=seats)
    split = chips.pot_settle(game=game, seats=seats)
    events.notify(
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
