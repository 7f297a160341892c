"""The rules tables in words: each ruleset field's title, what it means and its value,
in the active language, for the rules pages and the house rules a lobby shows.

The engine names its fields and values for programs (``hand_size``, ``after_dealer``,
``FinishScoring(...)``); a person reads "Cards dealt", "the seat after the dealer",
"winner -20, others ×1". An unknown field (added to the engine later) shows its
engine text until it is listed here.
"""

from __future__ import annotations

from enum import Enum
from typing import Final

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_noop, pgettext_lazy

from games.engine.rules_doc import FIELD_DOCS
from games.engine.rulesets import DiscardTake, FinishScoring, SetJokerSwap, StarterChoice
from remi_site import formats

TITLES: Final[dict[str, Promise]] = {
    "jokers": pgettext_lazy("rule", "Jokers"),
    "hand_size": pgettext_lazy("rule", "Cards dealt"),
    "starter_extra_card": pgettext_lazy("rule", "Extra card for the starter"),
    "upcard": pgettext_lazy("rule", "Upcard"),
    "starter": pgettext_lazy("rule", "Who starts"),
    "seating_by_card_draw": pgettext_lazy("rule", "Seats drawn by cards"),
    "max_reshuffles": pgettext_lazy("rule", "New stocks from the discard pile"),
    "max_jokers_in_run_laid": pgettext_lazy("rule", "Jokers in a run"),
    "max_jokers_in_set": pgettext_lazy("rule", "Jokers in a set"),
    "opening_minimum": pgettext_lazy("rule", "Opening minimum"),
    "no_opening_in_first_round": pgettext_lazy("rule", "No opening in the first turn"),
    "ace_low_value": pgettext_lazy("rule", "Low ace"),
    "ace_high_value": pgettext_lazy("rule", "High ace"),
    "royal_run_ace_value": pgettext_lazy("rule", "Ace after 10, J, Q, K"),
    "discard_take": pgettext_lazy("rule", "Taking the discard"),
    "discard_take_undo": pgettext_lazy("rule", "Putting the discard back"),
    "set_of_three_joker": pgettext_lazy("rule", "Joker in a set of three"),
    "set_of_four_joker_swap": pgettext_lazy("rule", "Joker in a set of four"),
    "mixed_hand": pgettext_lazy("rule", "Mixed hand"),
    "hand_needs_51": pgettext_lazy("rule", "A hand needs the minimum"),
    "penalty_ace": pgettext_lazy("rule", "Ace left in hand"),
    "penalty_joker": pgettext_lazy("rule", "Joker left in hand"),
    "normal_close": pgettext_lazy("rule", "Going out"),
    "joker_close": pgettext_lazy("rule", "Going out on a joker"),
    "joker_close_doubles": pgettext_lazy("rule", "A joker doubles the scores"),
    "mixed_hand_close": pgettext_lazy("rule", "Going out with a mixed hand"),
    "dry_hand_close": pgettext_lazy("rule", "Going out with a hand"),
    "match_deals": pgettext_lazy("rule", "Deals in a match"),
    "match_end_score": pgettext_lazy("rule", "Early end at"),
    "min_players": pgettext_lazy("rule", "Fewest players"),
    "max_players": pgettext_lazy("rule", "Most players"),
    "seat_limit": pgettext_lazy("rule", "Most players by house rule"),
}

# Meanings whose engine text names another field by its id: said in words instead.
MEANINGS: Final[dict[str, str]] = {
    "max_players": gettext_noop(
        "Most players at a table; a house rule may raise it up to the most the rules seat."
    ),
}

VALUES: Final[dict[Enum, Promise]] = {
    StarterChoice.AFTER_DEALER: pgettext_lazy("rule value", "the seat after the dealer"),
    StarterChoice.RANDOM: pgettext_lazy("rule value", "a random seat"),
    DiscardTake.OPENED_ONLY: pgettext_lazy("rule value", "only a player who has opened"),
    DiscardTake.ANYONE_MUST_OPEN: pgettext_lazy(
        "rule value", "anyone, but who has not opened must open in that turn"
    ),
    DiscardTake.ANYONE: pgettext_lazy("rule value", "anyone"),
    SetJokerSwap.SWAP_ONE: pgettext_lazy("rule value", "one missing suit frees the joker"),
    SetJokerSwap.JOIN_ONLY: pgettext_lazy("rule value", "the card joins, the joker stays"),
    SetJokerSwap.SWAP_BOTH: pgettext_lazy(
        "rule value", "both missing suits at once free the joker"
    ),
}

# A field left empty in a ruleset.
NONE: Final = "—"


def title(name: str) -> str:
    """The rule's name as a player reads it ("Cards dealt" for ``hand_size``)."""
    found = TITLES.get(name)
    return str(found) if found is not None else name


def meaning(name: str) -> str:
    """What the rule means, in the active language."""
    text = MEANINGS.get(name) or FIELD_DOCS.get(name, "")
    return gettext(text) if text else ""


def value(raw: object) -> str:
    """A field's value in words: "yes", "the seat after the dealer", "winner -20, others
    ×1", "8 / 9 / 8"."""
    if raw is None:
        return NONE
    if isinstance(raw, bool):
        return gettext("yes") if raw else gettext("no")
    if isinstance(raw, Enum):
        found = VALUES.get(raw)
        return str(found) if found is not None else str(raw.value)
    if isinstance(raw, FinishScoring):
        return _finish(raw)
    if isinstance(raw, tuple):
        return " / ".join(value(item) for item in raw)
    if isinstance(raw, int):
        return formats.number(raw)
    return str(raw)


def _finish(row: FinishScoring) -> str:
    """A way of going out's scores: "winner -40, others ×2, never opened 200"."""
    numbers = {"winner": row.winner, "times": row.multiplier, "bonus": f"{row.bonus:+d}"}
    if row.bonus:
        text = gettext("winner %(winner)s, others ×%(times)s %(bonus)s") % numbers
    else:
        text = gettext("winner %(winner)s, others ×%(times)s") % numbers
    if row.unopened is not None:
        text = gettext("%(scores)s, never opened %(unopened)s") % {
            "scores": text,
            "unopened": row.unopened,
        }
    return text
