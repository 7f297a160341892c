"""Where a joker goes when it could stand at either end of a run (docs/rules.md §3),
on every path that places one: arranging a meld, the opening, a later meld, a
lay-off, the solver and the legal moves. One rule for every preset."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    JOKER,
    Card,
    LayDown,
    Suit,
    arrange_meld,
    best_opening,
    candidate_melds,
    meld_value,
    parse_cards,
)
from games.engine.__main__ import main as engine_cli
from games.engine.moves import single_melds
from tests.engine.helpers import ALL_RULESETS, SERBIAN, play, position, refused

EVERY_PRESET = pytest.mark.parametrize("ruleset", ALL_RULESETS, ids=lambda r: r.name)
RUN_OF_35 = "2H 3H 4H 5H 6H 7H 8H"

# The serbian site: "Ako je džoker u ruci levo od svih ostalih karta koje izbacujete,
# biće prva karta u nizu, ali ako nije onda će da bude poslednja u nizu."


def laid(text: str, ruleset=SERBIAN) -> str:
    return str(arrange_meld(parse_cards(text), ruleset))


# ---------------------------------------------------------------- arranging a meld


@EVERY_PRESET
def test_6c_5c_jk_puts_the_joker_high_as_a_7_worth_18(ruleset):
    # The issue: "Laying 6♣ 5♣ JK (hand order as given) today puts the joker low,
    # as 4♣ (15 points), instead of high, as 7♣ (18 points)."
    meld = arrange_meld(parse_cards("6C 5C JK"), ruleset)
    assert str(meld) == "5C 6C JK"
    assert meld.stands_for(2) == Card.parse("7C")
    assert meld_value(meld, ruleset) == 18


@EVERY_PRESET
def test_a_joker_held_leftmost_starts_the_run(ruleset):
    meld = arrange_meld(parse_cards("JK 6C 5C"), ruleset)
    assert str(meld) == "JK 5C 6C"
    assert meld.stands_for(0) == Card.parse("4C")
    assert meld_value(meld, ruleset) == 15


@pytest.mark.parametrize(
    ("picked", "expected"),
    [
        ("5C 6C JK", "5C 6C JK"),
        ("JK 5C 6C", "JK 5C 6C"),  # laid out low to high already: kept
        ("6C JK 5C", "5C 6C JK"),
        ("7C 6C JK", "6C 7C JK"),  # high to low in hand: the joker still goes high
        ("QC JK KC", "QC KC JK"),  # high: the joker is the ace
        ("JK KC QC", "JK QC KC"),
        ("3C JK 2C", "2C 3C JK"),
        ("JK 3C 2C", "JK 2C 3C"),  # low: the joker is the ace
        ("KH QH JK 10H", "10H JK QH KH"),  # a joker in a gap has one place only
        ("KH AH JK", "JK KH AH"),  # the ace is high, so the joker can only be the queen
    ],
)
def test_a_joker_that_fits_either_end_goes_high_unless_held_leftmost(picked, expected):
    assert laid(picked) == expected


def test_two_jokers_the_first_named_first_starts_the_run():
    macedonian = ALL_RULESETS[0]
    assert laid("5H 7H JK JK", macedonian) == "5H JK 7H JK"
    assert laid("JK 5H 7H JK", macedonian) == "JK 5H JK 7H"
    assert laid("JK JK 5H 6H", macedonian) == "JK 5H 6H JK"  # never side by side


runs_with_a_spare_joker = st.tuples(
    st.sampled_from("SHDC"), st.integers(2, 11), st.integers(2, 5), st.randoms()
).filter(lambda run: run[1] + run[2] - 1 <= 13)


@settings(max_examples=200, deadline=None)
@given(runs_with_a_spare_joker)
def test_any_order_of_a_run_and_a_spare_joker_follows_the_rule(run):
    suit, low, length, rnd = run
    picked = [*(Card(rank, Suit(suit)) for rank in range(low, low + length)), JOKER]
    rnd.shuffle(picked)
    meld = arrange_meld(picked, ALL_RULESETS[0])
    joker_first = picked[0].is_joker
    assert meld.cards[0 if joker_first else -1].is_joker
    assert meld.low == (low - 1 if joker_first else low)


# ---------------------------------------------------------------- laying down


@EVERY_PRESET
def test_an_opening_lays_the_joker_high_and_counts_it_so(ruleset):
    # 18 + 35 = 53 with the joker as 7♣; as 4♣ the opening would be 50.
    deal = position(ruleset, "6C 5C JK " + RUN_OF_35 + " 2D 9S", "4S 4H", stock="8D", drawn=True)
    deal = play(deal, f"lay 6C 5C JK | {RUN_OF_35}")
    assert str(deal.table[0]) == "5C 6C JK"
    assert deal.table[0].meld.stands_for(2) == Card.parse("7C")
    assert deal.has_opened(0)


@EVERY_PRESET
def test_an_opening_with_the_joker_held_leftmost_counts_it_low(ruleset):
    deal = position(ruleset, "6C 5C JK " + RUN_OF_35 + " 2D 9S", "4S 4H", stock="8D", drawn=True)
    error = refused(deal, f"lay JK 6C 5C | {RUN_OF_35}")
    assert error.code == "opening_too_low"
    assert "worth 50" in str(error)


@EVERY_PRESET
def test_a_later_meld_lays_the_joker_high_unless_held_leftmost(ruleset):
    deal = position(ruleset, "6C 5C JK 9D 8D JK 2S", "4S 4H", opened=[0], drawn=True)
    deal = play(deal, "lay 6C 5C JK", "lay JK 9D 8D")
    assert [str(meld) for meld in deal.table] == ["5C 6C JK", "JK 8D 9D"]
    assert deal.table[0].meld.stands_for(2) == Card.parse("7C")
    assert deal.table[1].meld.stands_for(0) == Card.parse("7D")


def test_the_lay_down_event_shows_the_meld_as_laid_out():
    deal = position(SERBIAN, "6C 5C JK 2S", "4S 4H", opened=[0], drawn=True)
    event = play(deal, "lay 6C 5C JK").last_event.public
    assert [pair["card"] for pair in event["melds"][0]] == ["5C", "6C", "JK"]


# ---------------------------------------------------------------- laying off


@EVERY_PRESET
def test_a_joker_laid_off_on_a_run_open_at_both_ends_goes_high_unless_asked_low(ruleset):
    # The serbian site: the joker "uvek će ići desno osim ukoliko nista kliknuli na
    # prvu kartu u grupi na talonu, tad će da bude ubačena levo, na početak niza."
    deal = position(ruleset, "JK 2S", "4S 4H", table=[(1, "5C 6C 7C")], opened=[0], drawn=True)
    high = play(deal, "off JK 0")
    assert str(high.table[0]) == "5C 6C 7C JK"
    assert high.last_event.end == "high"
    low = play(deal, "off JK 0 low")
    assert str(low.table[0]) == "JK 5C 6C 7C"
    assert low.table[0].meld.stands_for(0) == Card.parse("4C")


@EVERY_PRESET
def test_a_joker_laid_off_where_only_one_end_is_open_goes_there(ruleset):
    deal = position(ruleset, "JK 2S", "4S 4H", table=[(1, "QC KC AC")], opened=[0], drawn=True)
    assert str(play(deal, "off JK 0").table[0]) == "JK QC KC AC"
    assert refused(deal, "off JK 0 high").code == "does_not_fit"


@EVERY_PRESET
def test_an_ace_laid_off_on_a_run_from_2_to_k_goes_high_unless_asked_low(ruleset):
    run = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC"
    deal = position(ruleset, "AC 2S", "4S 4H", table=[(1, run)], opened=[0], drawn=True)
    assert str(play(deal, "off AC 0").table[0]) == run + " AC"
    assert str(play(deal, "off AC 0 low").table[0]) == "AC " + run


def test_the_lay_off_action_lets_a_client_name_the_end():
    deal = position(SERBIAN, "JK 2S", "4S 4H", table=[(1, "5C 6C 7C")], opened=[0], drawn=True)
    offs = [str(a) for a in deal.legal_actions() if a.kind == "off"]
    assert offs == ["off JK 0 low", "off JK 0 high"]


# ---------------------------------------------------------------- the solver and legal moves


def test_the_solver_puts_a_joker_worth_the_same_at_either_end_high():
    # As a jack or as the ace after the king: 10 either way; the high end wins.
    [meld] = best_opening(parse_cards("QC KC JK"), SERBIAN)
    assert str(meld) == "QC KC JK"
    assert [str(m) for m in candidate_melds(parse_cards("QC KC JK"), SERBIAN)] == ["QC KC JK"]


def test_the_solver_puts_a_joker_where_it_is_worth_more():
    # Macedonian low ace: 10 beats the 4 at the high end, so the joker starts the run.
    [meld] = best_opening(parse_cards("2C 3C JK"), ALL_RULESETS[0])
    assert str(meld) == "JK 2C 3C"
    [meld] = best_opening(parse_cards("2C 3C JK"), SERBIAN)  # a low ace is 1 here
    assert str(meld) == "2C 3C JK"


# Each card at most twice (two decks), jokers at most twice.
POOL = parse_cards("AC AC 2C 3C 4C 5C 10C JC QC KC KC AH 2H 3H 9H 10H QH KH 5S 5D JK JK")
hands = st.lists(st.sampled_from(range(len(POOL))), min_size=3, max_size=12, unique=True).map(
    lambda picked: [POOL[index] for index in picked]
)


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(ALL_RULESETS), hands)
def test_every_meld_the_solver_or_the_move_list_reports_lays_down_as_reported(ruleset, cards):
    reported = [meld.cards for meld in best_opening(cards, ruleset)]
    reported += [meld.cards for meld in candidate_melds(cards, ruleset)]
    reported += single_melds(cards, ruleset)
    for meld in reported:
        assert arrange_meld(meld, ruleset).cards == tuple(meld)


@EVERY_PRESET
def test_the_legal_openings_lay_down_exactly_as_listed(ruleset):
    hand = "10H JH QH KH JK 5C 6C 7C 3D QC KC JK 2S"
    deal = position(ruleset, hand, "4S 4H", stock="8D", drawn=True)
    for action in deal.legal_actions():
        if isinstance(action, LayDown):
            after = deal.apply(action)
            assert [m.cards for m in after.table] == [tuple(m) for m in action.melds]


# ---------------------------------------------------------------- the command line


def test_the_command_line_check_lays_out_as_a_lay_down_would():
    import io

    out = io.StringIO()
    assert engine_cli(["check", "6C 5C JK", "--rules", "serbian"], out=out) == 0
    assert out.getvalue() == "run  5C 6C JK  value 18  (JK=7C)\n"
