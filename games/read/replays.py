"""The replay of a finished game: every deal as dealt and the table after each move.

The engine replays the log (``replay.deal_as_dealt`` plus each logged action in ply
order), so what is shown is what was played, not a copy kept beside it. The game is
over, so every hand is shown. Each deal sends its cards once (``cards``: the card of
each physical id) and each table state names cards by id only, which keeps the answer
small and lets the page draw any move without applying a rule itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from games.engine import Deal as EngineDeal
from games.engine import Ruleset, action_from_dict
from games.errors import Conflict
from games.models import Deal, Game, Move, Seat
from games.read.catalogue import preset_name
from games.read.move_log import move_entry
from games.read.replay import NON_ENGINE_KINDS, deal_as_dealt
from games.read.results import deal_log
from games.read.selectors import user_card

NOT_FINISHED = "game_not_finished"


def game_replay_for(*, game: Game) -> dict[str, Any]:
    """Every deal of a finished ``game``: its cards, the table before the first move and
    after each one, the moves and the deal's result. A game not finished is a
    ``Conflict`` (``game_not_finished``): its hands are still secret."""
    if game.status != Game.Status.FINISHED:
        raise Conflict(
            _("the replay opens once the game is finished"),
            code=NOT_FINISHED,
            details={"status": game.status},
        )
    ruleset = Ruleset.from_dict(game.ruleset)
    seats = sorted(game.seats.all(), key=lambda seat: seat.position)
    positions = {seat.pk: seat.position for seat in seats}
    moves = list(
        Move.objects.filter(game=game)
        .select_related("deal")
        .order_by("ply")
        .only(
            "ply",
            "deal",
            "seat",
            "user",
            "kind",
            "payload",
            "public",
            "private",
            "created_at",
            "deal__number",
        )
    )
    results = {entry["number"]: entry["result"] for entry in deal_log(game, complete=True)}
    deals = [
        _deal_replay(
            row,
            deal_as_dealt(row, ruleset, game.players),
            [move for move in moves if move.deal_id == row.pk],
            positions,
            results.get(row.number),
        )
        for row in Deal.objects.filter(game=game).order_by("number")
    ]
    return {
        "id": game.public_id,
        "preset": game.preset,
        "preset_name": preset_name(game.preset),
        "players": game.players,
        "seats": [_seat(seat) for seat in seats],
        "winners": game.winners,
        "end_reason": game.end_reason or None,
        "finished_at": game.finished_at,
        "deals": deals,
    }


def _seat(seat: Seat) -> dict[str, Any]:
    return {"position": seat.position, "user": user_card(seat.user), "total": seat.total}


def _deal_replay(
    row: Deal,
    deal: EngineDeal,
    moves: Sequence[Move],
    positions: dict[int, int],
    result: dict[str, Any] | None,
) -> dict[str, Any]:
    cards = [str(deal.card(card_id)) for card_id in range(deal.ruleset.pack_size())]
    states = [table_state(deal)]
    entries = []
    for move in moves:
        if move.kind not in NON_ENGINE_KINDS:
            deal = deal.apply(action_from_dict(move.payload))
        states.append(table_state(deal))
        entries.append(move_entry(move, position=positions[move.seat_id], full=True, own=True))
    return {
        "number": row.number,
        "dealer": row.dealer,
        "cards": cards,
        "states": states,
        "moves": entries,
        "result": result,
    }


def table_state(deal: EngineDeal) -> dict[str, Any]:
    """The whole table of ``deal``, every hand face up, cards by id."""
    seats = range(deal.num_players)
    return {
        "to_move": None if deal.is_over else deal.to_move,
        "hands": [list(deal.hand_ids(seat)) for seat in seats],
        "table": [
            {"owner": meld.owner, "kind": meld.kind.value, "cards": list(meld.ids)}
            for meld in deal.table
        ],
        "discard": list(deal.discard_ids),
        "stock_count": deal.stock_count,
        "opened": [deal.has_opened(seat) for seat in seats],
    }
