"""The games API's rulesets: the presets and every switch a game may be created with."""

from __future__ import annotations

from rest_framework import serializers

from games.api.serializer_base import Serializer
from games.engine import DiscardTake, SetJokerSwap, StarterChoice

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
