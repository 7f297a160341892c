"""Moderation's records: reports, sanctions and their appeals, abandoned games,
fair-play marks and the modlog (``accounts.models`` lists them with the others)."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from remi_site import formats

# ------------------------------------------------------------------ moderation
# Written only by ``accounts.moderation`` (services, playbans and the modlog); what a
# sanction does to play (forfeits, refusals) is ``games.play.sanctions`` and
# ``games.play.moderation``.

REPORT_TEXT_MAX_LENGTH = 2000
MODERATION_REASON_MAX_LENGTH = 1000


class Report(models.Model):
    """A player's report about an account: from a game, a line of its chat, or the
    account's profile (neither game nor line). Moderators work the open ones as a
    queue and close each with their reason: resolved (action taken) or dismissed."""

    class Reason(models.TextChoices):
        CHEATING = "cheating", _("Cheating or collusion")
        ABUSE = "abuse", _("Abusive chat")
        STALLING = "stalling", _("Stalling")
        NAME = "name", _("Offensive name")
        OTHER = "other", _("Other")

    class Status(models.TextChoices):
        # In context: the site's catalogue says "Open" as a verb ("Open the game").
        OPEN = "open", pgettext_lazy("report status", "Open")
        # A report closed after the account was sanctioned is never "no action".
        RESOLVED = "resolved", _("Action taken")
        DISMISSED = "dismissed", _("No action")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="reports_made",
        verbose_name=_("reporter"),
    )
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="reports_received",
        verbose_name=_("reported account"),
    )
    reason = models.CharField(_("reason"), max_length=16, choices=Reason.choices)
    text = models.TextField(_("text"), max_length=REPORT_TEXT_MAX_LENGTH, blank=True)
    game = models.ForeignKey(
        "games.Game",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="reports",
        verbose_name=_("game"),
    )
    chat_message = models.ForeignKey(
        "games.ChatMessage",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="reports",
        verbose_name=_("chat line"),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    # Set when the report is closed, resolved or dismissed alike.
    resolved_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("closed by"),
    )
    resolution = models.TextField(
        _("resolution"),
        max_length=MODERATION_REASON_MAX_LENGTH,
        blank=True,
        help_text=_("The moderator's reason."),
    )
    # The moderator working the account's open reports (the queue's claim), and since
    # when: another moderator may take them over once the claim is old.
    claimed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("taken by"),
    )
    claimed_at = models.DateTimeField(_("taken at"), null=True, blank=True)

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["status", "-created_at"], name="report_status_created"),
            models.Index(fields=["reported", "-created_at"], name="report_reported_created"),
            models.Index(fields=["reporter", "-created_at"], name="report_reporter_created"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(status="open", resolved_at__isnull=True)
                | (~Q(status="open") & Q(resolved_at__isnull=False)),
                name="report_resolved_when_closed",
            ),
        ]

    def __str__(self) -> str:
        return gettext("Report #%(id)s about %(account)s (%(reason)s; %(status)s)") % {
            "id": self.pk,
            "account": self.reported,
            "reason": self.get_reason_display(),
            "status": self.get_status_display(),
        }

    @property
    def source(self) -> str:
        """Where the report was made from: ``chat``, ``game`` or ``profile``."""
        if self.chat_message_id is not None:
            return "chat"
        return "game" if self.game_id is not None else "profile"


class Sanction(models.Model):
    """A ban (no session, token or websocket; running games forfeited), a chat mute, or
    a playban (no rated game: the site's own, for abandoning rated games), until
    ``ends_at`` (a ban may be permanent) or until a moderator lifts it."""

    class Kind(models.TextChoices):
        # In context: the site's catalogue says "Ban" as a verb (the moderator's button).
        BAN = "ban", pgettext_lazy("sanction", "Ban")
        MUTE = "mute", _("Chat mute")
        PLAYBAN = "playban", _("Playban (rated games)")
        # In force until the player acknowledges it (no end of its own).
        WARNING = "warning", _("Warning")

    class Preset(models.TextChoices):
        """The reasons a moderator picks from: the player reads them in their language."""

        ABUSE = "abuse", _("Abusive or insulting chat")
        SPAM = "spam", _("Spamming the chat")
        STALLING = "stalling", _("Stalling games")
        NAME = "name", _("Offensive name or profile")
        CHEATING = "cheating", _("Cheating or collusion")
        BOOSTING = "boosting", _("Boosting ratings")
        OTHER = "other", _("Another breach of the rules")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="sanctions",
        verbose_name=_("account"),
    )
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    reason = models.TextField(_("reason"), max_length=MODERATION_REASON_MAX_LENGTH)
    preset = models.CharField(_("preset reason"), max_length=10, choices=Preset.choices, blank=True)
    # None: the site itself (a playban).
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("moderator"),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    ends_at = models.DateTimeField(
        _("ends at"), null=True, blank=True, help_text=_("Empty: permanent.")
    )
    lifted_at = models.DateTimeField(_("lifted at"), null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("lifted by"),
    )
    lift_reason = models.TextField(
        _("reason for lifting"), max_length=MODERATION_REASON_MAX_LENGTH, blank=True
    )
    # A warning is read and acknowledged by its player.
    acknowledged_at = models.DateTimeField(_("acknowledged at"), null=True, blank=True)

    class Meta:
        verbose_name = _("sanction")
        verbose_name_plural = _("sanctions")
        ordering = ["-created_at", "-id"]
        indexes = [
            # Every request of a session and every API token looks for an active ban.
            models.Index(
                fields=["user", "kind"],
                name="sanction_unlifted",
                condition=Q(lifted_at__isnull=True),
            ),
            models.Index(fields=["user", "-created_at"], name="sanction_user_created"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=["ban", "warning"]) | Q(ends_at__isnull=False),
                name="sanction_only_bans_and_warnings_have_no_end",
            ),
            models.CheckConstraint(condition=~Q(reason=""), name="sanction_reason_required"),
        ]

    def __str__(self) -> str:
        return gettext("%(kind)s: %(account)s") % {
            "kind": self.get_kind_display(),
            "account": self.user,
        }

    def is_active(self, now: datetime) -> bool:
        return self.lifted_at is None and (self.ends_at is None or self.ends_at > now)


APPEAL_TEXT_MAX_LENGTH = 2000


class Appeal(models.Model):
    """A sanctioned player's one appeal against one sanction, and its answer: granted
    (the sanction is lifted) or denied, with the moderator's words."""

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for a moderator")
        GRANTED = "granted", _("Granted")
        DENIED = "denied", _("Denied")

    sanction = models.OneToOneField(
        Sanction, on_delete=models.PROTECT, related_name="appeal", verbose_name=_("sanction")
    )
    text = models.TextField(_("text"), max_length=APPEAL_TEXT_MAX_LENGTH)
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.OPEN
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    decided_at = models.DateTimeField(_("answered at"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("answered by"),
    )
    answer = models.TextField(_("answer"), max_length=MODERATION_REASON_MAX_LENGTH, blank=True)

    class Meta:
        verbose_name = _("appeal")
        verbose_name_plural = _("appeals")
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["status", "created_at"], name="appeal_status_created")]
        constraints = [
            models.CheckConstraint(condition=~Q(text=""), name="appeal_text_required"),
        ]

    def __str__(self) -> str:
        return gettext("Appeal against %(sanction)s (%(status)s)") % {
            "sanction": self.sanction,
            "status": self.get_status_display(),
        }


class Abandonment(models.Model):
    """A rated game the player left for good: put out for timeouts or absence. The
    record a playban escalates from (``accounts.moderation.playbans``)."""

    class Reason(models.TextChoices):
        """Why the seat was put out (the seat's own words)."""

        TIMEOUT = "timeout", _("Timeouts")
        ABSENT = "absent", _("Absence")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="abandonments",
        verbose_name=_("player"),
    )
    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, related_name="+", verbose_name=_("game")
    )
    reason = models.CharField(_("reason"), max_length=16, choices=Reason.choices)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("abandoned game")
        verbose_name_plural = _("abandoned games")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="abandonment_unique_game"),
        ]
        indexes = [models.Index(fields=["user", "-created_at"], name="abandonment_user_created")]

    def __str__(self) -> str:
        return gettext("%(player)s left game %(game)s (%(reason)s)") % {
            "player": self.user,
            "game": self.game.public_id,
            "reason": self.get_reason_display(),
        }


class FairPlayMark(models.Model):
    """A moderator's finding that an account cheats or boosts (trades rating points
    with another account): it leaves the leaderboards while the mark stands."""

    class Kind(models.TextChoices):
        CHEATING = "cheating", _("Cheating")
        BOOSTING = "boosting", _("Boosting")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="fair_play_marks",
        verbose_name=_("account"),
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    reason = models.TextField(_("reason"), max_length=MODERATION_REASON_MAX_LENGTH)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("moderator"),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    removed_at = models.DateTimeField(_("removed at"), null=True, blank=True)
    removed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("removed by"),
    )
    remove_reason = models.TextField(
        _("reason for removal"), max_length=MODERATION_REASON_MAX_LENGTH, blank=True
    )

    class Meta:
        verbose_name = _("fair-play mark")
        verbose_name_plural = _("fair-play marks")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "kind"],
                condition=Q(removed_at__isnull=True),
                name="fair_play_mark_one_standing",
            ),
            models.CheckConstraint(condition=~Q(reason=""), name="fair_play_mark_reason_required"),
        ]

    def __str__(self) -> str:
        return gettext("Fair-play mark of %(account)s: %(kind)s") % {
            "account": self.user,
            "kind": self.get_kind_display(),
        }


class ModAction(models.Model):
    """The modlog: one row per moderator action (who, whom, when, why), and the
    playbans the site gives by itself (no moderator).

    Append-only: the admin grants no change or delete (there are no such permissions),
    and the database refuses both (a trigger of migration 0004, on PostgreSQL and
    SQLite). Every foreign key protects its row for the same reason.
    """

    class Action(models.TextChoices):
        ABORT = "abort", _("Abort a game")
        ADJUDICATE = "adjudicate", _("Adjudicate a game")
        BAN = "ban", _("Ban")
        UNBAN = "unban", _("Unban")
        MUTE = "mute", _("Mute")
        # In context: the site's catalogue says "Unmute" of the table's sounds.
        UNMUTE = "unmute", pgettext_lazy("moderator action", "Unmute")
        PLAYBAN = "playban", _("Playban (automatic)")
        LIFT_PLAYBAN = "lift_playban", _("Lift a playban")
        HIDE_CHAT = "hide_chat", _("Hide a chat line")
        SHOW_CHAT = "show_chat", _("Show a hidden chat line again")
        MARK = "mark", _("Fair-play mark")
        UNMARK = "unmark", _("Remove a fair-play mark")
        REVERT = "revert", _("Revert rated results")
        WARN = "warn", _("Warning")
        GRANT_APPEAL = "grant_appeal", _("Grant an appeal")
        DENY_APPEAL = "deny_appeal", _("Deny an appeal")
        NOTE = "note", _("Note")
        RESOLVE_REPORT = "resolve_report", _("Close a report: action taken")
        DISMISS_REPORT = "dismiss_report", _("Close a report: no action")
        LOOK_HIDDEN = "look_hidden", _("Look at hidden cards")

    # None: the site itself (an automatic playban).
    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="mod_actions_taken",
        verbose_name=_("moderator"),
    )
    action = models.CharField(_("action"), max_length=16, choices=Action.choices)
    target = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="mod_actions_received",
        verbose_name=_("account"),
    )
    game = models.ForeignKey(
        "games.Game",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("game"),
    )
    report = models.ForeignKey(
        Report,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="mod_actions",
        verbose_name=_("report"),
    )
    reason = models.TextField(_("reason"), max_length=MODERATION_REASON_MAX_LENGTH)
    details = models.JSONField(_("details"), default=dict, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("modlog entry")
        verbose_name_plural = _("modlog entries")
        ordering = ["-created_at", "-id"]
        # Only "view": no permission to add, change or delete a row exists to be granted.
        default_permissions = ("view",)
        # The moderators' powers (accounts.moderation.roles gives them to the group),
        # marked for the admin's labels (accounts/admin/permissions.py).
        permissions = [
            ("ban_account", gettext_noop("Can ban and unban accounts")),
            ("mute_account", gettext_noop("Can mute and unmute accounts in chat")),
            ("lift_playban", gettext_noop("Can lift a playban")),
            (
                "mark_account",
                gettext_noop("Can mark accounts for fair play and revert their results"),
            ),
            ("resolve_report", gettext_noop("Can resolve and dismiss reports")),
        ]
        indexes = [
            models.Index(fields=["target", "-created_at"], name="mod_action_target_created"),
            models.Index(fields=["moderator", "-created_at"], name="mod_action_moderator_created"),
            models.Index(fields=["-created_at"], name="mod_action_created"),
        ]
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="mod_action_reason_required"),
        ]

    def __str__(self) -> str:
        return gettext("%(moderator)s: %(action)s (%(when)s)") % {
            "moderator": self.moderator or gettext("the site"),
            "action": self.get_action_display(),
            "when": formats.moment(self.created_at),
        }
