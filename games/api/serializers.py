"""Input and output serializers of the games API.

Inputs are validated here. Outputs are the plain dicts the selectors build
(from the engine's per-seat view); the output serializers below describe
them for the OpenAPI schema, and the test suite checks that every response
passes through its serializer unchanged, so the schema stays exact.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from games.chips.services import MAX_STAKE
from games.engine import PRESETS, DiscardTake, SetJokerSwap, StarterChoice
from games.engine.scoring import FINISHES
from games.models import ChipLedger, Game, Seat
from remi_site import strict_fields as strict
from remi_site.pagination import page_serializer

Serializer = serializers.Serializer[Any]

# The status filter of the game lists (named GameListStatusEnum in the schema).
LIST_STATUS_CHOICES = [
    ("open", "open"),
    ("my_turn", "my_turn"),
    ("lobby", "lobby"),
    ("active", "active"),
    ("finished", "finished"),
    ("aborted", "aborted"),
]

CARD_HELP = "A card: rank then suit (`AS`, `10H`, `QC`), or `JK` for a joker."


def _card(**kwargs: Any) -> serializers.CharField:
    kwargs.setdefault("help_text", CARD_HELP)
    return serializers.CharField(max_length=4, **kwargs)


# ------------------------------------------------------------------ rulesets


class FinishScoringSerializer(Serializer):
    winner = serializers.IntegerField(help_text="What the seat that went out scores.")
    multiplier = serializers.IntegerField(help_text="Others score their hand penalty times this…")
    bonus = serializers.IntegerField(help_text="…plus this.")
    unopened = serializers.IntegerField(
        allow_null=True, help_text="What a seat that never opened scores instead (null: as others)."
    )


class RulesetSerializer(Serializer):
    """Every switch of a ruleset (docs/rules.md); house rules override any but ``name``."""

    name = serializers.CharField()
    display_name = serializers.CharField(help_text="The variant's name for players.")
    description = serializers.CharField(help_text="One paragraph describing the variant.")
    jokers = serializers.IntegerField(help_text="Jokers in the pack (two decks plus these).")
    hand_size = serializers.IntegerField(help_text="Cards dealt to each player.")
    starter_extra_card = serializers.BooleanField(
        help_text="The starter gets one card more and skips the first draw."
    )
    upcard = serializers.BooleanField(help_text="The stock's top card starts the discard pile.")
    starter = serializers.ChoiceField(choices=[c.value for c in StarterChoice])
    seating_by_card_draw = serializers.BooleanField(
        help_text="Before the first deal each player draws a card: the highest starts and "
        "the others follow clockwise by their cards (ties draw again)."
    )
    max_reshuffles = serializers.IntegerField(
        help_text="Stock refills from the discard pile before a deal is void."
    )
    max_jokers_in_run_laid = serializers.IntegerField(
        allow_null=True, help_text="Jokers allowed in a run when laid down (null: any)."
    )
    max_jokers_in_set = serializers.IntegerField()
    opening_minimum = serializers.IntegerField(help_text="Value the opening melds must reach.")
    no_opening_in_first_round = serializers.BooleanField()
    ace_low_value = serializers.IntegerField()
    ace_high_value = serializers.IntegerField()
    royal_run_ace_value = serializers.IntegerField(allow_null=True)
    discard_take = serializers.ChoiceField(choices=[c.value for c in DiscardTake])
    discard_take_undo = serializers.BooleanField()
    set_of_three_joker = serializers.ChoiceField(choices=[c.value for c in SetJokerSwap])
    set_of_four_joker_swap = serializers.BooleanField()
    mixed_hand = serializers.BooleanField()
    hand_needs_51 = serializers.BooleanField()
    penalty_ace = serializers.IntegerField()
    penalty_joker = serializers.IntegerField()
    normal_close = FinishScoringSerializer()
    joker_close = FinishScoringSerializer(allow_null=True)
    joker_close_doubles = serializers.BooleanField(
        help_text="Going out with a joker doubles the normal close (when joker_close is null)."
    )
    mixed_hand_close = FinishScoringSerializer(allow_null=True)
    dry_hand_close = FinishScoringSerializer()
    match_deals = serializers.ListField(
        child=serializers.IntegerField(),
        min_length=3,
        max_length=5,
        help_text="Deals in a match with 2, 3, 4 (5, 6) players, up to max_players.",
    )
    match_end_score = serializers.IntegerField(
        allow_null=True, help_text="A total that ends the match early (null: none)."
    )
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    seat_limit = serializers.IntegerField(help_text="The most max_players may be raised to.")


class PresetSerializer(Serializer):
    name = serializers.CharField()
    ruleset = RulesetSerializer()
    scoring_by_agreement = serializers.BooleanField(
        help_text="The preset's source leaves the scores to the players' agreement: the "
        "scoring fields (`normal_close`, `dry_hand_close`, `joker_close_doubles`) are "
        "expected as house rules."
    )


class HouseRuleSerializer(Serializer):
    name = serializers.CharField(help_text="The ruleset field.")
    meaning = serializers.CharField(help_text="What the field means, in the active language.")
    preset = serializers.CharField(help_text="The preset's value, in words.")
    game = serializers.CharField(help_text="This game's value, in words.")


# ------------------------------------------------------------------ actions


def _kind(kind: str) -> serializers.ChoiceField:
    """An action body's ``type``: its kind, which tells the members of ``Action`` apart."""
    return serializers.ChoiceField(choices=[kind])


class DrawStockActionSerializer(Serializer):
    """Draw the top card of the stock."""

    type = _kind("draw")


class TakeDiscardActionSerializer(Serializer):
    """Take the top card of the discard pile instead of drawing."""

    type = _kind("take")


class UndoTakeActionSerializer(Serializer):
    """Put the discard just taken back and draw from the stock instead (serbian)."""

    type = _kind("undo")


class LayDownActionSerializer(Serializer):
    """Lay one or more new melds (before opening: the opening, worth the minimum)."""

    type = _kind("lay")
    melds = serializers.ListField(
        child=serializers.ListField(child=_card()),
        help_text="One or more melds, each in laid-out order (runs low to high).",
    )


class LayOffActionSerializer(Serializer):
    """Add one card from your hand to a table meld."""

    type = _kind("off")
    card = _card()
    meld = serializers.IntegerField(min_value=0, help_text="The table meld's `index`.")
    end = serializers.ChoiceField(
        choices=["low", "high"],
        required=False,
        allow_null=True,
        help_text="Where a card that fits either end of a run goes (default high); "
        "ignored for a set.",
    )


class SwapJokerActionSerializer(Serializer):
    """Give the real card(s) a table joker stands for and take the joker."""

    type = _kind("swap")
    cards = serializers.ListField(child=_card(), help_text="The real card(s) given for the joker.")
    meld = serializers.IntegerField(min_value=0, help_text="The table meld's `index`.")


class DiscardActionSerializer(Serializer):
    """Discard a card: ends the turn (and the deal, if it was your last card)."""

    type = _kind("discard")
    card = _card()


# One member per kind of action, told apart by ``type`` (the engine's ``Action.kind``).
ACTION_SCHEMA = PolymorphicProxySerializer(
    component_name="Action",
    serializers={
        "draw": DrawStockActionSerializer,
        "take": TakeDiscardActionSerializer,
        "undo": UndoTakeActionSerializer,
        "lay": LayDownActionSerializer,
        "off": LayOffActionSerializer,
        "swap": SwapJokerActionSerializer,
        "discard": DiscardActionSerializer,
    },
    resource_type_field_name="type",
)


@extend_schema_field(ACTION_SCHEMA)
class ActionField(serializers.JSONField):
    """An action object; the engine validates it (a bad one is 400 ``bad_action``)."""


# ------------------------------------------------------------------ the engine's view


class CardPairSerializer(Serializer):
    id = serializers.IntegerField(
        help_text="The physical card's id within its deal (tells twins apart)."
    )
    card = _card()


MELD_KINDS = ["run", "set"]


class TableJokerSerializer(Serializer):
    position = serializers.IntegerField(help_text="The joker's place in the meld's `cards`.")
    rank = serializers.CharField(
        max_length=2, help_text="The rank it stands for: A, 2…10, J, Q, K."
    )
    card = _card(
        allow_null=True,
        help_text="The card it stands for in a run; null in a set, where it stands for any "
        "suit the set lacks.",
    )


class TableMeldSerializer(Serializer):
    index = serializers.IntegerField(help_text="The meld's number for lay-offs and swaps.")
    owner = serializers.IntegerField(help_text="The seat that laid it.")
    kind = serializers.ChoiceField(choices=MELD_KINDS)
    cards = CardPairSerializer(many=True, help_text="In laid-out order (runs low to high).")
    jokers = TableJokerSerializer(many=True, help_text="What each joker of the meld stands for.")


class DealResultSerializer(Serializer):
    winner = serializers.IntegerField(allow_null=True, help_text="Null for a void deal.")
    finish = serializers.ChoiceField(choices=list(FINISHES))
    scores = serializers.ListField(child=serializers.IntegerField(), help_text="Per seat.")
    penalties = serializers.ListField(
        child=serializers.IntegerField(), help_text="Penalty of the cards each seat held."
    )


class MoveEventSerializer(Serializer):
    """A move as a viewer may see it. Another player's draw from the stock shows no card."""

    type = serializers.ChoiceField(
        choices=["draw", "take", "undo", "lay", "off", "swap", "discard", "resign"]
    )
    seat = serializers.IntegerField()
    card = CardPairSerializer(
        required=False, help_text="The card taken, laid off or discarded; drawn (mover only)."
    )
    returned = CardPairSerializer(required=False, help_text="undo: the card put back.")
    melds = serializers.ListField(
        child=CardPairSerializer(many=True), required=False, help_text="lay: the new melds."
    )
    meld = serializers.IntegerField(
        required=False, allow_null=True, help_text="The (first new) meld's index."
    )
    end = serializers.ChoiceField(choices=["low", "high"], required=False, allow_null=True)
    cards = CardPairSerializer(many=True, required=False, help_text="swap: the cards given.")
    joker = CardPairSerializer(required=False, help_text="swap: the joker taken.")
    reshuffled = serializers.BooleanField(
        required=False, help_text="The discard pile became the new stock after this move."
    )
    stock_count = serializers.IntegerField(required=False)
    result = DealResultSerializer(required=False, help_text="The move ended the deal.")


class TakeOptionSerializer(Serializer):
    card = _card(help_text="The top card of the discard pile.")
    obligation = serializers.ChoiceField(
        choices=["open_or_return"],
        allow_null=True,
        help_text="`open_or_return` (serbian, before opening): take it, then open in this "
        "turn or discard that same card back; null: taking binds you to nothing.",
    )
    undo = serializers.BooleanField(
        help_text="Once taken, you may put it back and draw from the stock instead (`undo`), "
        "as long as you have done nothing else."
    )


class OpeningNeedSerializer(Serializer):
    minimum = serializers.IntegerField(
        help_text="The value your new melds of one turn must reach together to open."
    )
    all_but_one_exempt = serializers.BooleanField(
        help_text="Laying down every card but one at once needs no minimum (`hand_needs_51` off)."
    )
    this_turn = serializers.BooleanField(
        help_text="You may open in this turn (false in a first round where the ruleset bans "
        "opening in it)."
    )


class LegalMovesSerializer(Serializer):
    """What the player to move may do now, move by move, as the engine decides it. Every
    entry of `lay_offs` and `swaps` is an action body to send as is; lay-downs are the
    one kind not listed one by one (`lay`, `opening`; `POST …/melds/check` and
    `POST …/hint` help choose them)."""

    draw = serializers.BooleanField(help_text="You may draw from the stock (`draw`).")
    take = TakeOptionSerializer(
        allow_null=True, help_text="You may take the top discard (`take`), and what it obliges."
    )
    undo = serializers.BooleanField(help_text="You may put the card you took back (`undo`).")
    lay = serializers.BooleanField(
        help_text="Your hand holds melds the engine would let you lay down now (`lay`): "
        "your opening, until you have opened."
    )
    opening = OpeningNeedSerializer(
        allow_null=True, help_text="What your opening needs; null once you have opened."
    )
    lay_offs = LayOffActionSerializer(
        many=True,
        help_text="Every lay-off: a card of yours onto a table meld, with the end of a run it "
        "goes to (null for a set). A card that fits both ends of a run is listed twice.",
    )
    swaps = SwapJokerActionSerializer(
        many=True, help_text="Every joker swap: the card(s) you give and the meld."
    )
    discards = serializers.ListField(
        child=_card(),
        help_text="The cards you may discard (one entry per value: twins are interchangeable).",
    )


class SeatViewSerializer(Serializer):
    """The engine's view of the current deal for the viewer's seat (or a spectator)."""

    seat = serializers.IntegerField(allow_null=True, help_text="Null for a spectator.")
    ruleset = serializers.CharField()
    dealer = serializers.IntegerField()
    to_move = serializers.IntegerField()
    phase = serializers.ChoiceField(choices=["draw", "play", "over"])
    first_round = serializers.BooleanField(help_text="The player to move has not had a turn yet.")
    hand = CardPairSerializer(
        many=True, allow_null=True, help_text="Your cards with their ids; null for a spectator."
    )
    hand_counts = serializers.ListField(
        child=serializers.IntegerField(), help_text="Cards in each seat's hand."
    )
    table = TableMeldSerializer(many=True)
    discard = CardPairSerializer(many=True, help_text="Bottom first: the last card is the top.")
    stock_count = serializers.IntegerField()
    opened = serializers.ListField(child=serializers.BooleanField(), help_text="Per seat.")
    taken = CardPairSerializer(
        allow_null=True, help_text="The discard the player to move took this turn."
    )
    must_return = _card(
        allow_null=True,
        help_text="serbian: the taken card the player to move must discard back unless they open.",
    )
    reshuffles = serializers.IntegerField()
    actions = serializers.ListField(
        child=serializers.ChoiceField(
            choices=["draw", "take", "undo", "lay", "off", "swap", "discard"]
        ),
        help_text="The kinds of action you may take now (empty unless it is your turn).",
    )
    result = DealResultSerializer(allow_null=True)
    last_event = MoveEventSerializer(allow_null=True)
    legal = LegalMovesSerializer(
        allow_null=True, help_text="Your moves now, one by one; null unless it is your turn."
    )


class FinishedDealSerializer(Serializer):
    """A finished deal's result: the same object in the game (`deals`), the move log and
    the websocket's `deal_over` event. Every hand is shown once the deal is over."""

    number = serializers.IntegerField(help_text="The deal's number in the match, from 1.")
    dealer = serializers.IntegerField()
    winner = serializers.IntegerField(
        allow_null=True, help_text="The seat that went out (closed the deal); null when void."
    )
    finish = serializers.ChoiceField(
        choices=list(FINISHES),
        help_text="How the deal closed: the scoring row applied (`void`: the stock ran out).",
    )
    closing_card = CardPairSerializer(
        allow_null=True, help_text="The card the winner went out with; null when void."
    )
    scores = serializers.ListField(
        child=serializers.IntegerField(), help_text="Each seat's score for the deal."
    )
    penalties = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The penalty of the cards each seat was left holding (0 for the winner).",
    )
    opened = serializers.ListField(
        child=serializers.BooleanField(), help_text="Each seat had opened in the deal."
    )
    hands_left = serializers.ListField(
        child=CardPairSerializer(many=True),
        help_text="The cards each seat was left holding, shown to everyone once the deal is "
        "over (the winner's: none).",
    )
    totals = serializers.ListField(
        child=serializers.IntegerField(), help_text="Each seat's running total after the deal."
    )
    ranks = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The standing after the deal: each seat's place by total, lowest first "
        "(equal totals share a place).",
    )
    match_over = serializers.BooleanField(
        help_text="The deal ended the match (its last deal, or a total reached the end score)."
    )


# ------------------------------------------------------------------ games


class UserCardSerializer(Serializer):
    username = serializers.CharField()
    display_name = serializers.CharField()
    is_bot = serializers.BooleanField()
    bot_level = serializers.IntegerField(allow_null=True)
    title = serializers.ChoiceField(
        choices=["BOT"],
        allow_null=True,
        help_text="`BOT` for every bot (built in or a bot account): show it by the name.",
    )


class SeatSerializer(Serializer):
    position = serializers.IntegerField()
    user = UserCardSerializer()
    status = serializers.ChoiceField(
        choices=Seat.Status.choices,
        help_text="`left`: away, may rejoin (the total is kept); `out`: resigned.",
    )
    total = serializers.IntegerField(help_text="Running match total (never reset).")
    strikes = serializers.IntegerField(help_text="Turns in a row played by the server on timeout.")
    time_bank_remaining_s = serializers.FloatField(
        allow_null=True,
        help_text="Live games: what is left of this seat's time bank, in seconds, as of the "
        "start of the current turn (the player to move uses theirs from `turn_ends_at` to "
        "`deadline_at`); null for correspondence games.",
    )
    away_until = serializers.DateTimeField(
        allow_null=True,
        help_text="The player is on vacation until then (their correspondence clocks wait); "
        "null when they are not.",
    )


class TimeControlSerializer(Serializer):
    kind = serializers.ChoiceField(choices=Game.TimeControl.choices)
    seconds_per_turn = serializers.IntegerField(allow_null=True)
    days_per_move = serializers.IntegerField(allow_null=True)
    rated = serializers.BooleanField()
    strike_limit = serializers.IntegerField(
        help_text="Turns in a row played by the server on timeout before the seat is out."
    )
    absent_wait_s = serializers.IntegerField(
        allow_null=True,
        help_text="Live games: how long the table waits for a disconnected player to move "
        "before the host may choose (docs/rules.md §10); null for correspondence.",
    )
    time_bank_s = serializers.IntegerField(
        allow_null=True,
        help_text="Live games: each seat's time bank for the whole game, in seconds (0: "
        "none; not refilled between deals); null for correspondence.",
    )


class CanSerializer(Serializer):
    join = serializers.BooleanField()
    leave = serializers.BooleanField()
    start = serializers.BooleanField()
    abort = serializers.BooleanField()
    resign = serializers.BooleanField()
    act = serializers.ListField(
        child=serializers.CharField(), help_text="Action kinds you may send now."
    )


class GameChipsSerializer(Serializer):
    stake = serializers.IntegerField(
        help_text="Chips each player puts into the pot when the game starts (0: none)."
    )
    pot = serializers.IntegerField(help_text="Chips staked into the pot (0 before the start).")
    payouts = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="Per seat, what the pot paid when the game ended (the winner at least 75 %, "
        "the others below 50 penalty points 25 % by how far below); null until then.",
    )
    refunded = serializers.BooleanField(help_text="The game was aborted: the stakes went back.")
    balances = serializers.ListField(
        child=serializers.IntegerField(allow_null=True),
        allow_null=True,
        help_text="Per seat, the player's chip balance (a game with a stake); else null.",
    )


class SeatingSerializer(Serializer):
    """The cards drawn for the seats before the first deal (rules that seat by cards)."""

    cards = serializers.ListField(
        child=serializers.ListField(child=_card()),
        help_text="Per seat: the card drawn, then any drawn again to break a tie.",
    )
    starter = serializers.IntegerField(help_text="The seat of the highest card: it starts.")
    lobby_seats = serializers.ListField(
        child=serializers.IntegerField(), help_text="Per seat: the seat its player had before."
    )


class GameSummarySerializer(Serializer):
    id = serializers.CharField(help_text="The game's public id.")
    status = serializers.ChoiceField(choices=Game.Status.choices)
    preset = serializers.CharField(help_text="The variant.")
    players = serializers.IntegerField()
    visibility = serializers.ChoiceField(choices=Game.Visibility.choices)
    owner = serializers.CharField()
    time_control = TimeControlSerializer()
    seats = SeatSerializer(many=True)
    you = serializers.IntegerField(allow_null=True, help_text="Your seat, null if you have none.")
    ply = serializers.IntegerField()
    deal_number = serializers.IntegerField()
    to_move = serializers.IntegerField(
        allow_null=True, help_text="The seat whose turn it is (running games)."
    )
    deadline_at = serializers.DateTimeField(allow_null=True)
    winners = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    created_at = serializers.DateTimeField()
    stake = serializers.IntegerField(help_text="Chips each player puts into the pot (0: none).")
    my_turn = serializers.BooleanField(help_text="The game is running and waits for your move.")
    house_rules = HouseRuleSerializer(
        many=True,
        allow_null=True,
        help_text="Every field of the game's ruleset that differs from its preset's; in lists "
        "of games waiting for players (`status=open`, `lobby`) only, null elsewhere.",
    )


class SeatRatingChangeSerializer(Serializer):
    position = serializers.IntegerField(help_text="The seat.")
    rank = serializers.IntegerField(help_text="Final standing: 1 won; ties share a rank.")
    rating_before = serializers.IntegerField()
    rating_after = serializers.IntegerField()
    change = serializers.IntegerField(help_text="rating_after - rating_before.")
    provisional = serializers.BooleanField(help_text="The new rating is still provisional.")


class DealPauseSerializer(Serializer):
    deal = serializers.IntegerField(help_text="The deal that is over.")
    ended_at = serializers.DateTimeField(allow_null=True, help_text="When it ended.")
    next_deal_at = serializers.DateTimeField(
        help_text="When the next deal is dealt, unless every player is ready sooner."
    )
    ready = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The seats that are ready for the next deal (`POST .../ready`).",
    )


class GameViewSerializer(Serializer):
    id = serializers.CharField(help_text="The game's public id.")
    status = serializers.ChoiceField(choices=Game.Status.choices)
    preset = serializers.CharField(help_text="The variant.")
    ruleset = RulesetSerializer(help_text="The whole ruleset, fixed at creation.")
    house_rules = HouseRuleSerializer(
        many=True, help_text="Every field of the ruleset that differs from the preset's."
    )
    players = serializers.IntegerField()
    visibility = serializers.ChoiceField(choices=Game.Visibility.choices)
    invite_code = serializers.CharField(
        allow_null=True, help_text="A private game's invite code (players only)."
    )
    owner = serializers.CharField(help_text="The host's username.")
    time_control = TimeControlSerializer()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    ply = serializers.IntegerField(help_text="Moves logged so far: send it with your next action.")
    deadline_at = serializers.DateTimeField(
        allow_null=True,
        help_text="When the current turn times out (a live turn: its own seconds plus the "
        "mover's time bank).",
    )
    turn_ends_at = serializers.DateTimeField(
        allow_null=True,
        help_text="When the current turn's own seconds run out and the mover starts using "
        "their time bank (equal to `deadline_at` without a bank; null: no clock).",
    )
    deal_number = serializers.IntegerField(help_text="The current deal, from 1 (0: not started).")
    deals_in_match = serializers.IntegerField()
    to_move = serializers.IntegerField(allow_null=True, help_text="The seat whose turn it is.")
    seats = SeatSerializer(many=True)
    you = serializers.IntegerField(allow_null=True, help_text="Your seat, null if you have none.")
    winners = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    end_reason = serializers.CharField(allow_null=True)
    rating_changes = SeatRatingChangeSerializer(
        many=True,
        allow_null=True,
        help_text="A finished rated game: what it did to each seat's rating (empty: the "
        "game was left during its first deal before every player had made a move, too "
        "short to rate); else null.",
    )
    chips = GameChipsSerializer(help_text="The stake and the pot.")
    seating = SeatingSerializer(
        allow_null=True, help_text="The cards drawn for the seats (null: no draw)."
    )
    deal = SeatViewSerializer(allow_null=True, help_text="Null before the game starts.")
    deals = FinishedDealSerializer(
        many=True, help_text="The results of the finished deals, in order."
    )
    pause = DealPauseSerializer(
        allow_null=True,
        help_text="A live table between two deals: the last deal's summary is shown until "
        "`next_deal_at` or until every player is ready; null otherwise (correspondence "
        "games deal the next deal at once).",
    )
    can = CanSerializer(help_text="What you may do now.")


class GamePageSerializer(Serializer):
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = GameSummarySerializer(many=True)


class MoveEntrySerializer(Serializer):
    ply = serializers.IntegerField()
    deal = serializers.IntegerField(allow_null=True)
    seat = serializers.IntegerField()
    kind = serializers.CharField()
    by_server = serializers.BooleanField(help_text="Played by the server for the seat.")
    event = MoveEventSerializer()
    created_at = serializers.DateTimeField()


class DealtSerializer(Serializer):
    """A deal of the log. While the game runs: each finished deal and its result. Once
    it is over: every deal, with the hands as dealt (its replay)."""

    number = serializers.IntegerField()
    dealer = serializers.IntegerField()
    hands = serializers.ListField(
        child=CardPairSerializer(many=True),
        required=False,
        help_text="Each seat's hand as dealt (complete logs only).",
    )
    discard = CardPairSerializer(
        many=True, required=False, help_text="The discard pile as dealt (complete logs only)."
    )
    to_move = serializers.IntegerField(
        required=False, help_text="The seat that started the deal (complete logs only)."
    )
    result = FinishedDealSerializer(
        allow_null=True, help_text="Null for a deal the game ended before it was over."
    )


class MoveLogSerializer(Serializer):
    complete = serializers.BooleanField(
        help_text="True once the game is over: every move in full, and the hands dealt."
    )
    ply = serializers.IntegerField()
    deals = DealtSerializer(many=True)
    seating = SeatingSerializer(
        allow_null=True,
        help_text="The cards drawn for the seats before the first move (null: no draw).",
    )
    next = serializers.URLField(allow_null=True, help_text="More moves follow: read this next.")
    previous = serializers.URLField(
        allow_null=True, help_text="Always null: the log is read forward from `after`."
    )
    results = MoveEntrySerializer(many=True, help_text="The moves of this page, by ply.")


class ActResultSerializer(Serializer):
    replayed = serializers.BooleanField(
        help_text="True when this answers a retry of an earlier request (same Idempotency-Key)."
    )
    move = MoveEntrySerializer()
    game = GameViewSerializer()


# ------------------------------------------------------------------ input


class GameCreateSerializer(Serializer):
    preset = serializers.ChoiceField(choices=list(PRESETS), help_text="The variant.")
    overrides = serializers.DictField(
        required=False,
        default=dict,
        help_text='House rules: ruleset fields to change, e.g. `{"hand_needs_51": false}`.',
    )
    players = strict.IntegerField(
        min_value=2, max_value=6, help_text="2 to the ruleset's `max_players`."
    )
    visibility = serializers.ChoiceField(
        choices=Game.Visibility.choices, default=Game.Visibility.PUBLIC
    )
    time_control = serializers.ChoiceField(
        choices=Game.TimeControl.choices, default=Game.TimeControl.CORRESPONDENCE
    )
    seconds_per_turn = strict.IntegerField(required=False, allow_null=True, default=None)
    days_per_move = strict.IntegerField(required=False, allow_null=True, default=None)
    rated = strict.BooleanField(default=False)
    strike_limit = strict.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=1,
        max_value=10,
        help_text="Timeouts in a row before a seat is out (null: the site's default, 3).",
    )
    absent_wait_s = strict.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=10,
        max_value=1800,
        help_text="Live games: seconds the table waits for a disconnected player to move "
        "before the host may choose (null: the site's default, 120).",
    )
    time_bank_s = strict.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Live games: each player's time bank for the whole game, 0 to 600 seconds "
        "(e.g. 30, 60, 120, 300; null or 0: none). A turn's deadline is its "
        "`seconds_per_turn` plus what is left of the mover's bank. Refused for "
        "correspondence games (`invalid_time_control`).",
    )
    bots = serializers.ListField(
        child=strict.CharField(),
        required=False,
        default=list,
        max_length=5,
        help_text="Usernames of bot accounts to seat at once.",
    )
    stake = strict.IntegerField(
        required=False,
        default=0,
        min_value=0,
        max_value=MAX_STAKE,
        help_text="Chips each player puts into the pot when the game starts (0: none). Everyone "
        "seated must hold that many (`insufficient_chips`).",
    )


class BotRatingSerializer(Serializer):
    rules = serializers.CharField(help_text="The rule family (a preset).")
    rating = serializers.IntegerField(help_text="Displayed rating; 1500 at the start.")
    deviation = serializers.IntegerField(help_text="Its uncertainty on the same scale.")
    provisional = serializers.BooleanField()
    games = serializers.IntegerField(help_text="Rated games played in this family.")


class BotSerializer(Serializer):
    username = serializers.CharField(
        help_text="A built-in bot: what `bots` of a new game names. A bot account: whom "
        "to challenge (`to` of `POST /challenges`)."
    )
    display_name = serializers.CharField()
    kind = serializers.ChoiceField(
        choices=["builtin", "account"],
        help_text="`builtin`: moved by the server, seated at once. `account`: a program "
        "playing through the API, challenged like a person.",
    )
    bot_level = serializers.IntegerField(
        allow_null=True, help_text="1 (weakest) to 4 for a built-in bot; null for an account."
    )
    avatar = serializers.CharField()
    bio = serializers.CharField()
    connected = serializers.BooleanField(
        allow_null=True,
        help_text="Connected now (a websocket or an event stream open); a built-in bot "
        "always is. Null: the account keeps it to itself, or the server cannot tell.",
    )
    ratings = BotRatingSerializer(many=True, help_text="Its rating in each rule family.")


class PlayNowSerializer(Serializer):
    preset = serializers.ChoiceField(choices=list(PRESETS), help_text="The variant.")
    bots = strict.IntegerField(
        min_value=1, max_value=3, default=1, help_text="How many bots to play against."
    )
    level = strict.IntegerField(min_value=1, max_value=4, default=2)
    time_control = serializers.ChoiceField(
        choices=Game.TimeControl.choices, default=Game.TimeControl.LIVE
    )
    seconds_per_turn = strict.IntegerField(required=False, allow_null=True, default=None)
    days_per_move = strict.IntegerField(required=False, allow_null=True, default=None)


class JoinSerializer(Serializer):
    invite_code = strict.CharField(
        required=False, allow_blank=True, default="", help_text="Needed for a private game."
    )


class ActSerializer(Serializer):
    """A move: the action, e.g. `{"type": "discard", "card": "7H"}` (one member of
    `Action` per kind, told apart by `type`; the text form, `"discard 7H"` or
    `"lay 7H 8H 9H | QS QD QC"`, is accepted too), and the `ply` it was made on."""

    action = ActionField()
    ply = strict.IntegerField(
        min_value=0, help_text="The game's `ply` you acted on; a stale one is refused (409)."
    )


class GameListFilterSerializer(Serializer):
    status = serializers.ChoiceField(
        choices=LIST_STATUS_CHOICES,
        required=False,
        help_text="`open`: public games in the lobby with a free seat that you are not in; "
        "`my_turn`: running games waiting for your move, most urgent deadline first.",
    )
    mine = serializers.BooleanField(required=False, default=False, help_text="Only your games.")
    variant = serializers.ChoiceField(choices=list(PRESETS), required=False)
    time_control = serializers.ChoiceField(choices=Game.TimeControl.choices, required=False)


class MoveLogFilterSerializer(Serializer):
    after = serializers.IntegerField(
        min_value=0, required=False, default=0, help_text="Only the moves after this ply."
    )


# ------------------------------------------------------------------ pages of the catalogues

PresetPageSerializer = page_serializer("PresetPageSerializer", PresetSerializer(many=True))
BotPageSerializer = page_serializer("BotPageSerializer", BotSerializer(many=True))


# ------------------------------------------------------------------ play chips


class ChipLedgerEntrySerializer(Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(
        choices=ChipLedger.Kind.choices,
        help_text="`grant` (a new account), `top_up` (daily), `stake` (into a game's pot), "
        "`payout` (a share of a pot), `refund` (an aborted game's stake back).",
    )
    amount = serializers.IntegerField(help_text="Signed: what it added to the balance.")
    balance_after = serializers.IntegerField()
    game = serializers.CharField(allow_null=True, help_text="The game's public id, if any.")
    day = serializers.DateField(allow_null=True, help_text="A top-up's day (UTC).")
    created_at = serializers.DateTimeField()


class ChipsPageSerializer(Serializer):
    balance = serializers.IntegerField(
        allow_null=True, help_text="Your chips (null until your account opens)."
    )
    topped_up_on = serializers.DateField(allow_null=True, help_text="The last daily top-up.")
    starting_grant = serializers.IntegerField(help_text="A new account's chips.")
    daily_top_up = serializers.IntegerField(help_text="Chips every account gets once a day.")
    max_stake = serializers.IntegerField(help_text="The largest stake a game may ask.")
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = ChipLedgerEntrySerializer(many=True, help_text="Your ledger, newest first.")
