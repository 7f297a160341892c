"""Seating by drawn cards (Remik 51): the highest card starts, the others follow it
clockwise by their cards' values, ties draw again; a pure function of the cards."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import JOKER, PRESETS, Card, parse_cards
from games.engine.seating import (
    DRAW_PACK,
    SeatingDraw,
    draw_cards,
    draw_value,
    order_by_draws,
    seats_for_order,
)

# The Polish seed, verbatim.
SEED_SEATING = (
    "Na początku każdej partii ustala się kolejność graczy, każdy gracz otrzymuje losową "
    "kartę, a gracz z najwyższą kartą rozpoczyna grę, kolejność pozostałych graczy ustala "
    "się w zależności od wartości ich kart, zgodnie z ruchem wskazówek zegara."
)


def draws(*players: str) -> list[list[Card]]:
    return [parse_cards(cards) for cards in players]


def clockwise_from_starter(seating: SeatingDraw) -> list[tuple[int, ...]]:
    """Each seat's drawn values, going round the table from the starter."""
    by_seat = seating.drawn_by_seat()
    n = seating.players
    return [
        tuple(draw_value(card) for card in by_seat[(seating.starter + k) % n]) for k in range(n)
    ]


def test_the_seed_rule_highest_starts_and_the_others_follow_clockwise_by_value() -> None:
    assert "gracz z najwyższą kartą rozpoczyna grę" in SEED_SEATING
    # Four players in lobby order draw 7, Q, 3 and K.
    seating = SeatingDraw.from_draws(draws("7H", "QS", "3D", "KC"))
    assert seating.order == (3, 1, 0, 2)  # K, Q, 7, 3
    assert seating.starter == seating.seats[3]
    assert clockwise_from_starter(seating) == [(13,), (12,), (7,), (3,)]
    # The deal starts at the seat after the dealer: the starter.
    assert (seating.dealer + 1) % 4 == seating.starter


def test_the_ace_is_the_highest_card_and_suits_break_no_tie() -> None:
    assert draw_value(Card.parse("AS")) == 14 > draw_value(Card.parse("KS")) == 13
    assert draw_value(Card.parse("2C")) == 2
    with pytest.raises(ValueError, match="tied and did not draw again"):
        order_by_draws(draws("KH", "KS"))


def test_tied_players_draw_again_among_themselves() -> None:
    # Both kings draw again (4 beats 2); the ace never had to.
    seating = SeatingDraw.from_draws(draws("KH 4C", "KS 2C", "AD"))
    assert seating.order == (2, 0, 1)
    assert clockwise_from_starter(seating) == [(14,), (13, 4), (13, 2)]


def test_a_record_that_settles_nothing_is_refused() -> None:
    with pytest.raises(ValueError, match="drew again without a tie"):
        order_by_draws(draws("KH 4C", "QS"))
    with pytest.raises(ValueError, match="every player draws"):
        order_by_draws(draws("KH", ""))


def test_jokers_are_not_in_the_pack_and_have_no_value() -> None:
    assert JOKER not in DRAW_PACK and len(DRAW_PACK) == 104
    with pytest.raises(ValueError, match="joker"):
        draw_value(JOKER)


def test_two_players_never_change_seats_the_draw_only_says_who_starts() -> None:
    assert SeatingDraw.from_draws(draws("3H", "9S")).seats == (0, 1)
    assert SeatingDraw.from_draws(draws("9H", "3S")).seats == (0, 1)
    assert SeatingDraw.from_draws(draws("3H", "9S")).starter == 1


def test_the_rotation_keeps_the_most_players_in_their_seats() -> None:
    # Clockwise order 2, 0, 1 is the lobby's order 0, 1, 2 turned: nobody moves.
    assert seats_for_order((2, 0, 1)) == (0, 1, 2)
    with pytest.raises(ValueError):
        seats_for_order((0, 0, 1))


def test_the_record_round_trips_and_a_changed_seat_is_noticed() -> None:
    seating = SeatingDraw.from_draws(draws("KH 4C", "KS 2C", "AD", "5S"))
    data = seating.to_dict()
    assert data == {
        "draws": [["KH", "4C"], ["KS", "2C"], ["AD"], ["5S"]],
        "seats": list(seating.seats),
    }
    assert SeatingDraw.from_dict(data) == seating
    tampered = {**data, "seats": list(reversed(data["seats"]))}
    with pytest.raises(ValueError, match="do not follow from the cards"):
        SeatingDraw.from_dict(tampered)


def test_the_view_shows_the_cards_by_the_new_seats() -> None:
    # Lobby order 7, Q, 3, K: clockwise K, Q, 7, 3, turned so that two keep their seats.
    seating = SeatingDraw.from_draws(draws("7H", "QS", "3D", "KC"))

    assert seating.seats == (1, 0, 2, 3)
    assert seating.view() == {
        "cards": [["QS"], ["7H"], ["3D"], ["KC"]],
        "starter": 3,
        "lobby_seats": [1, 0, 2, 3],
    }


def test_the_same_random_source_draws_the_same_cards() -> None:
    assert draw_cards(6, random.Random(5)) == draw_cards(6, random.Random(5))


def test_a_pack_of_one_value_could_never_break_a_tie() -> None:
    with pytest.raises(ValueError, match="two values"):
        draw_cards(2, random.Random(0), pack=parse_cards("KH KS"))


@given(players=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_any_draw_seats_everyone_once_in_order_of_their_cards(players: int, seed: int) -> None:
    drawn = draw_cards(players, random.Random(seed))
    seating = SeatingDraw.from_draws(drawn)
    assert sorted(seating.seats) == list(range(players))
    # Clockwise from the starter the cards only go down (ties were drawn again).
    values = clockwise_from_starter(seating)
    assert values == sorted(values, reverse=True)
    assert len(set(values)) == players
    # No rotation of that clockwise order keeps more players where they sat.
    stay = sum(player == seat for player, seat in enumerate(seating.seats))
    for shift in range(players):
        turned = [(seat + shift) % players for seat in seating.seats]
        assert sum(player == seat for player, seat in enumerate(turned)) <= stay
    assert SeatingDraw.from_dict(seating.to_dict()) == seating


@given(players=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_ties_are_drawn_again_until_broken_even_from_a_tiny_pack(players: int, seed: int) -> None:
    # Kings and twos only: ties at almost every draw, and the pack runs out and is
    # gathered again.
    drawn = draw_cards(players, random.Random(seed), pack=parse_cards("KH KS KD 2C 2H 2S"))
    seating = SeatingDraw.from_draws(drawn)
    assert len(set(clockwise_from_starter(seating))) == players


def test_the_polish_preset_seats_by_drawn_cards_and_the_others_do_not() -> None:
    assert PRESETS["polish51"].seating_by_card_draw is True
    assert PRESETS["serbian"].seating_by_card_draw is False
    assert PRESETS["macedonian"].seating_by_card_draw is False
