"""Melds (docs/rules.md §3) and their opening values (§4): every example of docs/rules.md
and of the seeds, verbatim, valid and invalid, per preset."""

from __future__ import annotations

import pytest

from games.engine import (
    JOKER,
    PRESETS,
    Card,
    IllegalMeld,
    Meld,
    MeldKind,
    Ruleset,
    Suit,
    check_meld,
    meld_value,
    parse_cards,
)

MACEDONIAN = PRESETS["macedonian"]
SERBIAN = PRESETS["serbian"]
POLISH = PRESETS["polish51"]
ALL_PRESETS = pytest.mark.parametrize("ruleset", list(PRESETS.values()), ids=list(PRESETS))
# Presets whose runs take any number of jokers when laid (polish51: "as macedonian").
MANY_JOKER_PRESETS = pytest.mark.parametrize("ruleset", [MACEDONIAN, POLISH], ids=["mk", "pl"])

# The macedonian seed numbers the court cards J=12, Q=13, K=14 and the ace 1
# ("по картата 10 доаѓа картата 12 (Жандар)"); Џ is its joker.
_SEED_RANKS = {"1": "A", "12": "J", "13": "Q", "14": "K"}


def seed_cards(line: str) -> list[Card]:
    """Cards written as in the macedonian seed; a trailing " - comment" is ignored."""
    tokens = []
    for token in line.split(" - ")[0].split():
        if token == "Џ":
            tokens.append("JK")
        else:
            tokens.append(_SEED_RANKS.get(token[:-1], token[:-1]) + token[-1])
    return parse_cards(tokens)


def meld(text: str, ruleset: Ruleset = MACEDONIAN, *, laid_down: bool = True) -> Meld:
    return check_meld(parse_cards(text), ruleset, laid_down=laid_down)


def illegal(text: str, ruleset: Ruleset = MACEDONIAN, *, laid_down: bool = True) -> str:
    with pytest.raises(IllegalMeld) as error:
        meld(text, ruleset, laid_down=laid_down)
    return error.value.code


def value(text: str, ruleset: Ruleset) -> int:
    return meld_value(meld(text, ruleset), ruleset)


# ---------------------------------------------------------------- the macedonian seed, verbatim

# "Терцет е група од најмалку 3 карти по ред од ист знак, или група од 3 или 4
# исти карти од различен знак. Примери ...", then the joker examples.
MACEDONIAN_SEED_VALID = [
    "1♥ 2♥ 3♥ 4♥",
    "6♣ 7♣ 8♣",
    "9♠ 10♠ 12♠",
    "13♥ 14♥ 1♥",
    "10♦ 10♣ 10♥",
    "5♣ 6♣ Џ 8♣",
    "1♥ 2♥ Џ 4♥",
    "Џ 6♣ 7♣ 8♣",
    "Џ 8♥ Џ 10♥ 12♥",
    "10♦ 10♣ Џ",
    "10♦ 10♣ Џ 10♠",
]
MACEDONIAN_SEED_INVALID = [
    ("13♥ 14♥ 1♥ 2♥ - не е терцет!", "wrap_around"),
    (
        "7♥ Џ Џ 10♥ 12♥ - не е терцет! (два џокери не смеат да бидат еден до друг во низата)",
        "adjacent_jokers",
    ),
    ("10♦ Џ 10♣ Џ - не е терцет! (може да се користи само еден џокер)", "too_many_jokers"),
]


def test_the_seed_notation_reads_as_rules_md_writes_it() -> None:
    assert seed_cards("9♠ 10♠ 12♠") == parse_cards("9S 10S JS")
    assert seed_cards("13♥ 14♥ 1♥") == parse_cards("QH KH AH")
    assert seed_cards("Џ 8♥ Џ 10♥ 12♥") == parse_cards("JK 8H JK 10H JH")


@pytest.mark.parametrize("line", MACEDONIAN_SEED_VALID)
def test_macedonian_seed_examples_are_melds(line: str) -> None:
    cards = seed_cards(line)

    meld = check_meld(cards, MACEDONIAN)

    assert sorted(map(str, meld.cards)) == sorted(map(str, cards))


@pytest.mark.parametrize(("line", "code"), MACEDONIAN_SEED_INVALID)
def test_macedonian_seed_counter_examples_are_not_melds(line: str, code: str) -> None:
    with pytest.raises(IllegalMeld) as error:
        check_meld(seed_cards(line), MACEDONIAN)
    assert error.value.code == code


def test_macedonian_seed_joker_fills_the_gap() -> None:
    # "имате џокер и карти 5♣, 6♣ и 8♣ ... валиден терцет 5♣ 6♣ Џ 8♣"
    found = check_meld(seed_cards("5♣ 6♣ Џ 8♣"), MACEDONIAN)
    assert found.stands_for(2) == Card.parse("7C")


def test_macedonian_seed_joker_is_worth_the_card_it_replaces() -> None:
    # "Ако, на пример, ја заменува Дамата во терцетот, тогаш вреди 10 поени,
    # а ако заменува шестка, тогаш вреди 6."
    assert value("JH JK KH", MACEDONIAN) == 10 + 10 + 10
    assert value("5C JK 7C", MACEDONIAN) == 5 + 6 + 7


# ------------------------------------------------------------ docs/rules.md §3 examples, verbatim

RULES_VALID = ["AH 2H JK 4H", "JK 6C 7C 8C", "JK 8H JK 10H JH", "10D 10C JK", "10D 10C JK 10S"]
RULES_VALID_PLAIN = ["9S 10S JS", "QH KH AH", "AH 2H 3H 4H", "6C 7C 8C", "10D 10C 10H", "AH 2H 3H"]
RULES_INVALID = [
    ("7H JK JK 10H JH", "adjacent_jokers"),
    ("10D JK 10C JK", "too_many_jokers"),
    ("QH KH AH 2H", "wrap_around"),
    ("KH AH 2H", "wrap_around"),
]


@pytest.mark.parametrize("text", RULES_VALID + RULES_VALID_PLAIN)
def test_rules_examples_are_melds_in_macedonian(text: str) -> None:
    assert meld(text).cards == tuple(parse_cards(text))


@pytest.mark.parametrize("text", RULES_VALID_PLAIN)
@ALL_PRESETS
def test_rules_examples_without_jokers_are_melds_in_every_preset(
    text: str, ruleset: Ruleset
) -> None:
    assert meld(text, ruleset).cards == tuple(parse_cards(text))


@pytest.mark.parametrize(("text", "code"), RULES_INVALID)
@ALL_PRESETS
def test_rules_counter_examples_are_not_melds_in_any_preset(
    text: str, code: str, ruleset: Ruleset
) -> None:
    assert illegal(text, ruleset) == code
    assert illegal(text, ruleset, laid_down=False) == code


@pytest.mark.parametrize("text", RULES_VALID)
def test_polish51_takes_the_macedonian_joker_examples(text: str) -> None:
    assert meld(text, POLISH).cards == tuple(parse_cards(text))


@pytest.mark.parametrize("text", ["AH 2H JK 4H", "JK 6C 7C 8C", "10D 10C JK", "10D 10C JK 10S"])
def test_serbian_takes_the_one_joker_examples(text: str) -> None:
    assert meld(text, SERBIAN).cards == tuple(parse_cards(text))


def test_serbian_refuses_the_two_joker_example_when_laid() -> None:
    assert illegal("JK 8H JK 10H JH", SERBIAN) == "too_many_jokers"
    assert meld("JK 8H JK 10H JH", SERBIAN, laid_down=False).low == 7


# ---------------------------------------------------------------- runs and sets (§3)


@ALL_PRESETS
def test_run_is_three_or_more_consecutive_cards_of_one_suit(ruleset: Ruleset) -> None:
    run = meld("6C 7C 8C", ruleset)
    assert (run.kind, run.suit, run.low, run.high) == (MeldKind.RUN, Suit.CLUBS, 6, 8)
    assert illegal("6C 7C", ruleset) == "too_short"
    assert illegal("6C 7C 9C", ruleset) == "not_consecutive"
    assert illegal("6C 7H 8C", ruleset) == "mixed_suits"


@ALL_PRESETS
def test_ace_is_low_or_high(ruleset: Ruleset) -> None:
    assert meld("AH 2H 3H", ruleset).low == 1
    assert meld("QH KH AH", ruleset).high == 14


@ALL_PRESETS
def test_run_never_goes_round_the_corner(ruleset: Ruleset) -> None:
    assert illegal("KH AH 2H", ruleset) == "wrap_around"
    assert illegal("QH KH AH 2H", ruleset) == "wrap_around"
    assert illegal("KH JK 2H", ruleset) == "wrap_around"


@ALL_PRESETS
def test_longest_run_is_ace_to_ace(ruleset: Ruleset) -> None:
    longest = meld("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", ruleset)
    assert (longest.low, longest.high, len(longest.cards)) == (1, 14, 14)


@ALL_PRESETS
def test_jokerless_run_may_come_in_any_order(ruleset: Ruleset) -> None:
    assert meld("8C 6C 7C", ruleset).cards == tuple(parse_cards("6C 7C 8C"))
    assert meld("AH KH QH", ruleset).cards == tuple(parse_cards("QH KH AH"))


@ALL_PRESETS
def test_run_with_jokers_is_read_in_laid_out_order(ruleset: Ruleset) -> None:
    assert illegal("5C JK 6C", ruleset) == "not_consecutive"
    # High to low reads the same once reversed (the serbian forum's "14,13,joker i 10").
    assert meld("KH QH JK 10H", ruleset).cards == tuple(parse_cards("10H JK QH KH"))


@ALL_PRESETS
def test_set_is_three_or_four_of_a_rank_in_different_suits(ruleset: Ruleset) -> None:
    assert meld("10D 10C 10H", ruleset).kind is MeldKind.SET
    assert meld("7S 7H 7D 7C", ruleset).low == 7
    assert illegal("7S 7H", ruleset) == "too_short"


@ALL_PRESETS
def test_set_never_holds_twins(ruleset: Ruleset) -> None:
    assert illegal("7H 7H 7S", ruleset) == "duplicate_suit"


@ALL_PRESETS
def test_set_holds_at_most_four_cards(ruleset: Ruleset) -> None:
    assert illegal("7S 7H 7D 7C 7H", ruleset) == "too_long"
    assert illegal("7S 7H 7D 7C JK", ruleset) == "too_long"


@ALL_PRESETS
def test_meld_needs_a_real_card(ruleset: Ruleset) -> None:
    assert illegal("JK JK JK", ruleset) == "only_jokers"


def test_illegal_meld_is_a_value_error_naming_the_cards() -> None:
    with pytest.raises(ValueError, match=r"side by side \(7H JK JK 10H JH\)"):
        meld("7H JK JK 10H JH")


# ---------------------------------------------------------------- §3 joker table, row by row


@ALL_PRESETS
def test_two_jokers_may_not_touch_in_a_run(ruleset: Ruleset) -> None:
    assert illegal("7H JK JK 10H JH", ruleset) == "adjacent_jokers"
    # Not even on the table, where serbian runs may grow more jokers.
    assert illegal("7H JK JK 10H JH", ruleset, laid_down=False) == "adjacent_jokers"


@MANY_JOKER_PRESETS
def test_run_is_laid_with_any_number_of_jokers_apart(ruleset: Ruleset) -> None:
    assert meld("JK 8H JK 10H JH", ruleset).jokers == 2
    assert meld("JK 2C JK 4C JK 6C JK", ruleset).jokers == 4
    assert meld("JK 5C JK", ruleset).low == 4


def test_serbian_run_is_laid_with_at_most_one_joker() -> None:
    # "Prilikom izbacivanja grupe, grupa ne sme imati više od 1 džokera"
    assert meld("5C JK 7C", SERBIAN).jokers == 1
    assert illegal("JK 5C JK 7C", SERBIAN) == "too_many_jokers"


def test_serbian_run_takes_more_jokers_later_never_side_by_side() -> None:
    # "Ne može da se pridruži džoker do džokera ali ih može biti više u nizu."
    assert meld("JK 5C JK 7C", SERBIAN, laid_down=False).jokers == 2
    assert illegal("5C JK JK 8C", SERBIAN, laid_down=False) == "adjacent_jokers"


@ALL_PRESETS
def test_set_holds_at_most_one_joker(ruleset: Ruleset) -> None:
    assert meld("10D 10C JK", ruleset).jokers == 1
    assert illegal("10D JK 10C JK", ruleset) == "too_many_jokers"
    assert illegal("10D JK 10C JK", ruleset, laid_down=False) == "too_many_jokers"


def test_serbian_set_of_two_queens_and_a_joker_is_a_meld() -> None:
    # "ako imaju 2 karte + džoker (Q, Q, JOKER)"
    assert meld("QS QH JK", SERBIAN).missing_suits == {Suit.DIAMONDS, Suit.CLUBS}


# ---------------------------------------------------------------- what a joker stands for


@ALL_PRESETS
def test_joker_in_a_run_stands_for_the_card_its_position_implies(ruleset: Ruleset) -> None:
    assert meld("JK 5C 6C", ruleset).stands_for(0) == Card.parse("4C")
    assert meld("5C 6C JK", ruleset).stands_for(2) == Card.parse("7C")
    assert meld("QH KH JK", ruleset).stands_for(2) == Card.parse("AH")
    assert meld("JK 2H 3H", ruleset).stands_for(0) == Card.parse("AH")


@ALL_PRESETS
def test_joker_in_a_set_stands_for_a_missing_suit(ruleset: Ruleset) -> None:
    found = meld("10D 10C JK", ruleset)
    assert found.stands_for(2) is None
    assert found.missing_suits == {Suit.SPADES, Suit.HEARTS}
    assert found.position_ranks() == [10, 10, 10]


# ---------------------------------------------------------------- §4 value table, row by row


@ALL_PRESETS
def test_two_to_nine_count_face_value(ruleset: Ruleset) -> None:
    assert value("2C 3C 4C", ruleset) == 9
    assert value("7S 7H 7D 7C", ruleset) == 28


@ALL_PRESETS
def test_ten_and_court_cards_count_ten(ruleset: Ruleset) -> None:
    assert value("10S JS QS KS", ruleset) == 40
    assert value("JS JH JD", ruleset) == 30


@pytest.mark.parametrize(("ruleset", "worth"), [(MACEDONIAN, 10), (SERBIAN, 1), (POLISH, 1)])
def test_low_ace_counts_per_preset(ruleset: Ruleset, worth: int) -> None:
    assert value("AH 2H 3H", ruleset) == worth + 5


@pytest.mark.parametrize(("ruleset", "worth"), [(MACEDONIAN, 10), (SERBIAN, 10), (POLISH, 11)])
def test_high_ace_and_ace_in_a_set_count_per_preset(ruleset: Ruleset, worth: int) -> None:
    assert value("QH KH AH", ruleset) == 20 + worth
    assert value("AS AH AD", ruleset) == 3 * worth


@ALL_PRESETS
def test_joker_counts_the_card_it_stands_for(ruleset: Ruleset) -> None:
    assert value("JK 5C 6C", ruleset) == 4 + 5 + 6
    assert value("5C 6C JK", ruleset) == 5 + 6 + 7
    assert value("9S JK JS", ruleset) == 9 + 10 + 10


@ALL_PRESETS
def test_joker_in_a_set_counts_the_sets_rank(ruleset: Ruleset) -> None:
    assert value("8D 8C JK", ruleset) == 24
    assert value("AD AC JK", ruleset) == 3 * ruleset.ace_high_value


@pytest.mark.parametrize(
    ("ruleset", "worth"), [(MACEDONIAN, 10), (SERBIAN, 1), (POLISH, 1)], ids=["mk", "rs", "pl"]
)
def test_joker_standing_for_a_low_ace_counts_as_one(ruleset: Ruleset, worth: int) -> None:
    assert value("JK 2H 3H", ruleset) == worth + 5


# ---------------------------------------------------------------- seed value examples


def test_serbian_royal_run_counts_51() -> None:
    # "Niz 10,J,Q,K,A se smatra kao 51 poen."
    assert value("10H JH QH KH AH", SERBIAN) == 51


def test_serbian_royal_run_counts_51_with_a_joker_in_it() -> None:
    assert value("10H JK QH KH AH", SERBIAN) == 51
    assert value("JK JH QH KH AH", SERBIAN) == 51
    assert value("10H JH QH KH JK", SERBIAN) == 51


def test_serbian_royal_ace_needs_the_ten() -> None:
    assert value("JH QH KH AH", SERBIAN) == 40
    assert value("9H 10H JH QH KH AH", SERBIAN) == 60


def test_serbian_ace_after_king_counts_ten() -> None:
    # "A može da ide u nizu posle K, i tada se računa kao 10 poena."
    assert value("QH KH AH", SERBIAN) == 30


def test_royal_run_is_no_special_case_elsewhere() -> None:
    assert value("10H JH QH KH AH", MACEDONIAN) == 50
    assert value("10H JH QH KH AH", POLISH) == 51  # ace high is 11 anyway


def test_forum_bug_king_queen_joker_ten_is_only_40() -> None:
    # "Može se otvoriti sa 40... Na primer: 14,13,joker i 10, dozvoljava da se
    # otvoriš. Za otvaranje treba zbir od 51." (14 = K, 13 = Q as the seeds number them)
    run = meld("KH QH JK 10H", SERBIAN)
    assert run.kind is MeldKind.RUN
    assert meld_value(run, SERBIAN) == 40 < SERBIAN.opening_minimum


def test_polish_three_four_five_is_worth_12() -> None:
    # "wartość układu 3-4-5 wynosi 12"
    assert value("3C 4C 5C", POLISH) == 12


def test_polish_joker_between_three_and_five_is_worth_4() -> None:
    # "w komplecie 3 - joker - 5, wartość jokera wynosi 4 punkty"
    found = meld("3C JK 5C", POLISH)
    assert found.stands_for(1) == Card.parse("4C")
    assert meld_value(found, POLISH) == 12


def test_polish_ace_is_1_low_or_11_high() -> None:
    # "as w układach może służyć jako niska lub wysoka karta ... (odpowiednio 1 lub 11)"
    assert value("AC 2C 3C", POLISH) == 1 + 2 + 3
    assert value("QC KC AC", POLISH) == 10 + 10 + 11


def test_meld_is_a_value_with_a_readable_repr() -> None:
    assert meld("6C 7C 8C") == meld("8C 7C 6C")
    assert repr(meld("6C 7C 8C")) == "<Meld run 6C 7C 8C>"
    assert str(meld("10D 10C JK")) == "10D 10C JK"
    assert len({meld("6C 7C 8C"), meld("6C 8C 7C")}) == 1
    assert JOKER in meld("10D 10C JK").cards


# ---- arranging cards picked in any order (the table page's "Lay group")


def arranged(text: str, ruleset: Ruleset = SERBIAN) -> str:
    from games.engine import arrange_meld

    return str(arrange_meld(parse_cards(text), ruleset))


def test_arrange_keeps_an_order_that_is_already_a_meld():
    assert arranged("JK 6H 7H") == "JK 6H 7H"  # the spare joker named first stays low
    assert arranged("6H 7H JK") == "6H 7H JK"
    assert arranged("9H 7H 8H") == "7H 8H 9H"  # no joker: check_meld sorts
    assert arranged("7S JK 7D") == "7S JK 7D"


def test_arrange_puts_the_jokers_in_the_gaps_of_a_run():
    assert arranged("2C 4C JK") == "2C JK 4C"
    assert arranged("5H 9H JK 7H JK", MACEDONIAN) == "5H JK 7H JK 9H"
    assert arranged("QH AH JK") == "QH JK AH"  # the ace high, where it fits
    assert arranged("AH JK 3H") == "AH JK 3H"


def test_arrange_puts_a_spare_joker_at_the_high_end_or_as_high_as_it_fits():
    assert arranged("6H JK 7H") == "6H 7H JK"
    assert arranged("KH JK QH") == "QH KH JK"  # the joker stands for the ace
    assert arranged("JK KH AH") == "JK KH AH"
    assert arranged("KH AH JK") == "JK KH AH"


def test_arrange_says_why_no_order_makes_a_meld():
    from games.engine import arrange_meld

    cases = [
        ("5H 9H JK", SERBIAN, "not_consecutive"),
        ("5H 6C JK", SERBIAN, "mixed_suits"),
        ("7S 7D JK JK", SERBIAN, "too_many_jokers"),
        ("5H 6H JK JK", SERBIAN, "too_many_jokers"),  # serbian lays a run with one joker
        ("5H 8H JK JK", MACEDONIAN, "adjacent_jokers"),
        ("5H JK", SERBIAN, "too_short"),
    ]
    for text, ruleset, code in cases:
        with pytest.raises(IllegalMeld) as caught:
            arrange_meld(parse_cards(text), ruleset)
        assert caught.value.code == code, text


def test_arrange_lays_out_two_jokers_apart_where_the_rules_allow():
    assert arranged("5H 6H JK JK", MACEDONIAN) == "JK 5H 6H JK"
    assert arranged("5H 6H JK JK", POLISH) == "JK 5H 6H JK"
