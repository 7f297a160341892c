from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import URLValidator
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from accounts import display_names, usernames
from accounts.models import ApiToken, is_builtin_bot
from accounts.scopes import ALL_SCOPES
from games.bot_ratings import bot_ratings_of
from games.engine import PRESETS
from games.live.presence import shown_online
from games.ratings import rating_change_entry, rating_history, ratings_of
from games.stats import player_stats, recent_games
from remi_site import countries
from remi_site import strict_fields as strict
from remi_site.pagination import page_serializer

User = get_user_model()
USERNAME_MAX_LENGTH = 150  # django.contrib.auth's User.username

SCOPES_HELP = (
    "`read`: games, events and the streams; `play`: game actions, turns, resigning, "
    "`ready`, chat; `challenge`: challenges, new tables, rematches; `bot:play`: play as a "
    "bot account (also counts as `play`) and the upgrade to one; `account`: tokens, "
    "profile, settings, deletion. A call the token has no scope for answers "
    "`403 insufficient_scope` with the scope needed in `details.scope`."
)


@extend_schema_field(
    {"anyOf": [{"type": "string", "format": "email"}, {"type": "string", "enum": [""]}]}
)
class EmailOrEmptyField(strict.EmailField):
    """An email address, or empty: an account needs none."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("allow_blank", True)
        super().__init__(**kwargs)


def validate_country(value: str) -> None:
    if value and value not in countries.codes():
        raise serializers.ValidationError(
            _("%(value)s is not the ISO 3166-1 code of a country") % {"value": value}
        )


def validate_avatar(value: str) -> None:
    """An https image URL, or a short text such as an emoji."""
    if "://" in value:
        try:
            URLValidator(schemes=["https"])(value)
        except DjangoValidationError as exc:
            raise serializers.ValidationError(_("Use an https:// URL.")) from exc
    elif len(value) > 8 or any(ch.isspace() for ch in value):
        raise serializers.ValidationError(
            _("Use an emoji (up to 8 characters) or an https:// URL.")
        )


class DisplayNameRule:
    """A serializer's ``display_name`` may not pass for another account's name
    (``accounts.display_names``); whose it is: the context's ``account`` (absent: an
    account being signed up)."""

    context: dict[str, Any]

    def validate_display_name(self, value: str) -> str:
        if value:
            # DRF reports Django's ValidationError here as the field's error.
            display_names.refuse_posing(value, account=self.context.get("account"))
        return value


# ------------------------------------------------------------------ output


# Plain strings in the answers: the presets' enum is named once, by the games API.
RULES_HELP = f"The rule family: the game's preset ({', '.join(PRESETS)})."


class RatingSerializer(serializers.Serializer[Any]):
    rules = serializers.CharField(help_text=RULES_HELP)
    rating = serializers.IntegerField(help_text="Displayed rating; 1500 at the start.")
    deviation = serializers.IntegerField(
        help_text="Its uncertainty on the same scale (500 at the start)."
    )
    provisional = serializers.BooleanField(
        help_text="Still uncertain: shown with a `?` and kept off the leaderboard."
    )
    games = serializers.IntegerField(help_text="Rated games played in this family.")


class RatingChangeSerializer(serializers.Serializer[Any]):
    game = serializers.CharField(help_text="The game's public id.")
    rules = serializers.CharField(help_text=RULES_HELP)
    rank = serializers.IntegerField(help_text="Final standing: 1 won; ties share a rank.")
    rating_before = serializers.IntegerField()
    rating_after = serializers.IntegerField()
    change = serializers.IntegerField()
    provisional = serializers.BooleanField(help_text="The new rating is still provisional.")
    created_at = serializers.DateTimeField()


class ProfileFieldsSerializer(serializers.Serializer[Any]):
    """What anyone may know of an account: its name and profile."""

    username = serializers.CharField()
    display_name = serializers.CharField(source="profile.display_name")
    bio = serializers.CharField(source="profile.bio")
    country = serializers.CharField(source="profile.country")
    avatar = serializers.CharField(source="profile.avatar")
    is_bot = serializers.BooleanField(source="profile.is_bot")
    bot_level = serializers.IntegerField(
        source="profile.bot_level",
        allow_null=True,
        help_text="A built-in bot's level; null for people and external bot accounts.",
    )
    date_joined = serializers.DateTimeField()


class MeSerializer(ProfileFieldsSerializer):
    id = serializers.IntegerField()
    email = EmailOrEmptyField(help_text="Your verified address; empty when the account has none.")
    pending_email = EmailOrEmptyField(
        source="profile.pending_email",
        help_text="An address waiting for its verification link (`POST /me/email` sends it "
        "again); empty when none waits.",
    )
    ratings = serializers.SerializerMethodField()

    @extend_schema_field(RatingSerializer(many=True))
    def get_ratings(self, user: Any) -> list[dict[str, Any]]:
        """Your rating in every rule family."""
        return ratings_of(user)


class PublicUserSerializer(ProfileFieldsSerializer):
    ratings = serializers.SerializerMethodField()
    recent_rating_changes = serializers.SerializerMethodField()
    online = serializers.SerializerMethodField()

    @extend_schema_field(serializers.BooleanField(allow_null=True))
    def get_online(self, user: Any) -> bool | None:
        """Connected now; null when the player does not show it (or it is not known)."""
        return shown_online([user])[user.pk]

    @extend_schema_field(RatingSerializer(many=True))
    def get_ratings(self, user: Any) -> list[dict[str, Any]]:
        """The rating in every rule family; a built-in bot's from its games against people
        (``games.bot_ratings``: its games are unrated and change no one's rating)."""
        return bot_ratings_of(user) if is_builtin_bot(user) else ratings_of(user)

    @extend_schema_field(RatingChangeSerializer(many=True))
    def get_recent_rating_changes(self, user: Any) -> list[dict[str, Any]]:
        """The latest rated games' changes, newest first (up to 20)."""
        return [rating_change_entry(change) for change in rating_history(user)]


class FamilyStatsSerializer(serializers.Serializer[Any]):
    rules = serializers.CharField(help_text=RULES_HELP)
    games = serializers.IntegerField(help_text="Finished matches.")
    wins = serializers.IntegerField(help_text="Finished matches won (a shared first counts).")
    win_rate = serializers.FloatField(allow_null=True, help_text="wins / games; null: none.")
    left_early = serializers.IntegerField(
        help_text="Finished matches the player resigned or was put out of."
    )
    playing = serializers.IntegerField(help_text="Matches under way.")
    deals = serializers.IntegerField(help_text="Deals played to a result.")
    deals_won = serializers.IntegerField(help_text="Deals the player went out in.")
    hands = serializers.IntegerField(help_text="Deals won in one go (a hand).")
    average_deal_score = serializers.FloatField(
        allow_null=True, help_text="Mean points per deal, lower is better; null: no deals."
    )


class RecentGameSerializer(serializers.Serializer[Any]):
    id = serializers.CharField(help_text="The game's public id.")
    rules = serializers.CharField(help_text=RULES_HELP)
    players = serializers.IntegerField()
    rated = serializers.BooleanField()
    finished_at = serializers.DateTimeField()
    won = serializers.BooleanField()
    place = serializers.IntegerField(help_text="1 = first; players who left rank last.")
    total = serializers.IntegerField(help_text="The player's final match total.")
    end_reason = serializers.CharField()


class PlayerStatsSerializer(PublicUserSerializer):
    stats = serializers.SerializerMethodField()
    recent_games = serializers.SerializerMethodField()

    @extend_schema_field(FamilyStatsSerializer(many=True))
    def get_stats(self, user: Any) -> list[dict[str, Any]]:
        """Per rule family, counted from the player's games."""
        return [family.to_dict() for family in player_stats(user)]

    @extend_schema_field(RecentGameSerializer(many=True))
    def get_recent_games(self, user: Any) -> list[dict[str, Any]]:
        """The last finished matches, newest first (up to 10): public ones, and private
        ones the reader sat in."""
        request = self.context.get("request")
        games = recent_games(user, viewer=getattr(request, "user", None))
        return RecentGameSerializer(games, many=True).data  # type: ignore[return-value]


class LeaderboardEntrySerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    username = serializers.CharField()
    display_name = serializers.CharField()
    is_bot = serializers.BooleanField()
    rating = serializers.IntegerField()
    deviation = serializers.IntegerField()
    games = serializers.IntegerField()


LeaderboardSerializer = page_serializer(
    "LeaderboardSerializer",
    LeaderboardEntrySerializer(
        many=True, help_text="Established (not provisional) ratings, best first."
    ),
    rules=serializers.CharField(help_text=RULES_HELP),
)


class TokenSerializer(serializers.ModelSerializer[ApiToken]):
    expiry = serializers.DateTimeField(
        allow_null=True, help_text="When the token stops working; null: until revoked."
    )
    last_used = serializers.DateTimeField(
        allow_null=True, help_text="Last authenticated request (to the minute); null: never."
    )

    scopes = serializers.ListField(
        child=serializers.ChoiceField(choices=ALL_SCOPES),
        help_text=SCOPES_HELP,
    )

    class Meta:
        model = ApiToken
        fields = ["id", "name", "created", "last_used", "expiry", "scopes"]


class TokenCreatedSerializer(TokenSerializer):
    token = serializers.CharField(
        help_text="The token itself. Shown only in this response: store it now."
    )

    class Meta(TokenSerializer.Meta):
        fields = [*TokenSerializer.Meta.fields, "token"]


class LoginResultSerializer(serializers.Serializer[Any]):
    user = MeSerializer()
    token = TokenCreatedSerializer(
        allow_null=True, help_text="The new API token when `token_name` was given, else null."
    )


# ------------------------------------------------------------------ input


class SignupSerializer(DisplayNameRule, serializers.Serializer[Any]):
    username = strict.CharField(
        max_length=USERNAME_MAX_LENGTH,
        validators=[UnicodeUsernameValidator(), usernames.refuse_mixed_alphabets],
    )
    password = strict.CharField(write_only=True, style={"input_type": "password"})
    email = EmailOrEmptyField(required=False, default="")
    display_name = strict.CharField(
        max_length=40,
        required=False,
        allow_blank=True,
        default="",
        help_text="The name shown at tables; empty or absent: the username.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        candidate = User(username=attrs["username"], email=attrs.get("email", ""))
        try:
            password_validation.validate_password(attrs["password"], user=candidate)
        except DjangoValidationError as exc:
            raise serializers.ValidationError({"password": list(exc.messages)}) from exc
        return attrs


class LoginSerializer(serializers.Serializer[Any]):
    # Longer than any username: refused here, before the lockout records the attempt.
    username = strict.CharField(max_length=USERNAME_MAX_LENGTH)
    password = strict.CharField(style={"input_type": "password"})
    token_name = strict.CharField(
        max_length=64,
        required=False,
        help_text="Also create an API token with this name and return it.",
    )
    token_expires_in_days = strict.IntegerField(
        min_value=1, max_value=3650, required=False, allow_null=True, default=None
    )
    token_scopes = serializers.MultipleChoiceField(
        choices=ALL_SCOPES,
        required=False,
        allow_empty=False,
        help_text="The new token's scopes; absent: every scope. " + SCOPES_HELP,
    )


class ProfileUpdateSerializer(DisplayNameRule, serializers.Serializer[Any]):
    display_name = strict.CharField(max_length=40, required=False)
    bio = strict.CharField(max_length=500, required=False, allow_blank=True)
    country = strict.RegexField(
        r"^[A-Z]{2}$",
        required=False,
        allow_blank=True,
        validators=[validate_country],
        help_text="ISO 3166-1 alpha-2 code of a country, e.g. RS (or XK); empty to clear.",
    )
    avatar = strict.CharField(
        max_length=200, required=False, allow_blank=True, validators=[validate_avatar]
    )


class LeaderboardFilterSerializer(serializers.Serializer[Any]):
    rules = serializers.ChoiceField(choices=list(PRESETS), help_text="The rule family.")


class TokenCreateSerializer(serializers.Serializer[Any]):
    name = strict.CharField(max_length=64, help_text="What the token is for, e.g. `my-bot`.")
    expires_in_days = strict.IntegerField(
        min_value=1,
        max_value=3650,
        required=False,
        allow_null=True,
        default=None,
        help_text="Days until the token stops working; null or absent: until revoked.",
    )
    scopes = serializers.MultipleChoiceField(
        choices=ALL_SCOPES,
        required=False,
        allow_empty=False,
        help_text="What the token may do; absent: every scope. " + SCOPES_HELP,
    )
