"""What players and moderators do: report an account; ban, mute, mark and lift; close
a report. Each moderator action writes its modlog row in its own transaction
(``modlog_record``), with the moderator's mandatory reason.

A moderator acts neither on their own account nor, unless a superuser, on a staff
account, and nobody sanctions a built-in bot (``sanction_allowed``: the server plays
it, and a ban would forfeit every person's game against it). A ban without an end is
given only when chosen as permanent. What a ban or a mute does to everything else the
account holds (challenges, lobby seats, running games, feeds, websockets) is the
account's lifecycle (``accounts.lifecycle``), run once the sanction commits.
"""

from __future__ import annotations

from datetime import datetime
from functools import partial

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts import lifecycle
from accounts.models import (
    REPORT_TEXT_MAX_LENGTH,
    FairPlayMark,
    ModAction,
    Profile,
    Report,
    Sanction,
    is_builtin_bot,
)
from accounts.moderation.errors import Conflict, InvalidRequest, NotAllowed, NotFound
from accounts.moderation.modlog import modlog_record, reason_clean
from accounts.moderation.outcome_mail import report_outcome_mail
from accounts.moderation.selectors import in_force, report_open_exists
from games.models import ChatMessage, Game, Seat


def sanction_allowed(target: User) -> bool:
    """Whether any moderator may sanction ``target``: never a built-in bot (a ban would
    forfeit every person's game against it)."""
    return not is_builtin_bot(target)


def target_check(*, moderator: User, user: User) -> None:
    """Refuse a moderator's action on their own account, on a built-in bot, or on staff
    unless a superuser."""
    sanction_target_check(user=user)
    if moderator.pk == user.pk:
        raise NotAllowed(_("a moderator does not act on their own account"), code="own_account")
    if (user.is_staff or user.is_superuser) and not moderator.is_superuser:
        raise NotAllowed(_("only a superuser may act on a staff account"), code="staff_account")


def sanction_target_check(*, user: User) -> None:
    """Refuse a sanction of a built-in bot, by anyone: the server plays it, so a ban
    would forfeit every person's game against it and a mute would silence nobody."""
    if not sanction_allowed(user):
        raise NotAllowed(
            _("a built-in bot cannot be banned, muted or playbanned: the server plays it"),
            code="builtin_bot",
        )


# ------------------------------------------------------------------ reports


def report_create(
    *,
    reporter: User,
    reported: User,
    reason: str,
    text: str = "",
    game: Game | None = None,
    chat_message: ChatMessage | None = None,
) -> Report:
    """A player reports an account: from a line of chat (its author), from a game (a
    player of it) or from the profile (neither). The interface has checked that the
    reporter may see the game; the same report while it is open is refused."""
    if reporter.pk == reported.pk:
        raise InvalidRequest(_("you cannot report yourself"), code="report_self")
    if reason not in Report.Reason.values:
        raise InvalidRequest(
            _("reason is one of %(value)s") % {"value": ", ".join(Report.Reason.values)},
            code="report_reason",
        )
    text = (text or "").strip()
    if len(text) > REPORT_TEXT_MAX_LENGTH:
        raise InvalidRequest(
            ngettext(
                "a report's text is at most %(report_text_max_length)s character",
                "a report's text is at most %(report_text_max_length)s characters",
                REPORT_TEXT_MAX_LENGTH,
            )
            % {"report_text_max_length": REPORT_TEXT_MAX_LENGTH},
            code="report_too_long",
        )
    if chat_message is not None:
        if chat_message.user_id != reported.pk:
            raise InvalidRequest(_("that line was written by someone else"), code="report_author")
        if game is not None and game.pk != chat_message.game_id:
            raise InvalidRequest(_("that line is from another game"), code="report_game")
        game = chat_message.game
    elif game is not None and not Seat.objects.filter(game=game, user=reported).exists():
        raise InvalidRequest(
            _("%(reported)s does not play in that game") % {"reported": reported},
            code="report_not_seated",
        )
    with transaction.atomic():
        # One reporter's reports are made one at a time: the same report sent twice at
        # once (a double tap, two devices) would pass the check below twice.
        Profile.objects.select_for_update().filter(user=reporter).first()
        if report_open_exists(
            reporter=reporter, reported=reported, game=game, chat_message=chat_message
        ):
            raise Conflict(
                _("you have reported this already; a moderator will look at it"),
                code="already_reported",
            )
        return Report.objects.create(
            reporter=reporter,
            reported=reported,
            reason=reason,
            text=text,
            game=game,
            chat_message=chat_message,
        )


# What sanctions an account: a report closed after one of these is "action taken".
SANCTIONING_ACTIONS = (
    ModAction.Action.BAN,
    ModAction.Action.PLAYBAN,
    ModAction.Action.MUTE,
    ModAction.Action.WARN,
    ModAction.Action.MARK,
    ModAction.Action.REVERT,
)


def _sanctioned_since(report: Report) -> bool:
    return ModAction.objects.filter(
        target_id=report.reported_id,
        action__in=SANCTIONING_ACTIONS,
        moderator__isnull=False,  # not the site's own playbans
        created_at__gte=report.created_at,
    ).exists()


@transaction.atomic
def report_close(*, report: Report, moderator: User, outcome: str, reason: str) -> Report:
    """Close an open report: ``resolved`` (action taken) or ``dismissed`` (no action).
    A report about an account sanctioned since it was made is closed as action taken
    whatever was asked (closing the others after a ban)."""
    if outcome not in (Report.Status.RESOLVED, Report.Status.DISMISSED):
        raise InvalidRequest(_("a report is resolved or dismissed"), code="report_outcome")
    reason = reason_clean(reason)
    locked = Report.objects.select_for_update().get(pk=report.pk)
    if locked.status != Report.Status.OPEN:
        raise Conflict(
            _("report #%(pk)s is closed already (%(status)s)")
            % {"pk": locked.pk, "status": locked.get_status_display()},
            code="report_closed",
        )
    if outcome == Report.Status.DISMISSED and _sanctioned_since(locked):
        outcome = Report.Status.RESOLVED
    locked.status = outcome
    locked.resolved_at = timezone.now()
    locked.resolved_by = moderator
    locked.resolution = reason
    locked.save(update_fields=["status", "resolved_at", "resolved_by", "resolution"])
    action = (
        ModAction.Action.RESOLVE_REPORT
        if outcome == Report.Status.RESOLVED
        else ModAction.Action.DISMISS_REPORT
    )
    modlog_record(
        moderator=moderator,
        action=action,
        reason=reason,
        target=locked.reported,
        game=locked.game,
        report=locked,
    )
    transaction.on_commit(partial(report_outcome_mail, report_id=locked.pk))
    return locked


# ------------------------------------------------------------------ bans, mutes, playbans


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _sanction_create(
    *,
    user: User,
    moderator: User,
    kind: str,
    action: str,
    reason: str,
    ends_at: datetime | None,
    report: Report | None,
    preset: str = "",
    game: Game | None = None,
) -> Sanction:
    """A new sanction of ``kind`` in force from now; it replaces the one in force (a
    shorter ban made longer, a permanent one made temporary). The modlog row links the
    report it came from and the game (given at a table, else the report's)."""
    target_check(moderator=moderator, user=user)
    sanction_target_check(user=user)
    reason = reason_clean(reason)
    preset_check(preset)
    now = timezone.now()
    if ends_at is not None and ends_at <= now:
        raise InvalidRequest(_("a sanction ends in the future"), code="ends_in_the_past")
    if kind != Sanction.Kind.WARNING:
        _lift_in_force(
            user=user, kind=kind, by=moderator, reason="replaced by a newer one", now=now
        )
    sanction = Sanction.objects.create(
        user=user,
        kind=kind,
        reason=reason,
        preset=preset,
        created_by=moderator,
        created_at=now,
        ends_at=ends_at,
    )
    modlog_record(
        moderator=moderator,
        action=action,
        reason=reason,
        target=user,
        game=_game_of(game, report),
        report=report,
        details={"sanction": sanction.pk, "until": _iso(ends_at)},
    )
    return sanction


def _game_of(game: Game | None, report: Report | None) -> Game | None:
    """The game a modlog row links: the one the moderator acted from, else the report's."""
    if game is not None:
        return game
    return None if report is None else report.game


def preset_check(preset: str) -> None:
    if preset and preset not in Sanction.Preset.values:
        raise InvalidRequest(
            _("a preset reason is one of %(value)s") % {"value": ", ".join(Sanction.Preset.values)},
            code="preset",
        )


def _lift_in_force(*, user: User, kind: str, by: User, reason: str, now: datetime) -> int:
    return (
        Sanction.objects.filter(user=user, kind=kind)
        .filter(in_force(now))
        .update(lifted_at=now, lifted_by=by, lift_reason=reason)
    )


def _sanction_lift(*, user: User, moderator: User, kind: str, action: str, reason: str) -> int:
    target_check(moderator=moderator, user=user)
    reason = reason_clean(reason)
    lifted = _lift_in_force(user=user, kind=kind, by=moderator, reason=reason, now=timezone.now())
    if not lifted:
        raise Conflict(
            _("%(user)s has no %(kind)s in force") % {"user": user, "kind": kind}, code=f"no_{kind}"
        )
    modlog_record(moderator=moderator, action=action, reason=reason, target=user)
    return lifted


@transaction.atomic
def ban_create(
    *,
    user: User,
    moderator: User,
    reason: str,
    ends_at: datetime | None = None,
    permanent: bool = False,
    report: Report | None = None,
    preset: str = "",
    game: Game | None = None,
) -> Sanction:
    """Ban ``user`` until ``ends_at``, or for good when ``permanent`` is chosen (a ban
    without an end that was not chosen so is refused). From the commit on, their
    sessions, API tokens and websocket handshakes are refused (the checks read the ban
    in force), and the account's lifecycle runs for the ban: challenges both ways
    cancelled, lobby seats given up, running games forfeited, feeds and push
    subscriptions gone, websockets closed. ``sanction.enforced`` holds what each
    handler did once the commit has happened (at once when called outside a
    transaction)."""
    sanction_target_check(user=user)  # a bot is refused as a bot, whatever the length
    if ends_at is None and not permanent:
        raise InvalidRequest(
            _("give the ban a length, or choose a permanent ban"), code="duration_required"
        )
    if ends_at is not None and permanent:
        raise InvalidRequest(
            _("a permanent ban has no end: give a length or permanent, not both"),
            code="duration_and_permanent",
        )
    sanction = _sanction_create(
        user=user,
        moderator=moderator,
        kind=Sanction.Kind.BAN,
        action=ModAction.Action.BAN,
        reason=reason,
        ends_at=ends_at,
        report=report,
        preset=preset,
        game=game,
    )
    sanction.enforced = lifecycle.account_changed_on_commit(  # type: ignore[attr-defined]
        user=user, change=lifecycle.Change.BAN
    )
    return sanction


@transaction.atomic
def ban_lift(*, user: User, moderator: User, reason: str) -> int:
    """Unban: the account's sessions (after a new login) and tokens work again."""
    return _sanction_lift(
        user=user,
        moderator=moderator,
        kind=Sanction.Kind.BAN,
        action=ModAction.Action.UNBAN,
        reason=reason,
    )


@transaction.atomic
def mute_create(
    *,
    user: User,
    moderator: User,
    reason: str,
    ends_at: datetime,
    report: Report | None = None,
    preset: str = "",
    game: Game | None = None,
) -> Sanction:
    """Mute ``user`` in every table chat until ``ends_at`` (over the API and the
    websocket alike: ``games.play.chat`` refuses their lines)."""
    if ends_at is None:
        raise InvalidRequest(_("a mute has an end"), code="ends_at_required")
    sanction = _sanction_create(
        user=user,
        moderator=moderator,
        kind=Sanction.Kind.MUTE,
        action=ModAction.Action.MUTE,
        reason=reason,
        ends_at=ends_at,
        report=report,
        preset=preset,
        game=game,
    )
    lifecycle.account_changed_on_commit(user=user, change=lifecycle.Change.MUTE)
    return sanction


@transaction.atomic
def warning_create(
    *,
    user: User,
    moderator: User,
    reason: str,
    report: Report | None = None,
    preset: str = "",
    game: Game | None = None,
) -> Sanction:
    """Warn ``user``: their next page shows the warning (its preset reason in their
    language, and the moderator's words) until they acknowledge it."""
    return _sanction_create(
        user=user,
        moderator=moderator,
        kind=Sanction.Kind.WARNING,
        action=ModAction.Action.WARN,
        reason=reason,
        ends_at=None,
        report=report,
        preset=preset,
        game=game,
    )


@transaction.atomic
def warning_acknowledge(*, user: User, pk: int) -> Sanction:
    """The player has read their warning ``pk``."""
    warning = (
        Sanction.objects.select_for_update()
        .filter(pk=pk, user=user, kind=Sanction.Kind.WARNING)
        .first()
    )
    if warning is None:
        raise NotFound(_("no such warning"), code="not_found")
    if warning.acknowledged_at is None:
        warning.acknowledged_at = timezone.now()
        warning.save(update_fields=["acknowledged_at"])
    return warning


@transaction.atomic
def note_create(
    *,
    user: User,
    moderator: User,
    text: str,
    report: Report | None = None,
    game: Game | None = None,
) -> ModAction:
    """A moderator's note on the account's record (the modlog keeps it; the player
    never sees it)."""
    if moderator.pk == user.pk:
        raise NotAllowed(_("a moderator does not act on their own account"), code="own_account")
    return modlog_record(
        moderator=moderator,
        action=ModAction.Action.NOTE,
        reason=text,
        target=user,
        game=_game_of(game, report),
        report=report,
    )


@transaction.atomic
def mute_lift(*, user: User, moderator: User, reason: str) -> int:
    return _sanction_lift(
        user=user,
        moderator=moderator,
        kind=Sanction.Kind.MUTE,
        action=ModAction.Action.UNMUTE,
        reason=reason,
    )


@transaction.atomic
def playban_create(
    *,
    user: User,
    moderator: User,
    reason: str,
    ends_at: datetime,
    report: Report | None = None,
    preset: str = "",
    game: Game | None = None,
) -> Sanction:
    """A moderator's playban: no rated game until ``ends_at`` (besides the site's own
    for abandoning rated games)."""
    if ends_at is None:
        raise InvalidRequest(_("a playban has an end"), code="ends_at_required")
    sanction = _sanction_create(
        user=user,
        moderator=moderator,
        kind=Sanction.Kind.PLAYBAN,
        action=ModAction.Action.PLAYBAN,
        reason=reason,
        ends_at=ends_at,
        report=report,
        preset=preset,
        game=game,
    )
    # As a playban for abandoned games does (accounts.moderation.playbans): rated
    # challenges cancelled, rated lobby seats given up.
    lifecycle.account_changed_on_commit(user=user, change=lifecycle.Change.PLAYBAN)
    return sanction


@transaction.atomic
def playban_lift(*, user: User, moderator: User, reason: str) -> int:
    """Lift a playban early (the abandonments stay on the record)."""
    return _sanction_lift(
        user=user,
        moderator=moderator,
        kind=Sanction.Kind.PLAYBAN,
        action=ModAction.Action.LIFT_PLAYBAN,
        reason=reason,
    )


# ------------------------------------------------------------------ fair-play marks


@transaction.atomic
def mark_create(
    *, user: User, moderator: User, kind: str, reason: str, report: Report | None = None
) -> FairPlayMark:
    """Mark ``user`` as cheating or boosting: the account leaves the leaderboards while
    the mark stands. Taking back its rated results is a separate action
    (``games.play.moderation.results_revert``)."""
    target_check(moderator=moderator, user=user)
    if kind not in FairPlayMark.Kind.values:
        raise InvalidRequest(
            _("a mark is one of %(value)s") % {"value": ", ".join(FairPlayMark.Kind.values)},
            code="mark_kind",
        )
    reason = reason_clean(reason)
    standing = FairPlayMark.objects.filter(user=user, kind=kind, removed_at__isnull=True)
    already = Conflict(
        _("%(user)s is marked for %(kind)s already") % {"user": user, "kind": kind},
        code="already_marked",
    )
    if standing.exists():
        raise already
    try:
        # A savepoint: another moderator's mark of a moment ago passed the same check,
        # and the partial unique index (one standing mark a kind) refuses this one.
        with transaction.atomic():
            mark = FairPlayMark.objects.create(
                user=user, kind=kind, reason=reason, created_by=moderator
            )
    except IntegrityError:
        if not standing.exists():
            raise
        raise already from None
    modlog_record(
        moderator=moderator,
        action=ModAction.Action.MARK,
        reason=reason,
        target=user,
        game=None if report is None else report.game,
        report=report,
        details={"kind": kind},
    )
    return mark


@transaction.atomic
def mark_remove(*, user: User, moderator: User, kind: str, reason: str) -> FairPlayMark:
    target_check(moderator=moderator, user=user)
    reason = reason_clean(reason)
    mark = (
        FairPlayMark.objects.select_for_update()
        .filter(user=user, kind=kind, removed_at__isnull=True)
        .first()
    )
    if mark is None:
        raise Conflict(
            _("%(user)s is not marked for %(kind)s") % {"user": user, "kind": kind},
            code="not_marked",
        )
    mark.removed_at = timezone.now()
    mark.removed_by = moderator
    mark.remove_reason = reason
    mark.save(update_fields=["removed_at", "removed_by", "remove_reason"])
    modlog_record(
        moderator=moderator,
        action=ModAction.Action.UNMARK,
        reason=reason,
        target=user,
        details={"kind": kind},
    )
    return mark
