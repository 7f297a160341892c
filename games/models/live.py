"""Live play and correspondence: a player's settings, muted games, push subscriptions,
sent reminders and the wait for an absent player."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.models.play import Game, Seat
from remi_site import formats

# A player's correspondence settings: the vacation allowance, written by
# games.play.vacation, and what the player is told and how (emails, reminders, Web
# Push, time zone, calendar feed), written by games.notify.


# Hours before a correspondence deadline that a player is reminded, unless they chose.
DEFAULT_REMINDER_HOURS = (24, 2)


def default_reminder_hours() -> list[int]:
    return list(DEFAULT_REMINDER_HOURS)


class PlayerSettings(models.Model):
    class EmailTurns(models.TextChoices):
        EACH_MOVE = "each", pgettext_lazy("turn emails", "An email for each move")
        DAILY = "daily", pgettext_lazy("turn emails", "One email a day")
        OFF = "off", pgettext_lazy("turn emails", "None")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="play_settings",
        verbose_name=_("player"),
    )
    email_turns = models.CharField(
        _("emails about the player's turn"),
        max_length=8,
        choices=EmailTurns.choices,
        default=EmailTurns.EACH_MOVE,
    )
    # Vacation: days left in the allowance as of ``vacation_accrued_at`` (it grows over
    # time up to a cap), and the end of the vacation being taken, if any.
    vacation_days = models.FloatField(
        _("vacation days left"),
        default=14.0,
        help_text=_("As counted at the time below; the allowance grows over time up to a cap."),
    )
    vacation_accrued_at = models.DateTimeField(_("vacation days counted at"), auto_now_add=True)
    vacation_started_at = models.DateTimeField(_("vacation started at"), null=True, blank=True)
    vacation_until = models.DateTimeField(_("on vacation until"), null=True, blank=True)
    last_digest_at = models.DateTimeField(_("last daily email at"), null=True, blank=True)
    # Reminders before a correspondence deadline (an event, and an email), this many
    # hours before it (``reminder_hours``: a list, several allowed).
    reminders = models.BooleanField(_("reminders before deadlines"), default=True)
    reminder_hours = models.JSONField(
        _("hours before a deadline"),
        default=default_reminder_hours,
        help_text=_("When the player is reminded of a deadline."),
    )
    # The other emails, each of which its own unsubscribe link turns off.
    email_strikes = models.BooleanField(_("emails when time runs out"), default=True)
    email_game_over = models.BooleanField(_("emails with the result"), default=True)
    # Web Push, opt-in per kind (the browsers are ``PushSubscription`` rows).
    push_turns = models.BooleanField(_("browser notifications of the turn"), default=False)
    push_challenges = models.BooleanField(_("browser notifications of challenges"), default=False)
    push_game_over = models.BooleanField(_("browser notifications of the result"), default=False)
    # The IANA zone the messages show times in ("": not chosen yet, UTC).
    time_zone = models.CharField(
        _("time zone"), max_length=64, blank=True, default="", help_text=_("Empty: UTC.")
    )
    # The secret of the private calendar feed's URL, made on first use (NULL: none yet;
    # the unique index skips NULLs).
    calendar_secret = models.CharField(  # noqa: DJ001
        _("calendar feed secret"), max_length=64, null=True, blank=True, unique=True
    )

    class Meta:
        verbose_name = _("player settings")
        verbose_name_plural = _("player settings")

    def __str__(self) -> str:
        return gettext("Settings of %(player)s") % {"player": self.user.get_username()}


class GameMute(models.Model):
    """A player asked for no more messages about one game (games.notify)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("player"),
    )
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="mutes", verbose_name=_("game")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("muted game")
        verbose_name_plural = _("muted games")
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="game_mute_unique_user"),
        ]

    def __str__(self) -> str:
        return gettext("No messages to %(player)s about game %(game)s") % {
            "player": self.user.get_username(),
            "game": self.game.public_id,
        }


class PushSubscription(models.Model):
    """A browser's Web Push subscription (its push service's endpoint and the keys that
    encrypt what is sent to it). An endpoint belongs to one browser profile: whoever
    subscribes it last owns it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="push_subscriptions",
        verbose_name=_("player"),
    )
    endpoint = models.URLField(_("push service address"), max_length=1024, unique=True)
    # the browser's P-256 public key (base64url)
    p256dh = models.CharField(_("browser's public key"), max_length=128)
    # its authentication secret (base64url)
    auth = models.CharField(_("authentication secret"), max_length=64)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("browser notification subscription")
        verbose_name_plural = _("browser notification subscriptions")

    def __str__(self) -> str:
        return gettext("Browser notifications of %(player)s") % {"player": self.user.get_username()}


class SentReminder(models.Model):
    """A reminder sent: keyed by (seat, deadline, lead time), so that a deadline that
    moves (a vacation, extra time) gets its reminders again, and a reminder is never
    sent twice for one deadline (the unique constraint is the claim). Old rows are
    deleted by the reminder sweep."""

    seat = models.ForeignKey(
        Seat, on_delete=models.CASCADE, related_name="+", verbose_name=_("seat")
    )
    deadline_at = models.DateTimeField(_("deadline"))
    lead_hours = models.PositiveSmallIntegerField(_("hours before the deadline"))
    sent_at = models.DateTimeField(_("sent at"), auto_now_add=True)

    class Meta:
        verbose_name = _("reminder sent")
        verbose_name_plural = _("reminders sent")
        constraints = [
            models.UniqueConstraint(
                fields=["seat", "deadline_at", "lead_hours"], name="sent_reminder_unique_key"
            ),
        ]
        indexes = [models.Index(fields=["deadline_at"], name="sent_reminder_deadline")]

    def __str__(self) -> str:
        return gettext("Reminder to %(player)s, %(lead)s before the deadline of %(deadline)s") % {
            "player": self.seat.user.get_username(),
            "lead": formats.duration(timedelta(hours=self.lead_hours)),
            "deadline": formats.moment(self.deadline_at),
        }


class AbsentWait(models.Model):
    """docs/rules.md §10 in a live game: the table waiting for the disconnected player to
    move at ``ply``. One row per game and ply (the unique constraint is the claim: a
    lost cache or a second worker can never grant a second wait); written only by
    ``games.play.timeouts`` under the game's row lock.

    ``waiting``: the game waits for the player (``LIVE_ABSENT_WAIT_S``); ``choice``:
    the wait is over, the host may wait longer, continue without the player or end
    the game (the default applies at the game's deadline); ``decided``: done.
    """

    class Stage(models.TextChoices):
        WAITING = "waiting", pgettext_lazy("absent wait", "Waiting for the player")
        CHOICE = "choice", pgettext_lazy("absent wait", "The host chooses")
        DECIDED = "decided", pgettext_lazy("absent wait", "Decided")

    class Choice(models.TextChoices):
        """How the wait ended: the host's choice, or the default at the deadline."""

        WAIT = "wait", pgettext_lazy("absent wait", "Wait longer")
        CONTINUE = "continue", pgettext_lazy("absent wait", "Continue without the player")
        END = "end", pgettext_lazy("absent wait", "End the game")
        DEFAULT = "default", pgettext_lazy("absent wait", "Nobody chose: the default")

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="absent_waits", verbose_name=_("game")
    )
    ply = models.PositiveIntegerField(_("move number"))
    position = models.PositiveSmallIntegerField(_("absent seat"))
    stage = models.CharField(_("stage"), max_length=8, choices=Stage.choices, default=Stage.WAITING)
    # waits granted at this ply
    waits = models.PositiveSmallIntegerField(_("waits granted"), default=1)
    choice = models.CharField(
        _("choice"), max_length=8, choices=Choice.choices, blank=True, default=""
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("wait for an absent player")
        verbose_name_plural = _("waits for absent players")
        constraints = [
            models.UniqueConstraint(fields=["game", "ply"], name="absent_wait_unique_ply"),
        ]

    def __str__(self) -> str:
        return gettext("Wait for seat %(seat)s in game %(game)s at move %(number)s (%(stage)s)") % {
            "seat": formats.number(self.position),
            "game": self.game.public_id,
            "number": formats.number(self.ply),
            "stage": self.get_stage_display(),
        }
