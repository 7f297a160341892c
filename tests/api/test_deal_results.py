"""Results that stay: each finished deal's result (the closer and how it closed, every
seat's score, penalty and the hand it was left with, the running totals and the
standing) is in the game (`deals`), in the move log from the moment the deal ends, and
in the websocket's `deal_over` event: one object, built once (games/read/results.py)."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import PRESETS, Deal, Discard, DrawStock, Match, parse_cards
from games.models import Deal as DealRow
from games.read.results import deal_result, standing
from tests.gamekit import SchemaChecker, current_engine_deal, quick_actions, table_create
from tests.group_events_kit import heard

pytestmark = pytest.mark.django_db
GAME = "/api/v1/games/{game_id}"
MOVES = "/api/v1/games/{game_id}/moves"
TWO_DEALS = {"match_deals": [2, 2, 2]}


def play_quick_deal(table) -> list[Any]:
    """The starter of a quick deal lays both runs and goes out with 5D (a dry hand)."""
    game = table.game
    starter = current_engine_deal(game).to_move
    answers = []
    for action in quick_actions():
        answer = table.act(starter, action, table.game.ply)
        assert answer.status_code == 200, answer.json()
        answers.append(answer.json())
    return answers


def test_a_finished_deal_is_in_the_game_view_with_every_hand_left(players, quick_deals):
    table = table_create(players(2), preset="serbian", overrides=TWO_DEALS)
    assert table.view(0)["deals"] == []

    play_quick_deal(table)

    row = DealRow.objects.get(game=table.game, number=1)
    finished = row.restore(table.game.engine_ruleset())
    for client in table.clients:
        view = client.get(table.url()).json()
        [result] = view["deals"]
        assert result["number"] == 1 and result["dealer"] == finished.dealer
        assert result["winner"] == 0 and result["finish"] == "dry_hand"
        assert result["closing_card"]["card"] == "5D"
        assert result["closing_card"]["id"] == finished.discard_ids[-1]
        # The serbian dry hand: -280 for the closer, 400 for a player who never opened.
        assert result["scores"] == [-280, 400]
        assert result["opened"] == [True, False]
        assert result["hands_left"][0] == []
        assert [pair["id"] for pair in result["hands_left"][1]] == list(finished.hand_ids(1))
        assert [pair["card"] for pair in result["hands_left"][1]] == [
            str(card) for card in finished.hand(1)
        ]
        assert result["penalties"] == row.result["penalties"] and result["penalties"][0] == 0
        assert result["totals"] == [-280, 400] == [seat["total"] for seat in view["seats"]]
        assert result["ranks"] == [1, 2] and result["match_over"] is False
        SchemaChecker(client).check("GET", GAME, 200, view)


def test_the_move_log_keeps_each_result_while_the_game_runs_and_after(players, quick_deals):
    table = table_create(players(2), preset="serbian", overrides=TWO_DEALS)
    play_quick_deal(table)
    first = table.view(0)["deals"][0]

    log = table.clients[1].get(table.url("/moves")).json()

    assert log["complete"] is False
    assert log["deals"] == [{"number": 1, "dealer": first["dealer"], "result": first}]
    SchemaChecker(table.clients[1]).check("GET", MOVES, 200, log)

    play_quick_deal(table)  # the second and last deal: the match is over
    view = table.view(1)
    log = table.clients[1].get(table.url("/moves")).json()

    assert view["status"] == "finished" and len(view["deals"]) == 2
    assert view["deals"][0] == first  # a result never changes
    second = view["deals"][1]
    assert second["winner"] == 1 and second["totals"] == [120, 120]
    assert second["ranks"] == [1, 1] and second["match_over"] is True
    assert log["complete"] is True
    assert [entry["result"] for entry in log["deals"]] == view["deals"]
    assert all(len(entry["hands"]) == 2 for entry in log["deals"])  # the replay's hands
    SchemaChecker(table.clients[1]).check("GET", MOVES, 200, log)


def test_the_deal_over_event_carries_the_same_result(
    players, quick_deals, django_capture_on_commit_callbacks
):
    table = table_create(players(2), preset="serbian", overrides=TWO_DEALS)
    starter = current_engine_deal(table.game).to_move
    lay, discard = quick_actions()
    assert table.act(starter, lay, table.game.ply).status_code == 200

    def going_out() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            assert table.act(starter, discard, table.game.ply).status_code == 200

    events = heard(table.game_id, going_out)

    [over] = [event for event in events if event["type"] == "deal_over"]
    assert over["deal"] == 1
    assert over["result"] == table.view(0)["deals"][0]


def test_a_void_deal_has_no_closer_and_shows_every_hand():
    ruleset = PRESETS["serbian"].replace(max_reshuffles=0)
    deal = Deal.from_position(
        ruleset, hands=[parse_cards("7H 9C"), parse_cards("2S 3D")], stock=parse_cards("KD")
    )
    deal = deal.apply(DrawStock()).apply(Discard(parse_cards("KD")[0]))  # the stock is gone
    assert deal.is_over

    result = deal_result(number=3, match=Match(deal, ()))

    assert result["winner"] is None and result["finish"] == "void"
    assert result["closing_card"] is None
    assert result["scores"] == [0, 0] and result["penalties"] == [16, 5]
    assert [[pair["card"] for pair in hand] for hand in result["hands_left"]] == [
        ["7H", "9C"],
        ["2S", "3D"],
    ]


def test_a_running_deal_has_no_result():
    deal = Deal.from_position(
        PRESETS["serbian"],
        hands=[parse_cards("7H 9C"), parse_cards("2S 3D")],
        stock=parse_cards("KD"),
    )

    with pytest.raises(ValueError, match="still being played"):
        deal_result(number=1, match=Match(deal, ()))


def test_equal_totals_share_a_place():
    assert standing([120, 120]) == [1, 1]
    assert standing([30, -20, 30, 55]) == [2, 1, 2, 4]
