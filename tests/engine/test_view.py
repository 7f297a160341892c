"""The per-seat view: what a seat may see, and nothing more (ARCHITECTURE.md)."""

from __future__ import annotations

import json
import random

import pytest

from games.engine import Deal, SeatView
from tests.engine.helpers import SERBIAN, cards, play, position


def mid_game() -> Deal:
    deal = position(
        SERBIAN,
        "10H JH QH KH 10S 10D 10C 4D 9S",
        "2C 3C 4C 9H",
        "AS 5H 6H",
        stock="7C 8C 9C",
        discard="QD KD",
        table=[(1, "JS QS KS")],
    )
    return play(deal, "draw", "lay 10H JH QH KH | 10S 10D 10C", "discard 4D")


def ids_in(value) -> set[int]:
    """Every card id a JSON view mentions (cards appear as {"id": ..., "card": ...})."""
    found: set[int] = set()
    if isinstance(value, dict):
        if set(value) == {"id", "card"}:
            found.add(value["id"])
        for item in value.values():
            found |= ids_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= ids_in(item)
    return found


def test_a_seat_sees_its_own_hand_with_ids():
    deal = mid_game()
    view = deal.view(0)
    assert isinstance(view, SeatView)
    assert view.hand == tuple(zip(deal.hand_ids(0), deal.hands[0], strict=True))


def test_a_seat_sees_other_hands_only_as_counts():
    view = mid_game().view(1)
    assert view.hand_counts == (2, 4, 3)
    assert len(view.hand) == 4


def test_a_spectator_sees_no_hand():
    view = mid_game().view(None)
    assert view.hand is None
    assert view.actions == ()
    assert view.to_dict()["hand"] is None


def test_the_table_and_discard_pile_are_public_with_ids():
    deal = mid_game()
    view = deal.view(2).to_dict()
    assert [meld["owner"] for meld in view["table"]] == [1, 0, 0]
    assert [meld["kind"] for meld in view["table"]] == ["run", "run", "set"]
    assert [pair["card"] for pair in view["table"][1]["cards"]] == ["10H", "JH", "QH", "KH"]
    assert [pair["card"] for pair in view["discard"]] == ["QD", "KD", "4D"]
    assert view["stock_count"] == 2
    assert view["opened"] == [True, True, False]


@pytest.mark.parametrize("seat", [0, 1, 2, None])
def test_view_never_shows_another_hand_the_stock_or_the_deck(seat):
    deal = mid_game()
    view = deal.view(seat).to_dict()
    visible = {i for meld in deal.table for i in meld.ids} | set(deal.discard_ids)
    if seat is not None:
        visible |= set(deal.hand_ids(seat))
    assert ids_in(view) <= visible
    text = json.dumps(view)
    for secret in ("deck", 'stock"', "seed", "card_ids"):
        assert secret not in text


def test_view_is_json_safe():
    view = mid_game().view(0)
    assert json.loads(json.dumps(view.to_dict())) == view.to_dict()


def test_another_players_draw_is_public_without_the_card():
    deal = play(mid_game(), "draw")
    drawn_id = deal.hand_ids(1)[-1]
    assert deal.view(0).last_event == {"type": "draw", "seat": 1, "stock_count": 1}
    own = deal.view(1).last_event
    assert own["card"] == {"id": drawn_id, "card": str(deal.hands[1][-1])}
    assert drawn_id not in ids_in(deal.view(0).to_dict())
    assert str(deal.last_event) == "seat 1 drew from stock"


def test_view_says_what_the_seat_may_do_now():
    deal = mid_game()
    assert deal.view(1).actions == ("draw", "take")
    assert deal.view(0).actions == ()
    deal = play(deal, "draw")
    assert deal.view(1).phase == "play"
    assert "discard" in deal.view(1).actions
    assert deal.view(1).actions == ("lay", "off", "discard")  # 2C 3C 4C; 9H onto 10H..KH


def test_view_shows_the_taken_card_and_the_serbian_obligation():
    deal = play(mid_game(), "draw", "discard 2C", "take")  # seat 2 has not opened
    view = deal.view(2)
    assert view.taken == (deal.hand_ids(2)[-1], cards("2C")[0])
    assert view.must_return is cards("2C")[0]
    assert view.actions == ("undo", "discard")
    assert deal.view(0).must_return is cards("2C")[0]  # public: everyone saw the take
    assert deal.view(0).actions == ()


def test_view_of_a_finished_deal_shows_the_result():
    deal = position(SERBIAN, "5C", "KS 3D", drawn=True, opened=[0])
    view = play(deal, "discard 5C").view(1)
    assert view.phase == "over"
    assert view.result.winner == 0
    assert view.to_dict()["result"]["scores"] == [-40, 100]
    assert view.actions == ()


def test_view_of_a_fresh_deal():
    deal = Deal.new(SERBIAN, 4, dealer=3, rng=random.Random(1))
    view = deal.view(0)
    assert view.phase == "play"  # the starter was dealt the extra card instead of drawing
    assert view.first_round
    assert view.hand_counts == (15, 14, 14, 14)
    assert view.last_event is None


def test_view_of_a_missing_seat_is_refused():
    with pytest.raises(ValueError, match="no seat 3"):
        mid_game().view(3)


def test_every_move_has_a_public_text():
    deal = position(
        SERBIAN,
        "10H JH QH KH 10S 10D 10C 6C 9H 4D",
        "2C 3C",
        stock="5D 7D",
        discard="8D",
        table=[(1, "5C JK 7C")],
    )
    texts = []
    for move in [
        "take",
        "undo",
        "lay 10H JH QH KH | 10S 10D 10C",
        "off 9H 1",
        "swap 6C 0",
        "discard 4D",
        "draw",
    ]:
        deal = play(deal, move)
        texts.append(str(deal.last_event))
    assert texts == [
        "seat 0 took 8D",
        "seat 0 put back 8D and drew from stock",
        "seat 0 laid 10H JH QH KH | 10S 10D 10C",
        "seat 0 laid off 9H on meld 1",
        "seat 0 gave 6C for the joker of meld 0",
        "seat 0 discarded 4D",
        "seat 1 drew from stock",
    ]
