"""Whole games through the public API to the end: every preset with 2 players, each
rule family with 4. Macedonian two-player matches play their default length; the other
matches at most four deals (with four players, each seat deals once)."""

from __future__ import annotations

import pytest

from games.engine import PRESETS
from games.models import Deal, Game, Move
from tests.gamekit import read_all, table_create

# Every preset with two players; four players for each rule family (old remi scores
# a serbian match differently, on the same table).
MATCHES = [(preset, 2) for preset in PRESETS] + [
    (preset, 4) for preset in PRESETS if preset != "serbian_old_remi"
]
# One match of the default length is enough to cover it: the three Balkan presets'
# two-player default is the same eight deals, and each of these matches takes seconds
# of the suite per deal.
DEFAULT_LENGTH = ("macedonian", 2)
SHORT_MATCH_DEALS = 4


@pytest.mark.parametrize(("preset", "players_count"), MATCHES)
def test_a_whole_match_is_played_to_the_end(
    players, spectator, deals_seeded, preset, players_count
):
    deals_seeded(1000 + players_count)
    overrides = {}
    deals = list(PRESETS[preset].match_deals)
    if (preset, players_count) != DEFAULT_LENGTH and deals[players_count - 2] > SHORT_MATCH_DEALS:
        # With four players, four deals move the deal round every seat.
        deals[players_count - 2] = SHORT_MATCH_DEALS
        overrides["match_deals"] = deals
    table = table_create(
        players(players_count), preset=preset, overrides=overrides, spectator=spectator
    )

    moves = table.play_turns(check_every=25)
    table.check_everyone()

    game = table.game
    assert game.status == Game.Status.FINISHED
    assert game.end_reason == "completed"
    assert game.ply == moves == Move.objects.filter(game=game).count()
    deals = list(Deal.objects.filter(game=game).order_by("number"))
    ruleset = game.engine_ruleset()
    totals = [seat.total for seat in game.seats.order_by("position")]
    # The match ended as docs/rules.md §9 says: all its deals, or a total of 501.
    assert len(deals) == ruleset.deals_in_match(players_count) or (
        ruleset.match_end_score is not None and max(totals) >= ruleset.match_end_score
    )
    assert all(deal.result is not None for deal in deals)
    # Dealer and starter move one seat on for each new deal.
    assert [d.dealer for d in deals[1:]] == [(d.dealer + 1) % players_count for d in deals[:-1]]
    assert game.winners == [p for p, total in enumerate(totals) if total == min(totals)]
    # Everyone, the spectator too, may now read the complete log: the replay.
    log = read_all(table.spectator, table.url("/moves?page_size=100"))
    assert log["complete"] is True
    assert [entry["ply"] for entry in log["results"]] == list(range(1, moves + 1))
    assert [d["number"] for d in log["deals"]] == [d.number for d in deals]
