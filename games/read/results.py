"""What each finished deal came to, in the one shape that the game view (``deals``), the
move log and the websocket's ``deal_over`` event share.

A deal's result says who went out (the closer, ``winner``) and how (``finish``, and the
card it closed with), each seat's score and penalty, whether it had opened and the
cards it was left holding, the running totals after the deal and the standing in the
match. The hands are shown because the deal is over: a deal being played has no
result, so its hands never leave the server this way.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection

from games.engine import Card, DealResult, Discard, Match, Ruleset
from games.engine import Deal as EngineDeal
from games.models import Deal, Game
from games.read.replay import deal_as_dealt


def deal_result(*, number: int, match: Match) -> dict[str, Any]:
    """The result of ``match``'s current deal, the match's deal ``number``, which must
    be over; ``match`` holds the results of every deal before it."""
    deal = match.deal
    result = deal.result()
    if result is None:
        raise ValueError(f"deal {number} is still being played: its hands are not shown")
    seats = range(deal.num_players)
    totals = match.totals
    return {
        "number": number,
        "dealer": deal.dealer,
        "winner": result.winner,
        "finish": result.finish,
        "closing_card": _closing_card(deal, result),
        "scores": list(result.scores),
        "penalties": list(result.penalties),
        "opened": [deal.has_opened(seat) for seat in seats],
        "hands_left": [_pairs(deal.view(seat).hand or ()) for seat in seats],
        "totals": list(totals),
        "ranks": standing(totals),
        "match_over": match.is_over,
    }


def standing(totals: Sequence[int]) -> list[int]:
    """Each seat's place by its total, lowest first; equal totals share a place (1, 1, 3)."""
    return [1 + sum(other < total for other in totals) for total in totals]


def _closing_card(deal: EngineDeal, result: DealResult) -> dict[str, Any] | None:
    """The discard the winner went out with (a void deal has none)."""
    event = deal.last_event
    if result.winner is None or event is None or not isinstance(event.action, Discard):
        return None
    return _pair(*event.moved[0])


def _pair(card_id: int, card: Card) -> dict[str, Any]:
    return {"id": card_id, "card": str(card)}


def _pairs(cards: Iterable[tuple[int, Card]]) -> list[dict[str, Any]]:
    return [_pair(card_id, card) for card_id, card in cards]


def _results(
    game: Game, rows: Iterable[Deal], ruleset: Ruleset | None = None
) -> dict[int, dict[str, Any]]:
    """The results of the finished deals among ``rows`` (``game``'s deals in order), by
    deal number; ``ruleset``: the game's, when the caller has it."""
    if ruleset is None:
        ruleset = game.engine_ruleset()
    past: list[DealResult] = []
    found = {}
    for row in rows:
        if row.result is None:
            continue
        match = Match(row.restore(ruleset), tuple(past))
        found[row.number] = deal_result(number=row.number, match=match)
        result = match.deal.result()
        assert result is not None
        past.append(result)
    return found


def finished_deals(game: Game, current: EngineDeal | None = None) -> list[dict[str, Any]]:
    """The results of the game's finished deals, in order (the game view's ``deals``).

    ``current`` is the engine state of the deal being played, when the caller has it:
    in the first deal of a match, as long as it runs, nothing is read.
    """
    running_first = game.deal_number == 1 and current is not None and not current.is_over
    if game.deal_number == 0 or running_first:
        return []
    if current is None:
        return list(_results(game, _finished_rows(game)).values())
    finished = game.deal_number - (0 if current.is_over else 1)
    key = (game.pk, game.public_id, finished)
    with _kept_lock:
        kept = _kept.get(key)
        if kept is not None:
            _kept.move_to_end(key)
            return list(kept)
    results = tuple(_results(game, _finished_rows(game)).values())
    if connection.in_atomic_block:
        return list(results)  # not committed yet: a rollback could still undo a deal
    with _kept_lock:
        _kept[key] = results
        while len(_kept) > _KEPT_GAMES:
            _kept.popitem(last=False)
    return list(results)


# A finished deal never changes, and neither do the deals before it: every move of a
# deal would otherwise rebuild each earlier deal from its snapshot to answer with the
# same results (a fifth of a move's time late in a match). Kept per process, by the
# game's key and its number of finished deals, for the most recently answered games.
_KEPT_GAMES = 2048
_kept: OrderedDict[tuple[int, str, int], tuple[dict[str, Any], ...]] = OrderedDict()
_kept_lock = threading.Lock()


def _finished_rows(game: Game) -> Iterable[Deal]:
    return (
        Deal.objects.filter(game=game, result__isnull=False)
        .order_by("number")
        .only("number", "dealer", "state", "result")
    )


def deal_log(game: Game, *, complete: bool) -> list[dict[str, Any]]:
    """The move log's deals: each finished deal with its ``result``. In the complete log
    of a game that is over, every deal, with its dealt ``hands``, first ``discard`` and
    first ``to_move`` too (from every seat's view of the deal as dealt)."""
    if not complete:
        return [
            {"number": result["number"], "dealer": result["dealer"], "result": result}
            for result in _results(game, _finished_rows(game)).values()
        ]
    rows = list(Deal.objects.filter(game=game).order_by("number"))
    ruleset = game.engine_ruleset()
    results = _results(game, rows, ruleset)
    out = []
    for row in rows:
        first = deal_as_dealt(row, ruleset, game.players)
        views = [first.view(seat).to_dict() for seat in range(game.players)]
        out.append(
            {
                "number": row.number,
                "dealer": row.dealer,
                "hands": [view["hand"] for view in views],
                "discard": views[0]["discard"],
                "to_move": views[0]["to_move"],
                "result": results.get(row.number),
            }
        )
    return out
