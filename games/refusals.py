"""The engine's refusals in the player's language.

The engine is pure Python and speaks English: an ``IllegalAction`` or ``IllegalMeld``
carries a stable ``code``, a ``variant`` naming which of the code's messages it is,
and the values formatted into it as ``params``. Here each (code, variant) has its
message as a translatable template with the same values by name, so the interfaces
say a refusal in the language of the request. English is the engine's own message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils import translation
from django.utils.translation import gettext, gettext_noop, ngettext_lazy

from games.engine import IllegalAction, IllegalMeld
from games.engine_words import cards_short

# (code, variant) -> the message with named placeholders, marked for the catalogues
# and translated when said. Every code the engine raises has an entry
# (tests/games/test_refusals.py walks the engine's source).
# A refusal with a count is a plural (``ngettext_lazy`` keyed by the value that counts).
REFUSALS: Mapping[tuple[str, str], Any] = {
    # Reading an action
    ("bad_action", "unreadable"): gettext_noop("cannot read the action “%(text)s”"),
    ("bad_action", "invalid"): gettext_noop("not a valid action: %(data)s"),
    ("bad_action", "unknown"): gettext_noop("not an action: %(action)s"),
    # Turns
    ("deal_over", ""): gettext_noop("the deal is over"),
    ("already_drew", ""): gettext_noop("you have already drawn this turn"),
    ("stock_empty", ""): gettext_noop("the stock is empty"),
    ("must_draw_first", ""): gettext_noop("draw a card first (stock or discard pile)"),
    ("discard_empty", ""): gettext_noop("the discard pile is empty"),
    ("cannot_take_discard_unopened", ""): gettext_noop(
        "only a player who has opened may take the discard"
    ),
    ("undo_not_allowed", ""): gettext_noop("%(ruleset)s has no undo of a take"),
    ("nothing_to_undo", ""): gettext_noop("you did not take the discard this turn"),
    ("undo_too_late", ""): gettext_noop(
        "a take can be undone only before you meld, lay off or swap"
    ),
    ("must_return_taken_card", ""): gettext_noop(
        "you took %(card)s without opening: open now, or discard that card back"
    ),
    ("card_not_in_hand", ""): gettext_noop("you have no %(card)s in your hand"),
    ("card_not_in_hand", "named_too_often"): ngettext_lazy(
        "you hold %(held)s × %(card)s but named it %(named)s time",
        "you hold %(held)s × %(card)s but named it %(named)s times",
        "named",
    ),
    ("last_card", ""): gettext_noop(
        "a turn ends with a discard: you cannot meld or lay off your last card"
    ),
    # Laying down and opening
    ("nothing_to_lay", ""): gettext_noop("name at least one meld to lay down"),
    ("no_opening_in_first_round", ""): gettext_noop(
        "nobody may lay down in their first turn of the deal"
    ),
    ("already_opened", ""): gettext_noop("you have opened already: melds need no minimum now"),
    ("opening_too_low", ""): gettext_noop(
        "these melds are worth %(total)s; opening needs %(minimum)s"
    ),
    ("opening_too_low", "or_all_but_one"): gettext_noop(
        "these melds are worth %(total)s; opening needs %(minimum)s "
        "(or lay down all but one card at once)"
    ),
    ("not_opened", "lay_off"): gettext_noop(
        "you must open (melds worth %(minimum)s) before you can lay off"
    ),
    ("not_opened", "swap_joker"): gettext_noop(
        "you must open (melds worth %(minimum)s) before you can swap a joker"
    ),
    # The table
    ("no_such_meld", ""): gettext_noop("there is no meld %(index)s on the table"),
    ("does_not_fit", ""): gettext_noop("name what you give for the joker"),
    ("does_not_fit", "run"): gettext_noop("%(card)s does not fit the run %(meld)s"),
    ("does_not_fit", "set"): gettext_noop("%(card)s does not fit the set %(meld)s"),
    ("does_not_fit", "run_low_end_only"): gettext_noop(
        "%(card)s fits only the low end of the run %(meld)s"
    ),
    ("does_not_fit", "run_high_end_only"): gettext_noop(
        "%(card)s fits only the high end of the run %(meld)s"
    ),
    ("does_not_fit", "both_suits"): gettext_noop(
        "the joker of %(meld)s is freed only by both missing suits at once: %(options)s"
    ),
    ("does_not_fit", "swap"): gettext_noop(
        "%(given)s does not replace the joker of %(meld)s: give %(options)s"
    ),
    ("no_joker", "run"): gettext_noop("there is no joker in the run %(meld)s"),
    ("no_joker", "set"): gettext_noop("there is no joker in the set %(meld)s"),
    ("joker_swap_not_allowed", "closed_set"): gettext_noop(
        "the set %(meld)s is closed: its joker cannot be taken"
    ),
    ("joker_swap_not_allowed", "joker_stays"): gettext_noop(
        "in the set %(meld)s a card only joins the set; the joker stays (lay the card off)"
    ),
    # Melds
    ("too_short", ""): gettext_noop("a meld needs at least 3 cards"),
    ("only_jokers", ""): gettext_noop("a meld needs at least one real card"),
    ("mixed_suits", ""): gettext_noop("a run must be of one suit and a set of one rank"),
    ("not_laid_out", ""): gettext_noop("a run on the table must be laid out low to high"),
    ("too_long", ""): gettext_noop("a set has at most 4 cards"),
    ("too_many_jokers", "set"): ngettext_lazy(
        "a set may hold at most %(limit)s joker", "a set may hold at most %(limit)s jokers", "limit"
    ),
    ("too_many_jokers", "run"): ngettext_lazy(
        "a run is laid down with at most %(limit)s joker",
        "a run is laid down with at most %(limit)s jokers",
        "limit",
    ),
    ("duplicate_suit", ""): gettext_noop("a set's cards must all be of different suits"),
    ("adjacent_jokers", ""): gettext_noop("two jokers may not stand side by side"),
    ("wrap_around", ""): gettext_noop("a run may not go round the corner (K-A-2)"),
    ("not_consecutive", ""): gettext_noop("a run's cards must be consecutive"),
    ("not_consecutive", "with_joker"): gettext_noop(
        "a run's cards must be consecutive, in laid-out order when it holds a joker"
    ),
}


def refusal_text(error: IllegalAction | IllegalMeld) -> str:
    """What the engine refused, in the active language (the engine's own English
    where there is no translation)."""
    english = error.message if isinstance(error, IllegalAction) else str(error)
    template = REFUSALS.get((error.code, error.variant))
    if template is None:
        return english
    params = dict(error.params)
    shown = str(params.pop("shown", "") or "")
    if shown and english.endswith(f" ({shown})"):
        # The cards as the table draws them ("A♦ J♠ 6♥"), not the API's codes.
        english = f"{english[: -len(shown) - 3]} ({cards_short(shown)})"
    try:
        if isinstance(template, str):
            translated = gettext(template)
            if translated == template:
                return english  # English, or a language without this message
            text = translated % params
        else:  # a plural: the language's form for the count
            if translation.get_language() in (None, "en") or translation.get_language().startswith(
                "en-"
            ):
                return english
            text = str(template % params)
    except (KeyError, TypeError, ValueError):
        return english  # a translation that names a value the refusal lacks
    return f"{text} ({cards_short(shown)})" if shown else text
