"""The engine's words that people read, in the language of the request.

The engine is pure Python and English: the presets' names and descriptions
(``games.engine.rulesets``), what each ruleset field means and the words of its
values (``games.engine.rules_doc``), and the cards. They are listed here with
``gettext_noop`` so that ``makemessages`` puts them in the catalogues, and said
translated with ``gettext`` by the functions below. A preset's text that is not
listed here (a preset added later) is shown in English until it is.
"""

from __future__ import annotations

from typing import Final

from django.utils.translation import gettext, gettext_noop, pgettext_lazy

from games.engine import PRESETS, Card, parse_cards
from games.engine.cards import ACE, JACK, KING, QUEEN, Suit

PRESET_TEXTS: Final = (
    gettext_noop("Macedonian Remi"),
    gettext_noop(
        "The rules of the Macedonian Remi program: two decks and four jokers, 14 cards "
        "each and 15 to the starter, who only discards in the first turn. Nobody lays "
        "down in their first turn; the first melds must be worth 51, and only a player "
        "who has opened may take the discard. An ace counts 10 wherever it stands. Going "
        "out scores -20, or -40 with everyone else's cards counted twice when the last "
        "card is a joker or the whole hand goes down at once; the text leaves scoring to "
        "the players' agreement, so every score is a house rule. 2 to 4 players (up to 6 "
        "by house rule); 8, 9 or 8 deals, ending early at 501."
    ),
    gettext_noop("Serbian Remi"),
    gettext_noop(
        "As on the Serbian Remi site: two decks and four jokers, 14 cards each and 15 to "
        "the starter, who skips the first draw. Anyone may take the discard, but a player "
        "who has not opened must open in that turn or give the card back (and may undo "
        "the take while nothing else was done). A run goes down with at most one joker; a "
        "low ace counts 1 and 10-J-Q-K-A counts 51. Going out scores -40, a mixed hand "
        "-140 with the others' cards counted twice and a dry hand -280 with them counted "
        "four times; a player who never opened scores 100 (200, 400) instead. 2 to 4 "
        "players; 8, 9 or 8 deals, ending early at 501."
    ),
    gettext_noop("Serbian old Remi"),
    gettext_noop(
        'Serbian Remi with the scoring of "old remi" from the site\'s forum: a mixed '
        "hand scores -80 with the others' cards counted once (100 for a player who never "
        "opened) and a dry hand -140 with them counted twice (200). A hand needs no 51: "
        "a player who lays down everything but the last card in one turn goes out "
        "whatever the melds are worth. Everything else as Serbian Remi."
    ),
    gettext_noop("Polish Remik 51"),
    gettext_noop(
        "Remik 51 as played in Polish online rooms: two decks and two jokers, 13 cards "
        "each, and the stock's top card starts the discard pile. Anyone may take the "
        "discard; the first melds must be worth 51, a low ace counting 1 and a high ace "
        "11. A joker in a set of three comes back only for both missing suits at once. "
        "Cards left in hand cost their value, an ace 11 and a joker 25; a remik "
        "(everything laid down at once) adds 25 to each other player. One deal decides; "
        "2 to 4 players, up to 6 by house rule."
    ),
)

# What each ruleset field means (``rules_doc.FIELD_DOCS``), for the rules pages.
FIELD_MEANINGS: Final = (
    gettext_noop("The preset's id (what a game stores and the API names)."),
    gettext_noop("The name players read."),
    gettext_noop("One paragraph for the lobby (shown above the table)."),
    gettext_noop("Jokers in the pack, besides the two 52-card decks."),
    gettext_noop("Cards dealt to each player."),
    gettext_noop("The starter is dealt one card more and skips the first draw."),
    gettext_noop("The stock's top card is turned up to start the discard pile."),
    gettext_noop("Who starts the first deal: the seat after the dealer, or a random seat."),
    gettext_noop("Before the first deal each player draws a card; seats follow the cards."),
    gettext_noop(
        "How often the discard pile may become a new stock in one deal; the stock running "
        "out once more ends the deal void."
    ),
    gettext_noop(
        "Jokers a run may hold when laid down (empty: any number, never two side by side)."
    ),
    gettext_noop("Jokers a set may hold."),
    gettext_noop("What the melds of an opening must be worth together."),
    gettext_noop("Nobody lays down in their first turn of a deal."),
    gettext_noop("Opening value of an ace below a 2."),
    gettext_noop("Opening value of an ace above a king, or in a set."),
    gettext_noop(
        "Opening value of the ace that ends a run holding 10, J, Q and K (empty: as any high ace)."
    ),
    gettext_noop("Who may take the top discard instead of drawing (§5)."),
    gettext_noop(
        "A player who took the discard may put it back and draw instead, while nothing else "
        "was done."
    ),
    gettext_noop("What a real card does to a set of three holding a joker (§6)."),
    gettext_noop("The joker of a set of four may be swapped for its missing suit."),
    gettext_noop("A hand that lays off onto other players' melds is a mixed hand."),
    gettext_noop("A hand (everything down in one turn) must reach the opening minimum too."),
    gettext_noop("Penalty of an ace left in hand."),
    gettext_noop("Penalty of a joker left in hand."),
    gettext_noop("Scores of going out normally."),
    gettext_noop("Scores of going out by discarding a joker, when that has its own row."),
    gettext_noop(
        "Going out by discarding a joker doubles every score of a normal close (used when "
        "there is no row of its own)."
    ),
    gettext_noop("Scores of a mixed hand."),
    gettext_noop("Scores of a hand (a dry hand where there are mixed ones)."),
    gettext_noop("Deals in a match with 2, 3, 4, 5 and 6 players."),
    gettext_noop("A running total that ends the match early (empty: none)."),
    gettext_noop("Fewest players at a table."),
    gettext_noop("Most players at a table; a house rule may raise it up to seat_limit."),
    gettext_noop("The most players the family's rules seat."),
)

# The words of a field's value in the rules tables.
VALUE_WORDS: Final = (gettext_noop("yes"), gettext_noop("no"))

SUIT_NAMES: Final = {
    Suit.SPADES: pgettext_lazy("suit", "spades"),
    Suit.HEARTS: pgettext_lazy("suit", "hearts"),
    Suit.DIAMONDS: pgettext_lazy("suit", "diamonds"),
    Suit.CLUBS: pgettext_lazy("suit", "clubs"),
}

RANK_NAMES: Final = {
    ACE: pgettext_lazy("rank", "ace"),
    JACK: pgettext_lazy("rank", "jack"),
    QUEEN: pgettext_lazy("rank", "queen"),
    KING: pgettext_lazy("rank", "king"),
}

JOKER_NAME: Final = pgettext_lazy("card", "joker")
# A joker as a message shows it among cards ("A♦ Joker 6♥"), as the table's log does.
JOKER_SHORT: Final = pgettext_lazy("card", "Joker")
SUIT_SYMBOLS: Final = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
RANK_LABELS: Final = {ACE: "A", JACK: "J", QUEEN: "Q", KING: "K"}


def engine_text(text: str) -> str:
    """``text`` from the engine in the active language (as it is where untranslated)."""
    return gettext(text) if text else text


def preset_display_name(preset: str) -> str:
    """A preset's name in the active language (the id itself for an unknown preset)."""
    ruleset = PRESETS.get(preset)
    return engine_text(ruleset.display_name) if ruleset is not None else preset


def preset_description(preset: str) -> str:
    ruleset = PRESETS.get(preset)
    return engine_text(ruleset.description) if ruleset is not None else ""


def card_name(card: Card) -> str:
    """A card in words ("ace of spades", "7 of hearts", "joker")."""
    if card.suit is None:
        return str(JOKER_NAME)
    rank = RANK_NAMES.get(card.rank)
    return gettext("%(rank)s of %(suit)s") % {
        "rank": rank if rank is not None else card.rank,
        "suit": SUIT_NAMES[card.suit],
    }


def card_short(card: Card) -> str:
    """A card as the table draws it: rank and suit symbol ("A♦", "10♥"), or "Joker"."""
    if card.suit is None:
        return str(JOKER_SHORT)
    return f"{RANK_LABELS.get(card.rank, card.rank)}{SUIT_SYMBOLS[card.suit]}"


def cards_short(codes: str) -> str:
    """The API's card codes ("AD JS 6H") as the table draws them ("A♦ J♠ 6♥")."""
    try:
        cards = parse_cards(codes)
    except ValueError:
        return codes
    return " ".join(card_short(card) for card in cards)
