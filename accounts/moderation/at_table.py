"""A moderator at a table: which seats they may act on (people, never a built-in bot,
never themselves nor, unless a superuser, staff: ``services.target_check``) and where
each action leads (the player's moderation page, its form opened, with the game and
the report they came from), and that origin read back from a page's address or a
form so that the modlog row links the game and the report.

Only moderators (the ``moderator`` group's powers, or a superuser) get any of it:
``table_moderation`` answers None for everyone else, so the table draws no control."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlencode

from django.contrib.auth.models import AnonymousUser, User
from django.http import Http404
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import Report
from accounts.moderation import roles, services
from accounts.moderation.errors import ModerationError
from games.models import Game, Seat
from remi_site.whole_numbers import whole_number


@dataclass(frozen=True)
class Origin:
    """Where a moderator's action was taken from: a game, and a report about the
    account (with its game)."""

    game: Game | None = None
    report: Report | None = None
    action: str = ""  # the form to open on the player's page

    def query(self) -> str:
        params = {"game": self.game.public_id if self.game else "", "report": self.report_id}
        return urlencode({key: value for key, value in params.items() if value})

    @property
    def report_id(self) -> str:
        return str(self.report.pk) if self.report else ""


NO_ORIGIN = Origin()


def origin_of(params: Mapping[str, str], *, user: User) -> Origin:
    """The game (``game``: its public id) and the report (``report``: about ``user``)
    named by a page's address or a form; 404 for one that does not exist."""
    game_id = (params.get("game") or "").strip()[:16]
    report_id = (params.get("report") or "").strip()
    report = None
    if report_id:
        number = whole_number(report_id)
        if number is None:
            raise Http404(_("No such report."))
        report = Report.objects.select_related("game").filter(pk=number, reported=user).first()
        if report is None:
            raise Http404(_("No such report."))
    game = None
    if game_id:
        game = Game.objects.filter(public_id=game_id).first()
        if game is None:
            raise Http404(_("No such game."))
    elif report is not None:
        game = report.game
    action = (params.get("action") or "").strip()[:16]
    return Origin(game=game, report=report, action=action)


def is_moderator(user: User | AnonymousUser) -> bool:
    """Whether the viewer moderates (the group's powers, or a superuser); checked on
    every request, so a moderator who loses the group or is banned loses it at once."""
    return bool(user.is_authenticated and user.has_perm(roles.RESOLVE_REPORT))


@dataclass(frozen=True)
class SeatAction:
    name: str
    label: str | Promise
    url: str


@dataclass(frozen=True)
class SeatEntry:
    position: int
    user: User
    actions: list[SeatAction]


@dataclass(frozen=True)
class TableModeration:
    seats: list[SeatEntry]
    report: Report | None
    may_hide: bool


# The actions offered for a seat, as on the player's page (its labels and powers).
SEAT_ACTIONS = (
    ("warn", gettext_lazy("Warn"), roles.MUTE),
    ("mute", gettext_lazy("Mute in chat"), roles.MUTE),
    ("ban", gettext_lazy("Ban"), roles.BAN),
    ("playban", gettext_lazy("Playban"), roles.BAN),
    ("note", gettext_lazy("Note"), roles.RESOLVE_REPORT),
)


def _may_act(moderator: User, person: User) -> bool:
    try:
        services.target_check(moderator=moderator, user=person)
    except ModerationError:
        return False
    return True


def table_moderation(
    *, viewer: User | AnonymousUser, game: Game, report_id: str = ""
) -> TableModeration | None:
    """What a moderator's table shows: each seat's actions and whether lines may be
    hidden; None for anyone who does not moderate. ``report_id`` is the report the
    moderator came from (ignored unless it is about this game)."""
    if not is_moderator(viewer):
        return None
    assert isinstance(viewer, User)
    report = None
    number = whole_number(report_id)
    if number is not None:
        report = Report.objects.filter(pk=number, game=game).first()
    seats = Seat.objects.filter(game=game, user__isnull=False).select_related("user__profile")
    entries = []
    for seat in seats.order_by("position"):
        person = seat.user
        if person is None or not _may_act(viewer, person):
            continue
        theirs = report if report is not None and report.reported_id == person.pk else None
        origin = Origin(game=game, report=theirs)
        page = reverse("moderation:player", args=[person.username])
        actions = [
            SeatAction(name, label, f"{page}?{origin.query()}&action={name}#action-{name}")
            for name, label, permission in SEAT_ACTIONS
            if viewer.has_perm(permission)
        ]
        entries.append(SeatEntry(position=seat.position, user=person, actions=actions))
    return TableModeration(seats=entries, report=report, may_hide=viewer.has_perm(roles.HIDE_CHAT))
