"""Cards and their text notation (docs/rules.md §1)."""

from __future__ import annotations

import pickle

import pytest

from games.engine import JOKER, Card, Suit, format_cards, full_pack, parse_cards


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("AS", "AS"),
        ("10H", "10H"),
        ("TH", "10H"),
        ("th", "10H"),
        ("7♥", "7H"),
        ("K♠", "KS"),
        ("Q♦", "QD"),
        ("2♣", "2C"),
        ("qd", "QD"),
        ("  JC ", "JC"),
        ("JK", "JK"),
        ("jk", "JK"),
        ("1H", "AH"),  # the macedonian seed writes the ace as 1
    ],
)
def test_parse_accepts_every_input_notation(text: str, canonical: str) -> None:
    assert str(Card.parse(text)) == canonical


@pytest.mark.parametrize("text", ["", "10", "11H", "1OH", "XX", "AHH", "JKK", "10X", "0S", "KJ"])
def test_parse_rejects_what_is_not_a_card_with_a_clear_message(text: str) -> None:
    with pytest.raises(
        ValueError, match=r"not a card: .* \(expected e\.g\. AS, 10H, TH, 7♥ or JK\)"
    ):
        Card.parse(text)


def test_parse_cards_names_the_bad_token() -> None:
    with pytest.raises(ValueError, match="not a card: 'ZZ'"):
        parse_cards("AS 10H ZZ")


def test_parse_cards_takes_a_string_or_tokens() -> None:
    expected = [Card.parse("AS"), Card.parse("10H"), JOKER, Card.parse("QD")]
    assert parse_cards("AS 10H JK QD") == expected
    assert parse_cards("AS, 10H,JK QD") == expected
    assert parse_cards(["AS", "TH", "jk", "Q♦"]) == expected
    assert parse_cards("") == []


def test_output_is_canonical() -> None:
    assert format_cards(parse_cards("TH 7♥ as jk")) == "10H 7H AS JK"
    assert repr(Card.parse("TH")) == "Card.parse('10H')"


def test_cards_are_interned_values() -> None:
    assert Card.parse("7H") is Card.parse("7♥") is Card(7, Suit.HEARTS)
    assert Card.parse("JK") is JOKER
    assert pickle.loads(pickle.dumps(Card.parse("7H"))) is Card.parse("7H")


def test_cards_are_immutable() -> None:
    with pytest.raises(AttributeError):
        Card.parse("7H").rank = 8  # type: ignore[misc]


def test_card_fields() -> None:
    seven = Card.parse("7H")
    assert (seven.rank, seven.suit, seven.is_joker) == (7, Suit.HEARTS, False)
    assert (JOKER.rank, JOKER.suit, JOKER.is_joker, JOKER.code) == (0, None, True, 52)
    assert Suit.HEARTS.symbol == "♥"


def test_codes_run_by_suit_then_rank_with_the_joker_last() -> None:
    codes = [card.code for card in parse_cards("AS KS AH AC KC JK")]
    assert codes == [0, 12, 13, 39, 51, 52]
    assert sorted(parse_cards("JK 2H AS")) == parse_cards("AS 2H JK")


def test_no_such_card() -> None:
    with pytest.raises(ValueError, match="no such card"):
        Card(14, Suit.HEARTS)


@pytest.mark.parametrize(("jokers", "size"), [(4, 108), (2, 106)])
def test_pack_is_two_decks_plus_jokers(jokers: int, size: int) -> None:
    pack = full_pack(jokers)
    assert len(pack) == size
    assert pack.count(JOKER) == jokers
    real = [card for card in pack if card is not JOKER]
    assert len(set(real)) == 52
    assert all(real.count(card) == 2 for card in set(real))
