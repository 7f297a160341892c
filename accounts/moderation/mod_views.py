"""The moderators' pages on the site: the report queue (open reports grouped by
account, claimed by one moderator at a time) and a player's page (their record and
the actions, each with preset reasons and free text; a ban is confirmed on a page of
its own that lists what it will end). The actions are the services the admin uses."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy
from django.views.decorators.http import require_POST

from accounts.models import Appeal, Report, Sanction
from accounts.moderation import appeals, at_table, queue, record, roles, selectors, services
from accounts.moderation.errors import ModerationError
from accounts.moderation.forms import (
    AppealDecideForm,
    BanForm,
    CloseReportsForm,
    MarkForm,
    MuteForm,
    NoteForm,
    PlaybanForm,
    ReasonForm,
    UnmarkForm,
    WarnForm,
)
from games.errors import GameError
from games.play import moderation as game_moderation
from remi_site import formats

Refused = (ModerationError, GameError)


@dataclass(frozen=True)
class Action:
    """A moderator action on a player's page: its name (in the URL), label,
    permission, form, whether it sanctions (and so may close the account's reports),
    and when it is shown."""

    name: str
    label: str | Promise
    permission: str
    form: type[forms.Form]
    sanctions: bool = False
    shown: Callable[[record.AccountRecord], bool] = lambda found: True


def _in_force(kind: str) -> Callable[[record.AccountRecord], bool]:
    return lambda found: kind in found.in_force


ACTIONS = (
    Action("warn", gettext_lazy("Warn"), roles.MUTE, WarnForm, sanctions=True),
    Action("mute", gettext_lazy("Mute in chat"), roles.MUTE, MuteForm, sanctions=True),
    Action("playban", gettext_lazy("Playban"), roles.BAN, PlaybanForm, sanctions=True),
    Action("ban", gettext_lazy("Ban"), roles.BAN, BanForm, sanctions=True),
    Action("mark", gettext_lazy("Fair-play mark"), roles.MARK, MarkForm, sanctions=True),
    Action("note", gettext_lazy("Note"), roles.RESOLVE_REPORT, NoteForm),
    Action("unban", gettext_lazy("Unban"), roles.BAN, ReasonForm, shown=_in_force("ban")),
    Action(
        "unmute",
        pgettext_lazy("moderator action", "Unmute"),
        roles.MUTE,
        ReasonForm,
        shown=_in_force("mute"),
    ),
    Action(
        "lift_playban",
        gettext_lazy("Lift the playban"),
        roles.LIFT_PLAYBAN,
        ReasonForm,
        shown=_in_force("playban"),
    ),
    Action(
        "unmark",
        gettext_lazy("Remove a fair-play mark"),
        roles.MARK,
        UnmarkForm,
        shown=lambda found: bool(found.marked),
    ),
)
BY_NAME = {action.name: action for action in ACTIONS}


def _moderator(request: HttpRequest) -> User:
    """The signed-in moderator: one who may work reports (else 403)."""
    user = request.user
    if not isinstance(user, User) or not user.has_perm(roles.RESOLVE_REPORT):
        raise PermissionDenied
    return user


def _player(username: str) -> User:
    found = User.objects.filter(username__iexact=username).select_related("profile").first()
    if found is None:
        raise Http404(_("No such player."))
    return found


def _may_act(moderator: User, user: User) -> bool:
    try:
        services.target_check(moderator=moderator, user=user)
    except ModerationError:
        return False
    return True


def _page_url(user: User) -> str:
    return reverse("moderation:player", args=[user.username])


# ------------------------------------------------------------------ the queue


@login_required
def report_queue(request: HttpRequest) -> HttpResponse:
    _moderator(request)
    context = {"entries": record.report_queue(), "appeals": list(record.appeals_open())}
    return render(request, "moderation/queue.html", context)


@login_required
@require_POST
def reports_claim(request: HttpRequest, username: str) -> HttpResponse:
    moderator, user = _moderator(request), _player(username)
    try:
        queue.reports_claim(reported=user, moderator=moderator)
    except ModerationError as error:
        messages.error(request, formats.sentence(error.message))
        return HttpResponseRedirect(reverse("moderation:queue"))
    return HttpResponseRedirect(_page_url(user))


@login_required
@require_POST
def reports_close(request: HttpRequest, username: str) -> HttpResponse:
    moderator, user = _moderator(request), _player(username)
    form = CloseReportsForm(request.POST, prefix="close")
    if form.is_valid():
        try:
            closed = queue.reports_close_all(
                reported=user,
                moderator=moderator,
                outcome=form.cleaned_data["outcome"],
                reason=form.cleaned_data["reason"],
            )
        except ModerationError as error:
            form.add_error(None, formats.sentence(error.message))
        else:
            messages.success(
                request,
                ngettext("%(count)s report closed.", "%(count)s reports closed.", closed)
                % {"count": closed},
            )
            return HttpResponseRedirect(reverse("moderation:queue"))
    return _player_page(request, moderator, user, failed=("close", form), status=400)


# ------------------------------------------------------------------ a player's page


@login_required
def player(request: HttpRequest, username: str) -> HttpResponse:
    user = _player(username)
    origin = at_table.origin_of(request.GET, user=user)
    return _player_page(request, _moderator(request), user, origin=origin)


def _player_page(
    request: HttpRequest,
    moderator: User,
    user: User,
    *,
    failed: tuple[str, forms.Form] | None = None,
    status: int = 200,
    origin: at_table.Origin = at_table.NO_ORIGIN,
) -> HttpResponse:
    found = record.account_record(user)
    allowed = _may_act(moderator, user)
    actions = [
        (
            action,
            failed[1] if failed and failed[0] == action.name else action.form(prefix=action.name),
        )
        for action in ACTIONS
        if moderator.has_perm(action.permission)
        and action.shown(found)
        and (allowed or action.name == "note")
    ]
    open_reports = list(record.open_reports_of(user=user))
    user_appeals = [a for a in record.appeals_open() if a.sanction.user_id == user.pk]
    held = any(report.claimed_by_id == moderator.pk for report in open_reports)
    close_form = failed[1] if failed and failed[0] == "close" else CloseReportsForm(prefix="close")
    context = {
        "target": user,
        "record": found,
        "actions": actions,
        "open_reports": open_reports,
        "held": held,
        "close_form": close_form,
        "sanctions_allowed": allowed,
        "origin": origin,
        "appeals": [
            (found_appeal, _form_of_appeal(found_appeal, failed))
            for found_appeal in user_appeals
            if allowed and moderator.has_perm(APPEAL_PERMISSION[found_appeal.sanction.kind])
        ],
    }
    return render(request, "moderation/player.html", context, status=status)


def _form_of(action: Action, failed: tuple[str, forms.Form] | None) -> forms.Form:
    """The action's form: the one just refused, with its errors, or an empty one."""
    if failed is not None and failed[0] == action.name:
        return failed[1]
    return action.form(prefix=action.name)


@login_required
@require_POST
def act(request: HttpRequest, username: str, action: str) -> HttpResponse:
    moderator, user = _moderator(request), _player(username)
    found = BY_NAME.get(action)
    if found is None:
        raise Http404(_("No such action."))
    if not moderator.has_perm(found.permission):
        raise PermissionDenied
    # Coming from a table (or a report's line there): the game and report the modlog
    # row links.
    origin = at_table.origin_of(request.POST, user=user)
    form = found.form(request.POST, prefix=found.name)
    if not form.is_valid():
        return _player_page(
            request, moderator, user, failed=(found.name, form), status=400, origin=origin
        )
    if found.name == "ban" and "confirm" not in request.POST:
        return _ban_confirm(request, user, form)
    reports = found.sanctions and request.POST.get("reports") == "on"
    try:
        done = _perform(found.name, moderator, user, form, reports=reports, origin=origin)
    except Refused as error:
        form.add_error(None, formats.sentence(error.message))
        return _player_page(
            request,
            moderator,
            user,
            failed=(found.name, form),
            status=getattr(error, "status", 400),
            origin=origin,
        )
    messages.success(request, done)
    return HttpResponseRedirect(_page_url(user))


def _ban_confirm(request: HttpRequest, user: User, form: forms.Form) -> HttpResponse:
    """What the ban will end, before it is given: the form's data goes back with
    ``confirm``."""
    carried = [
        (key, value)
        for key, values in request.POST.lists()
        for value in values
        if key not in ("csrfmiddlewaretoken", "confirm")
    ]
    context = {
        "target": user,
        "form": form,
        "carried": carried,
        "preview": record.ban_preview(user),
    }
    return render(request, "moderation/ban_confirm.html", context)


def _perform(
    name: str,
    moderator: User,
    user: User,
    form: forms.Form,
    *,
    reports: bool,
    origin: at_table.Origin = at_table.NO_ORIGIN,
) -> str:
    """Do the action, linked to the game and report it was taken from; with
    ``reports``, link it to that report (else the account's oldest open one) and close
    them all as action taken (the moderator must hold them)."""
    data: dict[str, Any] = form.cleaned_data
    report: Report | None = origin.report
    if reports:
        queue.claim_check(reported=user, moderator=moderator)
        report = report or record.open_reports_of(user=user).first()
    data["game"] = origin.game
    done = _PERFORM[name](moderator, user, form, data, report)
    if reports and report is not None:
        closed = queue.reports_close_all(
            reported=user,
            moderator=moderator,
            outcome=Report.Status.RESOLVED,
            reason=data["reason"],
        )
        done += " " + ngettext(
            "%(count)s report closed: action taken.",
            "%(count)s reports closed: action taken.",
            closed,
        ) % {"count": closed}
    return done


def _warn(moderator: User, user: User, form: Any, data: dict[str, Any], report: Any) -> str:
    services.warning_create(
        user=user,
        moderator=moderator,
        reason=data["reason"],
        preset=data["preset"],
        report=report,
        game=data["game"],
    )
    return _("%(user)s is warned; they will read it at their next page.") % {"user": user}


def _until(create: Callable[..., Sanction], said: Promise) -> Callable[..., str]:
    """A sanction that always ends (a mute, a playban), and what the moderator reads."""

    def act(moderator: User, user: User, form: Any, data: dict[str, Any], report: Any) -> str:
        sanction = create(
            user=user,
            moderator=moderator,
            reason=data["reason"],
            preset=data["preset"],
            ends_at=form.ends_at(),
            report=report,
            game=data["game"],
        )
        assert sanction.ends_at is not None  # the services refuse one without an end
        return str(said) % {
            "zone": formats.zone_name(),
            "user": user,
            "until": formats.moment(sanction.ends_at),
        }

    return act


_mute = _until(
    services.mute_create,
    gettext_lazy("%(user)s is muted in chat until %(until)s (%(zone)s)."),
)
_playban = _until(
    services.playban_create,
    gettext_lazy("%(user)s may not play rated games until %(until)s (%(zone)s)."),
)


def _ban(moderator: User, user: User, form: Any, data: dict[str, Any], report: Any) -> str:
    ban = services.ban_create(
        user=user,
        moderator=moderator,
        reason=data["reason"],
        preset=data["preset"],
        ends_at=form.ends_at(),
        permanent=data["permanent"],
        report=report,
        game=data["game"],
    )
    return selectors.ban_outcome(ban)


def _mark(moderator: User, user: User, form: Any, data: dict[str, Any], report: Any) -> str:
    services.mark_create(
        user=user, moderator=moderator, kind=data["kind"], reason=data["reason"], report=report
    )
    if data["revert"]:
        game_moderation.results_revert(user=user, moderator=moderator, reason=data["reason"])
    return _("%(user)s is marked and left the leaderboards.") % {"user": user}


def _note(moderator: User, user: User, form: Any, data: dict[str, Any], report: Any) -> str:
    services.note_create(
        user=user, moderator=moderator, text=data["text"], report=report, game=data["game"]
    )
    return _("Note added.")


def _lift(lift: Callable[..., Any]) -> Callable[..., str]:
    def perform(moderator: User, user: User, form: Any, data: dict[str, Any], report: Any) -> str:
        lift(user=user, moderator=moderator, reason=data["reason"])
        return _("Lifted.")

    return perform


def _unmark(moderator: User, user: User, form: Any, data: dict[str, Any], report: Any) -> str:
    services.mark_remove(user=user, moderator=moderator, kind=data["kind"], reason=data["reason"])
    return _("Mark removed.")


_PERFORM: dict[str, Callable[..., str]] = {
    "warn": _warn,
    "mute": _mute,
    "playban": _playban,
    "ban": _ban,
    "mark": _mark,
    "note": _note,
    "unban": _lift(services.ban_lift),
    "unmute": _lift(services.mute_lift),
    "lift_playban": _lift(services.playban_lift),
    "unmark": _unmark,
}


# The permission that answers an appeal: the one that lifts that kind of sanction.
APPEAL_PERMISSION: dict[str, str] = {
    Sanction.Kind.BAN: roles.BAN,
    Sanction.Kind.MUTE: roles.MUTE,
    Sanction.Kind.WARNING: roles.MUTE,
    Sanction.Kind.PLAYBAN: roles.LIFT_PLAYBAN,
}


def _form_of_appeal(appeal: Appeal, failed: tuple[str, forms.Form] | None) -> forms.Form:
    prefix = f"appeal-{appeal.pk}"
    if failed is not None and failed[0] == prefix:
        return failed[1]
    return AppealDecideForm(prefix=prefix)


@login_required
@require_POST
def appeal_decide(request: HttpRequest, pk: int) -> HttpResponse:
    moderator = _moderator(request)
    found = Appeal.objects.select_related("sanction__user").filter(pk=pk).first()
    if found is None:
        raise Http404(_("No such appeal."))
    if not moderator.has_perm(APPEAL_PERMISSION[found.sanction.kind]):
        raise PermissionDenied
    user = found.sanction.user
    prefix = f"appeal-{found.pk}"
    form = AppealDecideForm(request.POST, prefix=prefix)
    status = 400
    if form.is_valid():
        try:
            appeals.appeal_decide(
                appeal=found,
                moderator=moderator,
                grant=form.cleaned_data["decision"] == "grant",
                answer=form.cleaned_data["answer"],
            )
        except ModerationError as error:
            form.add_error(None, formats.sentence(error.message))
            status = error.status
        else:
            messages.success(request, _("The appeal is answered."))
            return HttpResponseRedirect(_page_url(user))
    return _player_page(request, moderator, user, failed=(prefix, form), status=status)
