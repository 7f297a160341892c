"""Reads of moderation: what is in force for an account, what a moderator needs to
judge a report, and the pairs of accounts that play each other suspiciously."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Now
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from accounts.models import FairPlayMark, RatingChange, Report, Sanction
from games.models import ChatMessage
from remi_site import formats

# ------------------------------------------------------------------ sanctions in force


def in_force(now: datetime) -> Q:
    """Sanctions in force at ``now``: not lifted, not ended."""
    return Q(lifted_at__isnull=True) & (Q(ends_at__isnull=True) | Q(ends_at__gt=now))


def sanction_in_force(*, user_id: int, kind: str, now: datetime | None = None) -> Sanction | None:
    """The user's sanction of ``kind`` in force, the one that ends last (a permanent
    one first); None when there is none."""
    return (
        Sanction.objects.filter(user_id=user_id, kind=kind)
        .filter(in_force(now or timezone.now()))
        .order_by(F("ends_at").desc(nulls_first=True), "-id")
        .first()
    )


def ban_in_force(*, user_id: int, now: datetime | None = None) -> Sanction | None:
    return sanction_in_force(user_id=user_id, kind=Sanction.Kind.BAN, now=now)


def mute_in_force(*, user_id: int, now: datetime | None = None) -> Sanction | None:
    return sanction_in_force(user_id=user_id, kind=Sanction.Kind.MUTE, now=now)


def playban_in_force(*, user_id: int, now: datetime | None = None) -> Sanction | None:
    return sanction_in_force(user_id=user_id, kind=Sanction.Kind.PLAYBAN, now=now)


def ban_in_force_subquery(user_field: str = "user_id") -> Subquery:
    """The id of a ban in force for the user of the outer query's ``user_field`` (None:
    not banned), so that a query which reads a user anyway (an API token's) learns it
    in the same trip to the database. The time is the database's."""
    bans = (
        Sanction.objects.filter(
            user_id=OuterRef(user_field),
            kind=Sanction.Kind.BAN,
            lifted_at__isnull=True,
        )
        .filter(Q(ends_at__isnull=True) | Q(ends_at__gt=Now()))
        .order_by()
        .values("pk")[:1]
    )
    return Subquery(bans)


def sanction_get(pk: int) -> Sanction:
    return Sanction.objects.get(pk=pk)


def sanction_entry(sanction: Sanction) -> dict[str, Any]:
    """A sanction as its player reads it (the API, the banned page)."""
    return {
        "kind": sanction.kind,
        "reason": sanction.reason,
        "since": sanction.created_at,
        "until": sanction.ends_at,
    }


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat().replace("+00:00", "Z")


def sanction_details(sanction: Sanction) -> dict[str, Any]:
    """``sanction_entry`` as JSON (an error's ``details``)."""
    return {
        "kind": sanction.kind,
        "reason": sanction.reason,
        "since": _iso(sanction.created_at),
        "until": _iso(sanction.ends_at),
    }


def _when(moment: datetime) -> str:
    """When a sanction ends, in the reader's language and zone, the zone named."""
    return f"{formats.moment(moment, 'long')} ({formats.zone_name()})"


def sanction_message(sanction: Sanction) -> str:
    """What the sanctioned player is told: what, until when, and why."""
    until = {"when": _when(sanction.ends_at)} if sanction.ends_at is not None else None
    if sanction.kind == Sanction.Kind.BAN:
        lead = (
            gettext("This account is banned until %(when)s") % until
            if until
            else gettext("This account is banned for good")
        )
    elif sanction.kind == Sanction.Kind.MUTE:
        lead = (
            gettext("You are muted in chat until %(when)s") % until
            if until
            else gettext("You are muted in chat")
        )
    else:
        lead = (
            gettext("You may not start or join a rated game until %(when)s") % until
            if until
            else gettext("You may not start or join a rated game")
        )
    return gettext("%(what)s: %(reason)s") % {"what": lead, "reason": sanction.reason}


def ban_outcome(ban: Sanction) -> str:
    """What the moderator who banned reads: until when, and what the ban's lifecycle did
    on its commit (``accounts.lifecycle``: running games forfeited, lobby seats given
    up), a whole sentence for each."""
    if ban.ends_at is None:
        lead = gettext("%(user)s is banned for good.") % {"user": ban.user}
    else:
        lead = gettext("%(user)s is banned until %(until)s (%(zone)s).") % {
            "user": ban.user,
            "until": formats.moment(ban.ends_at),
            "zone": formats.zone_name(),
        }
    games = getattr(ban, "enforced", {}).get("games") or {}
    forfeited, left = len(games.get("forfeited", [])), len(games.get("left", []))
    games_done = ngettext(
        "%(count)s running game forfeited.", "%(count)s running games forfeited.", forfeited
    ) % {"count": formats.number(forfeited)}
    seats_done = ngettext(
        "%(count)s lobby seat given up.", "%(count)s lobby seats given up.", left
    ) % {"count": formats.number(left)}
    return f"{lead} {games_done} {seats_done}"


def sanctions_of(*, user: User) -> dict[str, dict[str, Any] | None]:
    """What limits the user now: their chat mute and their playban (a banned account
    reads nothing)."""
    now = timezone.now()
    mute = mute_in_force(user_id=user.pk, now=now)
    playban = playban_in_force(user_id=user.pk, now=now)
    return {
        "mute": None if mute is None else sanction_entry(mute),
        "playban": None if playban is None else sanction_entry(playban),
    }


# ------------------------------------------------------------------ fair play


def marked_user_ids() -> QuerySet[FairPlayMark, Any]:
    """The users with a standing fair-play mark, as a subquery of user ids."""
    return FairPlayMark.objects.filter(removed_at__isnull=True).values("user_id")


def marks_standing(*, user: User) -> QuerySet[FairPlayMark]:
    return FairPlayMark.objects.filter(user=user, removed_at__isnull=True)


# ------------------------------------------------------------------ reports


def reports_by(*, reporter: User) -> QuerySet[Report]:
    """The reports a player made, newest first (they see what became of them)."""
    return Report.objects.filter(reporter=reporter).select_related("reported", "game")


def report_open_exists(
    *, reporter: User, reported: User, game: Any = None, chat_message: Any = None
) -> bool:
    """Whether the same report (same reporter, account, game and line) is still open."""
    return Report.objects.filter(
        reporter=reporter,
        reported=reported,
        game=game,
        chat_message=chat_message,
        status=Report.Status.OPEN,
    ).exists()


CHAT_CONTEXT_LINES = 6


def chat_around(message: ChatMessage, *, lines: int = CHAT_CONTEXT_LINES) -> list[ChatMessage]:
    """The reported line with the ``lines`` before and after it in its game's chat,
    oldest first, hidden lines included (moderators judge them too)."""
    table = ChatMessage.objects.filter(game_id=message.game_id).select_related("user")
    before = list(table.filter(id__lt=message.pk).order_by("-id")[:lines])
    after = list(table.filter(id__gt=message.pk).order_by("id")[:lines])
    return [*reversed(before), message, *after]


@dataclass(frozen=True)
class ReportContext:
    """What a moderator reads beside a report."""

    chat: list[ChatMessage]
    earlier_reports: list[Report]
    sanctions: list[Sanction]
    marks: list[FairPlayMark]


def report_context(report: Report, *, history: int = 20) -> ReportContext:
    """The chat around the reported line, and the reported account's earlier reports
    (by anyone), sanctions and fair-play marks, newest first."""
    chat = [] if report.chat_message is None else chat_around(report.chat_message)
    earlier = (
        Report.objects.filter(reported_id=report.reported_id, created_at__lte=report.created_at)
        .exclude(pk=report.pk)
        .select_related("reporter")[:history]
    )
    sanctions = Sanction.objects.filter(user_id=report.reported_id).select_related("created_by")
    marks = FairPlayMark.objects.filter(user_id=report.reported_id).select_related("created_by")
    return ReportContext(
        chat=chat,
        earlier_reports=list(earlier),
        sanctions=list(sanctions[:history]),
        marks=list(marks[:history]),
    )


# ------------------------------------------------------------------ suspicious pairs


@dataclass(frozen=True)
class SuspiciousPair:
    """Two accounts and their rated games against each other since a date."""

    first: User
    second: User
    games: int  # rated games together
    first_ahead: int  # games the first finished ahead of the second
    second_ahead: int
    share: float  # of the two players' rated games, the share played together (the lower)

    @property
    def lopsided(self) -> float:
        """The share of their games won by the same one of the two."""
        return max(self.first_ahead, self.second_ahead) / self.games


def suspicious_pairs(
    *,
    since: datetime,
    min_games: int = 5,
    min_share: float = 0.5,
    min_lopsided: float = 0.8,
    limit: int = 100,
    user: User | None = None,
) -> list[SuspiciousPair]:
    """Pairs of accounts that play each other unusually often (at least ``min_games``
    rated games together since ``since``, and at least ``min_share`` of the rated
    games of one of them) with lopsided results (one finished ahead in at least
    ``min_lopsided`` of them): the pattern of boosting. Most games first. With
    ``user``, only the pairs that account is in."""
    both = Q(created_at__gte=since, reverted=False, game__rating_changes__user_id__gt=F("user_id"))
    if user is not None:
        # Only the account's own games (read by its index), then the pairs it is in.
        theirs = RatingChange.objects.filter(user_id=user.pk, created_at__gte=since, reverted=False)
        both &= Q(game_id__in=theirs.values("game_id"))
        both &= Q(user_id=user.pk) | Q(game__rating_changes__user_id=user.pk)
    together = (
        # One filter() call: a second would join the other player's changes again.
        RatingChange.objects.filter(both)
        .values("user_id", "game__rating_changes__user_id")
        .annotate(
            games=Count("game_id"),
            first_ahead=Count("game_id", filter=Q(rank__lt=F("game__rating_changes__rank"))),
            second_ahead=Count("game_id", filter=Q(rank__gt=F("game__rating_changes__rank"))),
        )
        .filter(games__gte=min_games)
        .order_by("-games", "user_id")
    )
    rows = [
        (row["user_id"], row["game__rating_changes__user_id"], row)
        for row in together[: limit * 10]
    ]
    ids = {user_id for first, second, _ in rows for user_id in (first, second)}
    totals = dict(
        RatingChange.objects.filter(created_at__gte=since, reverted=False, user_id__in=ids)
        .values("user_id")
        .annotate(total=Count("id"))
        .values_list("user_id", "total")
    )
    users = User.objects.in_bulk(ids)
    pairs = []
    for first, second, row in rows:
        share = row["games"] / max(1, min(totals.get(first, 0), totals.get(second, 0)))
        pair = SuspiciousPair(
            first=users[first],
            second=users[second],
            games=row["games"],
            first_ahead=row["first_ahead"],
            second_ahead=row["second_ahead"],
            share=share,
        )
        if pair.share >= min_share and pair.lopsided >= min_lopsided:
            pairs.append(pair)
    return pairs[:limit]
