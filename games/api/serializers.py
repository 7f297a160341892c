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

from games.engine import PRESETS, DiscardTake, SetJokerSwap, StarterChoice
from games.engine.scoring import FINISHES
from games.models import Game, Seat
from remi_site import strict_fields as strict

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
    """Every switch of a ruleset (RULES.md); house rules override any but ``name``."""

    name = serializers.CharField()
    jokers = serializers.IntegerField(help_text="Jokers in the pack (two decks plus these).")
    hand_size = serializers.IntegerField(help_text="Cards dealt to each player.")
    starter_extra_card = serializers.BooleanField(
        help_text="The starter gets one card more and skips the first draw."
    )
    upcard = serializers.BooleanField(help_text="The stock's top card starts the discard pile.")
    starter = serializers.ChoiceField(choices=[c.value for c in StarterChoice])
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
    mixed_hand_close = FinishScoringSerializer(allow_null=True)
    dry_hand_close = FinishScoringSerializer()
    match_deals = serializers.ListField(
        child=serializers.IntegerField(),
        min_length=3,
        max_length=3,
        help_text="Deals in a match with 2, 3 and 4 players.",
    )
    match_end_score = serializers.IntegerField(
        allow_null=True, help_text="A total that ends the match early (null: none)."
    )
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()


class PresetSerializer(Serializer):
    name = serializers.CharField()
    ruleset = RulesetSerializer()


# ------------------------------------------------------------------ the engine's view


class CardPairSerializer(Serializer):
    id = serializers.IntegerField(
        help_text="The physical card's id within its deal (tells twins apart)."
    )
    card = _card()


MELD_KINDS = ["run", "set"]


class TableMeldSerializer(Serializer):
    index = serializers.IntegerField(help_text="The meld's number for lay-offs and swaps.")
    owner = serializers.IntegerField(help_text="The seat that laid it.")
    kind = serializers.ChoiceField(choices=MELD_KINDS)
    cards = CardPairSerializer(many=True, help_text="In laid-out order (runs low to high).")


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


# ------------------------------------------------------------------ games


class UserCardSerializer(Serializer):
    username = serializers.CharField()
    display_name = serializers.CharField()
    is_bot = serializers.BooleanField()
    bot_level = serializers.IntegerField(allow_null=True)


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
        "before the host may choose (RULES.md §10); null for correspondence.",
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


class SeatRatingChangeSerializer(Serializer):
    position = serializers.IntegerField(help_text="The seat.")
    rank = serializers.IntegerField(help_text="Final standing: 1 won; ties share a rank.")
    rating_before = serializers.IntegerField()
    rating_after = serializers.IntegerField()
    change = serializers.IntegerField(help_text="rating_after - rating_before.")
    provisional = serializers.BooleanField(help_text="The new rating is still provisional.")


class GameViewSerializer(Serializer):
    id = serializers.CharField(help_text="The game's public id.")
    status = serializers.ChoiceField(choices=Game.Status.choices)
    preset = serializers.CharField(help_text="The variant.")
    ruleset = RulesetSerializer(help_text="The whole ruleset, fixed at creation.")
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
    deal = SeatViewSerializer(allow_null=True, help_text="Null before the game starts.")
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
    number = serializers.IntegerField()
    dealer = serializers.IntegerField()
    hands = serializers.ListField(child=CardPairSerializer(many=True))
    discard = CardPairSerializer(many=True)
    to_move = serializers.IntegerField()
    result = DealResultSerializer(allow_null=True)


class MoveLogSerializer(Serializer):
    complete = serializers.BooleanField(
        help_text="True once the game is over: every move in full, and the hands dealt."
    )
    ply = serializers.IntegerField()
    moves = MoveEntrySerializer(many=True)
    next_after = serializers.IntegerField(
        allow_null=True, help_text="More moves follow: ask again with `after` set to this."
    )
    deals = DealtSerializer(many=True, allow_null=True)


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
    players = strict.IntegerField(min_value=2, max_value=4)
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
        max_length=3,
        help_text="Usernames of bot accounts to seat at once.",
    )


class BotSerializer(Serializer):
    username = serializers.CharField(help_text="What `bots` of a new game names.")
    display_name = serializers.CharField()
    bot_level = serializers.IntegerField(help_text="1 (weakest) to 4.")
    avatar = serializers.CharField()
    bio = serializers.CharField()


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


class _DrawAction(Serializer):
    type = serializers.ChoiceField(choices=["draw"])


class _TakeAction(Serializer):
    type = serializers.ChoiceField(choices=["take"])


class _UndoAction(Serializer):
    type = serializers.ChoiceField(choices=["undo"])


class _LayAction(Serializer):
    type = serializers.ChoiceField(choices=["lay"])
    melds = serializers.ListField(
        child=serializers.ListField(child=_card()),
        help_text="One or more melds, each in laid-out order (runs low to high).",
    )


class _OffAction(Serializer):
    type = serializers.ChoiceField(choices=["off"])
    card = _card()
    meld = serializers.IntegerField(min_value=0)
    end = serializers.ChoiceField(
        choices=["low", "high"],
        required=False,
        allow_null=True,
        help_text="Where a card that fits either end of a run goes (default high).",
    )


class _SwapAction(Serializer):
    type = serializers.ChoiceField(choices=["swap"])
    cards = serializers.ListField(child=_card(), help_text="The real card(s) given for the joker.")
    meld = serializers.IntegerField(min_value=0)


class _DiscardAction(Serializer):
    type = serializers.ChoiceField(choices=["discard"])
    card = _card()


ACTION_SCHEMA = PolymorphicProxySerializer(
    component_name="Action",
    serializers={
        "draw": _DrawAction,
        "take": _TakeAction,
        "undo": _UndoAction,
        "lay": _LayAction,
        "off": _OffAction,
        "swap": _SwapAction,
        "discard": _DiscardAction,
    },
    resource_type_field_name="type",
)


@extend_schema_field(ACTION_SCHEMA)
class ActionField(serializers.JSONField):
    """An action object; the engine validates it (a bad one is 400 ``bad_action``)."""


class ActSerializer(Serializer):
    action = ActionField(
        help_text='The action, e.g. `{"type": "discard", "card": "7H"}`. The text form '
        '(`"discard 7H"`, `"lay 7H 8H 9H | QS QD QC"`) is accepted too.'
    )
    ply = strict.IntegerField(
        min_value=0, help_text="The game's `ply` you acted on; a stale one is refused (409)."
    )


class GameListFilterSerializer(Serializer):
    status = serializers.ChoiceField(
        choices=LIST_STATUS_CHOICES,
        required=False,
        help_text="`open`: public games in the lobby with a free seat that you are not in; "
        "`my_turn`: running games waiting for your move.",
    )
    mine = serializers.BooleanField(required=False, default=False, help_text="Only your games.")
    variant = serializers.ChoiceField(choices=list(PRESETS), required=False)


class MoveLogFilterSerializer(Serializer):
    after = serializers.IntegerField(min_value=0, required=False, default=0)
    limit = serializers.IntegerField(min_value=1, max_value=1000, required=False, default=500)
