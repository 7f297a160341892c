"""Challenges: one player's offer of a game to another, or to anyone."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy

# Public ids and invite codes: lowercase letters and digits without look-alikes.
from games.models.play import Game, new_public_id


class Challenge(models.Model):
    """An invitation to a game on stated terms, to a named account (a person, a bot
    account or a built-in bot) or open to anyone. Written only by
    ``games.challenges.services``; accepting it creates and starts the game through
    the commands of ``games.play`` (``game``), with the challenger as host in seat 0."""

    class Status(models.TextChoices):
        PENDING = "pending"
        ACCEPTED = "accepted"
        DECLINED = "declined"
        CANCELLED = "cancelled"

    class DeclineReason(models.TextChoices):
        GENERIC = "generic", gettext_lazy("I am not accepting challenges at the moment.")
        LATER = "later", gettext_lazy("This is not the right time for me, please ask again later.")
        TOO_FAST = "too_fast", gettext_lazy("This time control is too fast for me.")
        TOO_SLOW = "too_slow", gettext_lazy("This time control is too slow for me.")
        TIME_CONTROL = (
            "time_control",
            gettext_lazy("I am not accepting challenges with this time control."),
        )
        RATED = "rated", gettext_lazy("Please send me a rated challenge instead.")
        CASUAL = "casual", gettext_lazy("Please send me a casual challenge instead.")
        RULES = "rules", gettext_lazy("I am not accepting challenges with these rules.")
        NO_BOT = "no_bot", gettext_lazy("I am not accepting challenges from bots.")
        ONLY_BOT = "only_bot", gettext_lazy("I am only accepting challenges from bots.")

    public_id = models.CharField(max_length=16, unique=True, default=new_public_id, editable=False)
    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_sent"
    )
    # Null: an open challenge, which anyone but the challenger may accept.
    destination = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="challenges_received",
    )
    # The terms: what ``games.play.create.game_create`` is called with on acceptance.
    preset = models.CharField(max_length=32)
    overrides = models.JSONField(default=dict, blank=True)
    bots = models.JSONField(default=list, blank=True)  # usernames of extra built-in bots
    players = models.PositiveSmallIntegerField()
    visibility = models.CharField(
        max_length=10, choices=Game.Visibility.choices, default=Game.Visibility.PUBLIC
    )
    time_control = models.CharField(
        max_length=16, choices=Game.TimeControl.choices, default=Game.TimeControl.CORRESPONDENCE
    )
    seconds_per_turn = models.PositiveIntegerField(null=True, blank=True)
    days_per_move = models.PositiveSmallIntegerField(null=True, blank=True)
    time_bank_s = models.PositiveIntegerField(null=True, blank=True)
    rated = models.BooleanField(default=False)

    class CancelReason(models.TextChoices):
        """Why the server cancelled a pending challenge: what happened to one of its
        two accounts (``accounts.lifecycle``). Said to the other one (a banned, deleted
        or closed account reads nothing any more)."""

        BANNED = "banned", gettext_lazy("The other player's account is suspended.")
        DELETED = "deleted", gettext_lazy("The other player deleted their account.")
        CLOSED = "closed", gettext_lazy("The other player's account was closed.")
        # Both sides may read this one: the playbanned account is still open.
        PLAYBAN = (
            "playban",
            gettext_lazy("A player of this challenge may not play rated games for now."),
        )
        # Not every invited account answered before ``expires_at`` (a rematch).
        EXPIRED = "expired", gettext_lazy("Not everyone answered in time.")

    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    decline_reason = models.CharField(
        max_length=16, choices=DeclineReason.choices, blank=True, default=""
    )
    # Empty when the challenger cancelled it themselves.
    cancel_reason = models.CharField(
        max_length=16, choices=CancelReason.choices, blank=True, default=""
    )
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    game = models.OneToOneField(
        Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="challenge"
    )
    # The finished game this challenge offers again (``games.challenges.rematch``); one
    # to one: a game is offered again once, whatever the answer.
    rematch_of = models.OneToOneField(
        Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="rematch"
    )
    # When a pending challenge ends by itself (``challenges_expire``); null: never (a
    # challenge to one account waits until it is answered or cancelled).
    expires_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [
            # The expiry sweep: pending challenges with a deadline.
            models.Index(
                fields=["expires_at"],
                name="challenge_pending_expiry",
                condition=Q(status="pending", expires_at__isnull=False),
            ),
            # A user's pending challenges, both ways, newest first (lists, the stream).
            models.Index(
                fields=["destination", "-created_at"],
                name="challenge_pending_to",
                condition=Q(status="pending"),
            ),
            models.Index(
                fields=["challenger", "-created_at"],
                name="challenge_pending_from",
                condition=Q(status="pending"),
            ),
            # The open challenges of the lobby.
            models.Index(
                fields=["-created_at"],
                name="challenge_open",
                condition=Q(status="pending", destination__isnull=True),
            ),
        ]

    def __str__(self) -> str:
        to = self.destination_id or "anyone"
        return f"challenge {self.public_id} from {self.challenger_id} to {to} ({self.status})"

    @property
    def is_open(self) -> bool:
        return self.destination_id is None


class ChallengeInvitee(models.Model):
    """One invited account of a challenge to several accounts (a rematch of a bigger
    table): a person or a bot account, each answering for themselves. The challenge is
    accepted (its game started) when every invitee has accepted; one decline ends it for
    all. A challenge to one account has no rows here (``destination`` answers it), and
    built-in bots are seated without asking (``Challenge.bots``)."""

    class Answer(models.TextChoices):
        PENDING = "pending"
        ACCEPTED = "accepted"
        DECLINED = "declined"
        # The account was banned, deleted, closed or playbanned while invited.
        UNAVAILABLE = "unavailable"

    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE, related_name="invitees")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenge_invitations"
    )
    # The order the invitees take their seats in (after the challenger and the bots).
    position = models.PositiveSmallIntegerField()
    answer = models.CharField(max_length=12, choices=Answer.choices, default=Answer.PENDING)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("position",)
        constraints = [
            models.UniqueConstraint(fields=["challenge", "user"], name="challenge_invitee_once"),
        ]
        indexes = [models.Index(fields=["user", "challenge"], name="challenge_invitee_user")]

    def __str__(self) -> str:
        return f"invitee {self.user_id} of challenge {self.challenge_id} ({self.answer})"
