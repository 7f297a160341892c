"""Challenges: one player's offer of a game to another, or to anyone."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.models.play import Game, new_public_id


class Challenge(models.Model):
    """An invitation to a game on stated terms, to a named account (a person, a bot
    account or a built-in bot) or open to anyone. Written only by
    ``games.challenges.services``; accepting it creates and starts the game through
    the commands of ``games.play`` (``game``), with the challenger as host in seat 0."""

    class Status(models.TextChoices):
        PENDING = "pending", pgettext_lazy("challenge status", "Waiting for an answer")
        ACCEPTED = "accepted", pgettext_lazy("challenge status", "Accepted")
        DECLINED = "declined", pgettext_lazy("challenge status", "Declined")
        CANCELLED = "cancelled", pgettext_lazy("challenge status", "Cancelled")

    class DeclineReason(models.TextChoices):
        GENERIC = "generic", _("I am not accepting challenges at the moment.")
        LATER = "later", _("This is not the right time for me, please ask again later.")
        TOO_FAST = "too_fast", _("This time control is too fast for me.")
        TOO_SLOW = "too_slow", _("This time control is too slow for me.")
        TIME_CONTROL = (
            "time_control",
            _("I am not accepting challenges with this time control."),
        )
        RATED = "rated", _("Please send me a rated challenge instead.")
        CASUAL = "casual", _("Please send me a casual challenge instead.")
        RULES = "rules", _("I am not accepting challenges with these rules.")
        NO_BOT = "no_bot", _("I am not accepting challenges from bots.")
        ONLY_BOT = "only_bot", _("I am only accepting challenges from bots.")

    public_id = models.CharField(
        _("public ID"), max_length=16, unique=True, default=new_public_id, editable=False
    )
    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="challenges_sent",
        verbose_name=_("challenger"),
    )
    # Null: an open challenge, which anyone but the challenger may accept.
    destination = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="challenges_received",
        verbose_name=_("challenged player"),
        help_text=_("Empty: an open challenge, which anyone but the challenger may accept."),
    )
    # The terms: what ``games.play.create.game_create`` is called with on acceptance.
    preset = models.CharField(_("rules"), max_length=32)
    overrides = models.JSONField(_("house rules"), default=dict, blank=True)
    # usernames of extra built-in bots
    bots = models.JSONField(_("built-in bots seated too"), default=list, blank=True)
    players = models.PositiveSmallIntegerField(_("players"))
    visibility = models.CharField(
        _("visibility"),
        max_length=10,
        choices=Game.Visibility.choices,
        default=Game.Visibility.PUBLIC,
    )
    time_control = models.CharField(
        _("time control"),
        max_length=16,
        choices=Game.TimeControl.choices,
        default=Game.TimeControl.CORRESPONDENCE,
    )
    seconds_per_turn = models.PositiveIntegerField(_("seconds per turn"), null=True, blank=True)
    days_per_move = models.PositiveSmallIntegerField(_("days per move"), null=True, blank=True)
    time_bank_s = models.PositiveIntegerField(_("time bank, in seconds"), null=True, blank=True)
    rated = models.BooleanField(_("rated"), default=False)

    class CancelReason(models.TextChoices):
        """Why the server cancelled a pending challenge: what happened to one of its
        two accounts (``accounts.lifecycle``). Said to the other one (a banned, deleted
        or closed account reads nothing any more)."""

        BANNED = "banned", _("The other player's account is suspended.")
        DELETED = "deleted", _("The other player deleted their account.")
        CLOSED = "closed", _("The other player's account was closed.")
        # Both sides may read this one: the playbanned account is still open.
        PLAYBAN = (
            "playban",
            _("A player of this challenge may not play rated games for now."),
        )
        # Not every invited account answered before ``expires_at`` (a rematch).
        EXPIRED = "expired", _("Not everyone answered in time.")

    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    decline_reason = models.CharField(
        _("why it was declined"),
        max_length=16,
        choices=DeclineReason.choices,
        blank=True,
        default="",
    )
    # Empty when the challenger cancelled it themselves.
    cancel_reason = models.CharField(
        _("why the site cancelled it"),
        max_length=16,
        choices=CancelReason.choices,
        blank=True,
        default="",
        help_text=_("Empty when the challenger cancelled it."),
    )
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("accepted by"),
    )
    game = models.OneToOneField(
        Game,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="challenge",
        verbose_name=_("game"),
    )
    # The finished game this challenge offers again (``games.challenges.rematch``); one
    # to one: a game is offered again once, whatever the answer.
    rematch_of = models.OneToOneField(
        Game,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rematch",
        verbose_name=_("rematch of"),
    )
    # When a pending challenge ends by itself (``challenges_expire``); null: never (a
    # challenge to one account waits until it is answered or cancelled).
    expires_at = models.DateTimeField(
        _("expires at"), null=True, blank=True, help_text=_("Empty: never.")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")
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
        values = {
            "public_id": self.public_id,
            "challenger": self.challenger.get_username(),
            "status": self.get_status_display(),
        }
        if self.destination is None:
            return gettext("Open challenge %(public_id)s from %(challenger)s (%(status)s)") % values
        return gettext(
            "Challenge %(public_id)s from %(challenger)s to %(destination)s (%(status)s)"
        ) % {**values, "destination": self.destination.get_username()}

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
        PENDING = "pending", pgettext_lazy("invitation answer", "Not answered yet")
        ACCEPTED = "accepted", pgettext_lazy("invitation answer", "Accepted")
        DECLINED = "declined", pgettext_lazy("invitation answer", "Declined")
        # The account was banned, deleted, closed or playbanned while invited.
        UNAVAILABLE = "unavailable", pgettext_lazy("invitation answer", "No longer available")

    challenge = models.ForeignKey(
        Challenge,
        on_delete=models.CASCADE,
        related_name="invitees",
        verbose_name=_("challenge"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="challenge_invitations",
        verbose_name=_("player"),
    )
    # The order the invitees take their seats in (after the challenger and the bots).
    position = models.PositiveSmallIntegerField(
        _("order"), help_text=_("The invited players take their seats in this order.")
    )
    answer = models.CharField(
        _("answer"), max_length=12, choices=Answer.choices, default=Answer.PENDING
    )
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)

    class Meta:
        verbose_name = _("invited player")
        verbose_name_plural = _("invited players")
        ordering = ("position",)
        constraints = [
            models.UniqueConstraint(fields=["challenge", "user"], name="challenge_invitee_once"),
        ]
        indexes = [models.Index(fields=["user", "challenge"], name="challenge_invitee_user")]

    def __str__(self) -> str:
        return gettext("Invitation of %(player)s to challenge %(challenge)s (%(answer)s)") % {
            "player": self.user.get_username(),
            "challenge": self.challenge.public_id,
            "answer": self.get_answer_display(),
        }
