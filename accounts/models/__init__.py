"""The accounts' models: profiles, API tokens and ratings here; moderation's records
in ``accounts.models.moderation``, imported here so that every model is read from
``accounts.models``."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from knox.models import AbstractAuthToken
from knox.settings import CONSTANTS

from accounts.models.moderation import (
    APPEAL_TEXT_MAX_LENGTH,
    MODERATION_REASON_MAX_LENGTH,
    REPORT_TEXT_MAX_LENGTH,
    Abandonment,
    Appeal,
    FairPlayMark,
    ModAction,
    Report,
    Sanction,
)
from accounts.scopes import all_scopes
from remi_site import formats


class Language(models.TextChoices):
    """The languages a person may choose for the site (``settings.LANGUAGES``); each
    name is written in its own language, as the switcher shows it."""

    EN = "en", "English"
    MK = "mk", "Македонски"
    SR_LATN = "sr-latn", "Srpski (latinica)"
    SR_CYRL = "sr-cyrl", "Српски (ћирилица)"
    PL = "pl", "Polski"


# A deleted account keeps its row (its games are the other players' too), anonymised:
# this name, and the username ``deleted-<id>``, which nobody may sign up with.
DELETED_DISPLAY_NAME = "Deleted player"
DELETED_USERNAME_PREFIX = "deleted-"


class CardColours(models.TextChoices):
    """How the suits are coloured wherever cards are drawn."""

    TWO = "two", _("Two colours: ♠ ♣ black, ♥ ♦ red")
    FOUR = "four", _("Four colours: ♠ black, ♥ red, ♦ blue, ♣ green")


class Profile(models.Model):
    """What other players see of a user, and whether the user is a bot.

    Created with the user (see signals.py): ``user.profile`` always exists.

    ``User.email`` holds only a verified address, so that whatever sends mail to it
    never writes to an address nobody confirmed; an address waiting for its
    verification link is ``pending_email`` (accounts.verification).
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="profile",
        verbose_name=_("account"),
    )
    display_name = models.CharField(_("display name"), max_length=40)
    bio = models.TextField(_("about the player"), max_length=500, blank=True)
    country = models.CharField(
        _("country"),
        max_length=2,
        blank=True,
        validators=[RegexValidator(r"^[A-Z]{2}$", _("Use an ISO 3166-1 alpha-2 code, e.g. RS."))],
        help_text=_("ISO 3166-1 alpha-2 country code, e.g. RS; empty if not given."),
    )
    avatar = models.CharField(
        _("avatar"), max_length=200, blank=True, help_text=_("An emoji, or an https:// image URL.")
    )
    # A bot is either built in (``bot_level`` set: the server moves it, see
    # ``games.play.bot_turns``) or external (no level: an account upgraded with
    # ``accounts.services.account_upgrade_to_bot``, moved by its owner's program
    # through the API, like a person).
    is_bot = models.BooleanField(_("bot"), default=False)
    bot_level = models.PositiveSmallIntegerField(
        _("bot level"),
        null=True,
        blank=True,
        help_text=_(
            "Strength of a built-in bot, 1 (weakest) to 4; empty for people and external bots."
        ),
    )
    created = models.DateTimeField(_("created"), auto_now_add=True)

    # Settings (accounts.preferences). "Your turn" emails are the games' play settings.
    language = models.CharField(
        _("language"), max_length=8, choices=Language.choices, default=Language.EN
    )
    email_challenges = models.BooleanField(
        _("challenge emails"), default=True, help_text=_("Email me when someone challenges me.")
    )
    # Off unless chosen: the outcome is on the reports page anyway.
    email_report_outcomes = models.BooleanField(
        _("report outcome emails"), default=False, help_text=_("Email me what came of my reports.")
    )
    chat_enabled = models.BooleanField(
        _("table chat"), default=True, help_text=_("Show the table chat.")
    )
    show_online = models.BooleanField(
        _("shown online"), default=True, help_text=_("Let others see when I am online.")
    )
    card_colours = models.CharField(
        _("card colours"),
        max_length=4,
        choices=CardColours.choices,
        default=CardColours.TWO,
        help_text=_("The colours of the suits on the cards."),
    )
    pending_email = models.EmailField(
        _("unconfirmed email address"),
        blank=True,
        help_text=_("An address waiting for its verification link."),
    )
    # The account was deleted: anonymised, its games kept for the other players.
    deleted_at = models.DateTimeField(_("deleted at"), null=True, blank=True)

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")
        constraints = [
            models.CheckConstraint(
                condition=Q(is_bot=True) | Q(bot_level__isnull=True),
                name="profile_bot_level_only_for_bots",
            ),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def is_builtin_bot(self) -> bool:
        """A bot the server plays for (the Celery bot task); never an external bot."""
        return self.is_bot and self.bot_level is not None


# Users that are built-in bots, as a filter on users.
BUILTIN_BOTS = Q(profile__is_bot=True, profile__bot_level__isnull=False)


def is_builtin_bot(user: Any) -> bool:
    """Whether the server plays for ``user``: a built-in bot. A person or an external
    bot account (``is_bot`` without a level) moves through the API by itself."""
    profile = getattr(user, "profile", None)
    return bool(profile is not None and profile.is_builtin_bot)


class ApiToken(AbstractAuthToken):
    """A personal API token: knox's hashed token plus a name and the last-used time.

    This is knox's token model (``KNOX_TOKEN_MODEL``), so knox creates and checks it;
    the raw token is shown once, at creation, and only its digest is stored. The
    public id is a plain number: the digest never leaves the server.
    """

    # Annotated: knox is untyped, so the django-stubs plugin cannot infer these.
    id: models.BigAutoField[int, int] = models.BigAutoField(primary_key=True)
    digest: models.CharField[str, str] = models.CharField(
        _("digest"), max_length=CONSTANTS.DIGEST_LENGTH, unique=True
    )
    name: models.CharField[str, str] = models.CharField(_("name"), max_length=64)
    last_used: models.DateTimeField[datetime | None, datetime | None] = models.DateTimeField(
        _("last used"), null=True, blank=True
    )
    # knox's own fields, as knox declares them, with names the admin can translate
    # (knox gives them none).
    user: models.ForeignKey[Any, Any] = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="auth_token_set",
        verbose_name=_("account"),
    )
    created: models.DateTimeField[datetime, datetime] = models.DateTimeField(
        _("created"), auto_now_add=True
    )
    expiry: models.DateTimeField[datetime | None, datetime | None] = models.DateTimeField(
        _("expires"), null=True, blank=True
    )
    # What the token may do (accounts.scopes); every scope unless created with fewer.
    # A JSON list (not PostgreSQL's array): the embedded default runs on SQLite.
    scopes = models.JSONField(_("scopes"), default=all_scopes)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.name} ({self.user})"

    def is_expired(self, now: datetime) -> bool:
        expiry: datetime | None = self.expiry
        return expiry is not None and expiry <= now


# ------------------------------------------------------------------ ratings
# Written only by ``games.ratings`` (in the transaction that finishes a rated game).


class Rating(models.Model):
    """A user's rating in one rule family (the game's preset): an openskill
    Plackett-Luce estimate (``mu``, ``sigma``) and its displayed number."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="ratings",
        verbose_name=_("player"),
    )
    rules = models.CharField(
        _("rules"), max_length=32, help_text=_("The game's rules: a rating is kept for each.")
    )
    # openskill's estimate: the skill (μ) and how unsure it is (σ).
    mu = models.FloatField(_("skill (μ)"))
    sigma = models.FloatField(_("uncertainty (σ)"))
    rating = models.IntegerField(_("rating"), help_text=_("The rating players see."))
    games = models.PositiveIntegerField(_("rated games"), default=0)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(fields=["user", "rules"], name="rating_unique_user_rules"),
        ]
        indexes = [models.Index(fields=["rules", "-rating"], name="rating_rules_rating")]

    def __str__(self) -> str:
        return f"{self.user} {self.rules} {self.rating}"


class RatingChange(models.Model):
    """What one rated game did to one player's rating. One row per player and game
    (the unique constraint makes applying a game twice impossible); rewritten only
    when a moderator takes results back (``games.ratings.results_revert``)."""

    game = models.ForeignKey(
        "games.Game",
        on_delete=models.CASCADE,
        related_name="rating_changes",
        verbose_name=_("game"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        verbose_name=_("player"),
    )
    rules = models.CharField(_("rules"), max_length=32)
    position = models.PositiveSmallIntegerField(_("seat"), help_text=_("The player's seat."))
    rank = models.PositiveSmallIntegerField(
        _("place"), help_text=_("The final standing: 1 won; tied players share a place.")
    )
    mu_before = models.FloatField(_("skill before (μ)"))
    sigma_before = models.FloatField(_("uncertainty before (σ)"))
    mu_after = models.FloatField(_("skill after (μ)"))
    sigma_after = models.FloatField(_("uncertainty after (σ)"))
    rating_before = models.IntegerField(_("rating before"))
    rating_after = models.IntegerField(_("rating after"))
    # The game's result was taken back (a fair-play mark): the row stays for the record,
    # with no effect on the rating (after = before).
    reverted = models.BooleanField(_("taken back"), default=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="rating_change_unique_game_user"),
        ]
        indexes = [
            models.Index(fields=["user", "-created_at"], name="rating_change_user_created"),
        ]

    def __str__(self) -> str:
        return gettext("%(player)s: %(before)s to %(after)s in game %(game)s") % {
            "player": self.user,
            "before": formats.rating(self.rating_before),
            "after": formats.rating(self.rating_after),
            "game": self.game.public_id,
        }

    @property
    def change(self) -> int:
        return self.rating_after - self.rating_before


__all__ = [
    "APPEAL_TEXT_MAX_LENGTH",
    "BUILTIN_BOTS",
    "DELETED_DISPLAY_NAME",
    "DELETED_USERNAME_PREFIX",
    "MODERATION_REASON_MAX_LENGTH",
    "REPORT_TEXT_MAX_LENGTH",
    "Abandonment",
    "ApiToken",
    "Appeal",
    "CardColours",
    "FairPlayMark",
    "Language",
    "ModAction",
    "Profile",
    "Rating",
    "RatingChange",
    "Report",
    "Sanction",
    "is_builtin_bot",
]
