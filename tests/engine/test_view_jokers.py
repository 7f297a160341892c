"""A table meld's view says what each of its jokers stands for."""

from __future__ import annotations

from tests.engine.helpers import SERBIAN, position


def table_view(*melds: str) -> list[dict]:
    deal = position(
        SERBIAN,
        "10H JH QH KH 10S 10D 10C 6C 9H 4D",
        "2C 3C",
        stock="5D 7D",
        discard="8D",
        table=[(1, meld) for meld in melds],
    )
    return deal.view(0).to_dict()["table"]


def test_a_runs_joker_stands_for_the_card_in_its_place() -> None:
    [run] = table_view("5C JK 7C")

    assert run["jokers"] == [{"position": 1, "rank": "6", "card": "6C"}]


def test_a_joker_at_the_top_of_a_run_to_the_ace_stands_for_the_ace() -> None:
    [run] = table_view("QH KH JK")

    assert run["jokers"] == [{"position": 2, "rank": "A", "card": "AH"}]


def test_a_sets_joker_stands_for_its_rank_in_any_missing_suit() -> None:
    [group] = table_view("9S 9H JK")

    assert group["jokers"] == [{"position": 2, "rank": "9", "card": None}]


def test_a_meld_without_jokers_lists_none() -> None:
    [run] = table_view("5C 6C 7C")

    assert run["jokers"] == []
