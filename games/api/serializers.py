"""Input serializers of the games API, and the rulesets and chips it describes.

Inputs are validated here; the answers' serializers are in ``view_serializers`` and the
actions' in ``action_serializers``.
"""

from __future__ import annotations

from rest_framework import serializers

from games.api.action_serializers import ActionOrTextField, seconds_per_turn_field
from games.api.ruleset_serializers import PresetSerializer
from games.api.serializer_base import Serializer
from games.chips.services import MAX_STAKE
from games.engine import PRESETS
from games.models import ChipLedger, Game
from remi_site import strict_fields as strict
from remi_site.pagination import page_serializer

# The status filter of the game lists (named GameListStatusEnum in the schema).
LIST_STATUS_CHOICES = [
    ("open", "open"),
    ("my_turn", "my_turn"),
    ("lobby", "lobby"),
    ("active", "active"),
    ("finished", "finished"),
    ("aborted", "aborted"),
]

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
    seconds_per_turn = seconds_per_turn_field()
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
    games = serializers.IntegerField(
        help_text="Rated games played in this family; a built-in bot's: its games against "
        "people counted."
    )


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
    ratings = BotRatingSerializer(
        many=True,
        help_text="Its rating in each rule family. A built-in bot's comes from its games "
        "against people (recounted every 10 minutes) and changes no one's rating.",
    )


class PlayNowSerializer(Serializer):
    preset = serializers.ChoiceField(choices=list(PRESETS), help_text="The variant.")
    bots = strict.IntegerField(
        min_value=1, max_value=3, default=1, help_text="How many bots to play against."
    )
    level = strict.IntegerField(min_value=1, max_value=4, default=2)
    time_control = serializers.ChoiceField(
        choices=Game.TimeControl.choices, default=Game.TimeControl.LIVE
    )
    seconds_per_turn = seconds_per_turn_field()
    days_per_move = strict.IntegerField(required=False, allow_null=True, default=None)


class JoinSerializer(Serializer):
    invite_code = strict.CharField(
        required=False, allow_blank=True, default="", help_text="Needed for a private game."
    )


class ActSerializer(Serializer):
    """A move: the action, e.g. `{"type": "discard", "card": "7H"}` (one member of
    `Action` per kind, told apart by `type`; the text form, `"discard 7H"` or
    `"lay 7H 8H 9H | QS QD QC"`, is accepted too), and the `ply` it was made on."""

    action = ActionOrTextField()
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
