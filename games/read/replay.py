"""Replay: rebuild a game's deals from their deck orders and the move log.

The log is the truth and the stored snapshots a cache. ``game_replay_check``
rebuilds every deal with the engine (``Deal.from_deck`` plus each logged
action in ply order) and compares it with what was stored: the state
snapshot, the result, and the seats' totals. Tests run it on every game they
play.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from accounts.models import is_builtin_bot
from games.engine import Card, Ruleset, action_from_dict
from games.engine import Deal as EngineDeal
from games.engine.seating import SeatingDraw
from games.models import Deal, Game, Move

# Log entries that are not engine actions (they change seats, not the deal).
NON_ENGINE_KINDS = frozenset({"resign"})


def deal_as_dealt(row: Deal, ruleset: Ruleset, players: int) -> EngineDeal:
    """A deal as it was dealt, from its stored deck order, card ids and seeds."""
    return EngineDeal.from_deck(
        ruleset,
        players,
        dealer=row.dealer,
        deck=[Card.parse(text) for text in row.deck],
        card_ids=row.card_ids,
        reshuffle_seeds=row.reshuffle_seeds,
    )


@dataclass
class ReplayReport:
    deals: list[EngineDeal] = field(default_factory=list)
    seating: SeatingDraw | None = None  # the cards drawn for the seats, if they were
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def game_replay(game: Game) -> ReplayReport:
    """Rebuild every deal of ``game`` from its deck and the log; list any difference
    from the stored snapshots, results and totals."""
    report = ReplayReport()
    ruleset = Ruleset.from_dict(game.ruleset)
    moves = list(Move.objects.filter(game=game).select_related("deal", "seat").order_by("ply"))
    plies = [move.ply for move in moves]
    if plies != list(range(1, len(moves) + 1)) or game.ply != len(moves):
        report.problems.append(f"the log's plies are not 1..{game.ply}: {plies}")
    totals = [0] * game.players
    for row in Deal.objects.filter(game=game).order_by("number"):
        deal = deal_as_dealt(row, ruleset, game.players)
        for move in moves:
            if move.deal_id != row.pk or move.kind in NON_ENGINE_KINDS:
                continue
            if deal.to_move != move.seat.position:
                report.problems.append(f"ply {move.ply}: seat {deal.to_move} was to move")
            deal = deal.apply(action_from_dict(move.payload))
            event = deal.last_event
            assert event is not None
            if event.public != move.public:
                report.problems.append(f"ply {move.ply}: public form differs")
            if (event.private if event.private != event.public else None) != move.private:
                report.problems.append(f"ply {move.ply}: private form differs")
        if deal.to_dict(with_ruleset=False) != row.state:
            report.problems.append(f"deal {row.number}: the snapshot differs from the replay")
        result = deal.result()
        if (None if result is None else result.to_dict()) != row.result:
            report.problems.append(f"deal {row.number}: the stored result differs")
        if result is not None:
            totals = [total + score for total, score in zip(totals, result.scores, strict=True)]
        report.deals.append(deal)
    stored = [seat.total for seat in game.seats.order_by("position")]
    if not report.deals:  # a game that never started: nobody scored
        totals = [0] * len(stored)
    if stored != totals:
        report.problems.append(f"seat totals {stored} differ from the replay's {totals}")
    if game.status == Game.Status.ACTIVE and report.deals:
        _check_turn_columns(game, report.deals[-1], report)
    if game.seating_draw is not None:
        _check_seating(game.seating_draw, report)
    return report


def _check_seating(record: dict[str, Any], report: ReplayReport) -> None:
    """The recorded seating draw settles every tie and gives the seats it says, and the
    first deal starts at the highest card's seat."""
    try:
        report.seating = SeatingDraw.from_dict(record)
    except (ValueError, KeyError, TypeError) as error:
        report.problems.append(f"the seating draw does not hold: {error}")
        return
    if report.deals and report.deals[0].dealer != report.seating.dealer:
        report.problems.append(
            f"the first deal's dealer is {report.deals[0].dealer}, the seating draw's "
            f"{report.seating.dealer}"
        )


def _check_turn_columns(game: Game, deal: EngineDeal, report: ReplayReport) -> None:
    """The game's ``to_move`` and ``bot_to_move`` columns say what the log says (a
    live table between two deals has nobody to move)."""
    if deal.is_over and game.next_deal_at is not None:
        if game.to_move is not None or game.bot_to_move:
            report.problems.append(f"to_move is {game.to_move} while the table pauses")
        return
    if game.to_move != deal.to_move:
        report.problems.append(f"to_move is {game.to_move}; the replay's is {deal.to_move}")
    seat = game.seats.select_related("user__profile").get(position=deal.to_move)
    if game.bot_to_move != is_builtin_bot(seat.user):
        report.problems.append(f"bot_to_move is {game.bot_to_move} with seat {seat.position}")
