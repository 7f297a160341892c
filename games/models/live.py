"""Live play and correspondence: a player's settings, muted games, push subscriptions,
sent reminders and the wait for an absent player."""

from __future__ import annotations

from django.conf import settings
from django.db import models

# Public ids and invite codes: lowercase letters and digits without look-alikes.
from games.models.play import Game, Seat

# A player's correspondence settings: the vacation allowance, written by
# games.play.vacation, and what the player is told and how (emails, reminders, Web
# Push, time zone, calendar feed), written by games.notify.


# Hours before a correspondence deadline that a player is reminded, unless they chose.
DEFAULT_REMINDER_HOURS = (24, 2)


def default_reminder_hours() -> list[int]:
    return list(DEFAULT_REMINDER_HOURS)


class PlayerSettings(models.Model):
    class EmailTurns(models.TextChoices):
        EACH_MOVE = "each"
        DAILY = "daily"
        OFF = "off"

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="play_settings"
    )
    email_turns = models.CharField(
        max_length=8, choices=EmailTurns.choices, default=EmailTurns.EACH_MOVE
    )
    # Vacation: days left in the allowance as of ``vacation_accrued_at`` (it grows over
    # time up to a cap), and the end of the vacation being taken, if any.
    vacation_days = models.FloatField(default=14.0)
    vacation_accrued_at = models.DateTimeField(auto_now_add=True)
    vacation_started_at = models.DateTimeField(null=True, blank=True)
    vacation_until = models.DateTimeField(null=True, blank=True)
    last_digest_at = models.DateTimeField(null=True, blank=True)
    # Reminders before a correspondence deadline (an event, and an email), this many
    # hours before it (``reminder_hours``: a list, several allowed).
    reminders = models.BooleanField(default=True)
    reminder_hours = models.JSONField(default=default_reminder_hours)
    # The other emails, each of which its own unsubscribe link turns off.
    email_strikes = models.BooleanField(default=True)
    email_game_over = models.BooleanField(default=True)
    # Web Push, opt-in per kind (the browsers are ``PushSubscription`` rows).
    push_turns = models.BooleanField(default=False)
    push_challenges = models.BooleanField(default=False)
    push_game_over = models.BooleanField(default=False)
    # The IANA zone the messages show times in ("": not chosen yet, UTC).
    time_zone = models.CharField(max_length=64, blank=True, default="")
    # The secret of the private calendar feed's URL, made on first use (NULL: none yet;
    # the unique index skips NULLs).
    calendar_secret = models.CharField(  # noqa: DJ001
        max_length=64, null=True, blank=True, unique=True
    )

    def __str__(self) -> str:
        return f"play settings of {self.user_id}"


class GameMute(models.Model):
    """A player asked for no more messages about one game (games.notify)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="mutes")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="game_mute_unique_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} muted {self.game_id}"


class PushSubscription(models.Model):
    """A browser's Web Push subscription (its push service's endpoint and the keys that
    encrypt what is sent to it). An endpoint belongs to one browser profile: whoever
    subscribes it last owns it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1024, unique=True)
    p256dh = models.CharField(max_length=128)  # the browser's P-256 public key (base64url)
    auth = models.CharField(max_length=64)  # its authentication secret (base64url)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"push subscription {self.pk} of {self.user_id}"


class SentReminder(models.Model):
    """A reminder sent: keyed by (seat, deadline, lead time), so that a deadline that
    moves (a vacation, extra time) gets its reminders again, and a reminder is never
    sent twice for one deadline (the unique constraint is the claim). Old rows are
    deleted by the reminder sweep."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    deadline_at = models.DateTimeField()
    lead_hours = models.PositiveSmallIntegerField()
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["seat", "deadline_at", "lead_hours"], name="sent_reminder_unique_key"
            ),
        ]
        indexes = [models.Index(fields=["deadline_at"], name="sent_reminder_deadline")]

    def __str__(self) -> str:
        return f"reminder {self.lead_hours} h before {self.deadline_at} to seat {self.seat_id}"


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
        WAITING = "waiting"
        CHOICE = "choice"
        DECIDED = "decided"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="absent_waits")
    ply = models.PositiveIntegerField()
    position = models.PositiveSmallIntegerField()  # the absent seat
    stage = models.CharField(max_length=8, choices=Stage.choices, default=Stage.WAITING)
    waits = models.PositiveSmallIntegerField(default=1)  # waits granted at this ply
    # How it ended: "wait"/"continue"/"end" by the host, or "default".
    choice = models.CharField(max_length=8, blank=True, default="")
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "ply"], name="absent_wait_unique_ply"),
        ]

    def __str__(self) -> str:
        return f"absent seat {self.position} of {self.game_id} at ply {self.ply} ({self.stage})"
