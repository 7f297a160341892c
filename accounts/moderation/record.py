"""Reads of the moderation pages: an account's record, the report queue grouped by
account, a ban's preview, a player's warnings to read, and a report's outcome as its
reporter sees it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db.models import Count, Min, Q, QuerySet
from django.utils import timezone

from accounts.models import Appeal, FairPlayMark, ModAction, Report, Sanction
from accounts.moderation.selectors import in_force, suspicious_pairs
from games.models import Challenge, Game, Seat

# The record's suspicious pairs look at this many days of rated games (the admin's
# pairs page starts from the same).
PAIRS_DAYS = 90

# A moderator's claim on an account's reports lapses after this long (a moderator who
# walked away does not block the queue).
CLAIM_MINUTES = 30


def claim_fresh(now: datetime) -> Q:
    """Reports claimed recently enough that the claim still holds."""
    return Q(claimed_by__isnull=False, claimed_at__gt=now - timedelta(minutes=CLAIM_MINUTES))


def warnings_unread(*, user_id: int) -> QuerySet[Sanction]:
    """The user's warnings not yet acknowledged, oldest first."""
    return Sanction.objects.filter(
        user_id=user_id,
        kind=Sanction.Kind.WARNING,
        acknowledged_at__isnull=True,
        lifted_at__isnull=True,
    ).order_by("created_at", "id")


@dataclass(frozen=True)
class PairOnRecord:
    """A suspicious pair seen from one of its accounts: the other account, their rated
    games together, how many each finished ahead, and the share of the games of the
    one who played fewer that were against the other."""

    other: User
    games: int
    ahead: int  # games the account finished ahead of the other
    behind: int
    share: float

    @property
    def lopsided(self) -> float:
        """The share of their games the same one of the two finished ahead in."""
        return max(self.ahead, self.behind) / self.games


def pairs_of(user: User, *, days: int = PAIRS_DAYS) -> list[PairOnRecord]:
    """The suspicious pairs (``selectors.suspicious_pairs``, its thresholds) ``user``
    is in, most games first."""
    since = timezone.now() - timedelta(days=days)
    found = []
    for pair in suspicious_pairs(since=since, user=user):
        first = pair.first.pk == user.pk
        found.append(
            PairOnRecord(
                other=pair.second if first else pair.first,
                games=pair.games,
                ahead=pair.first_ahead if first else pair.second_ahead,
                behind=pair.second_ahead if first else pair.first_ahead,
                share=pair.share,
            )
        )
    return found


@dataclass
class AccountRecord:
    """What a moderator reads on a player's page."""

    user: User
    reports: list[Report]
    sanctions: list[Sanction]
    marks: list[FairPlayMark]
    notes: list[ModAction]
    games: list[Game]
    in_force: dict[str, Sanction] = field(default_factory=dict)
    marked: list[str] = field(default_factory=list)
    pairs: list[PairOnRecord] = field(default_factory=list)


def account_record(user: User, *, history: int = 20) -> AccountRecord:
    """The account's reports (newest first, with the modlog rows each led to), its
    sanctions, marks and notes, its recent games, the suspicious pairs it is in, and
    what is in force now."""
    now = timezone.now()
    sanctions = list(Sanction.objects.filter(user=user).select_related("created_by")[:history])
    in_force_now: dict[str, Sanction] = {}
    for sanction in Sanction.objects.filter(user=user).filter(in_force(now)):
        if sanction.kind != Sanction.Kind.WARNING:
            in_force_now.setdefault(sanction.kind, sanction)
    marks = list(FairPlayMark.objects.filter(user=user).select_related("created_by")[:history])
    return AccountRecord(
        user=user,
        reports=list(
            Report.objects.filter(reported=user)
            .select_related("reporter", "game")
            .prefetch_related("mod_actions")[:history]
        ),
        sanctions=sanctions,
        marks=marks,
        notes=list(
            ModAction.objects.filter(target=user, action=ModAction.Action.NOTE).select_related(
                "moderator"
            )[:history]
        ),
        games=list(Game.objects.filter(seats__user=user).order_by("-created_at")[:history]),
        in_force=in_force_now,
        marked=[mark.kind for mark in marks if mark.removed_at is None],
        pairs=pairs_of(user),
    )


@dataclass(frozen=True)
class QueueEntry:
    """An account's open reports in the queue."""

    user: User
    count: int
    oldest: datetime
    reasons: list[str]
    claimed_by: User | None


def report_queue(*, limit: int = 100) -> list[QueueEntry]:
    """Open reports grouped by the account reported, the longest waiting first."""
    now = timezone.now()
    groups = list(
        Report.objects.filter(status=Report.Status.OPEN)
        .values("reported_id")
        .annotate(count=Count("id"), oldest=Min("created_at"))
        .order_by("oldest", "reported_id")[:limit]
    )
    ids = [group["reported_id"] for group in groups]
    users = User.objects.in_bulk(ids)
    reasons: dict[int, set[str]] = {}
    claims: dict[int, User | None] = {}
    open_reports = Report.objects.filter(status=Report.Status.OPEN, reported_id__in=ids)
    for report in open_reports.select_related("claimed_by"):
        reasons.setdefault(report.reported_id, set()).add(report.get_reason_display())
        if report.claimed_by is not None and report.claimed_at and _holds(report, now):
            claims[report.reported_id] = report.claimed_by
    return [
        QueueEntry(
            user=users[group["reported_id"]],
            count=group["count"],
            oldest=group["oldest"],
            reasons=sorted(reasons.get(group["reported_id"], set())),
            claimed_by=claims.get(group["reported_id"]),
        )
        for group in groups
    ]


def _holds(report: Report, now: datetime) -> bool:
    assert report.claimed_at is not None
    return report.claimed_at > now - timedelta(minutes=CLAIM_MINUTES)


def open_reports_of(*, user: User) -> QuerySet[Report]:
    """The account's open reports, oldest first."""
    return (
        Report.objects.filter(reported=user, status=Report.Status.OPEN)
        .select_related("reporter", "game", "chat_message", "claimed_by")
        .order_by("created_at", "id")
    )


@dataclass(frozen=True)
class BanPreview:
    """What a ban of the account does to play: the games ``ban_enforce`` forfeits, the
    lobby seats it gives up, and the challenges cancelled with the account."""

    forfeited: list[Game]
    left: list[Game]
    challenges: list[Challenge]


def ban_preview(user: User) -> BanPreview:
    running = (
        Seat.objects.filter(user=user, game__status=Game.Status.ACTIVE)
        .exclude(status=Seat.Status.OUT)
        .select_related("game")
        .order_by("game__created_at")
    )
    lobby = Seat.objects.filter(user=user, game__status=Game.Status.LOBBY).select_related("game")
    challenges = (
        Challenge.objects.filter(status=Challenge.Status.PENDING)
        .filter(Q(challenger=user) | Q(destination=user))
        .select_related("challenger", "destination")
        .order_by("created_at")
    )
    return BanPreview(
        forfeited=[seat.game for seat in running],
        left=[seat.game for seat in lobby.order_by("game__created_at")],
        challenges=list(challenges),
    )


def report_outcome(report: Report) -> str | None:
    """What the reporter learns: ``action_taken``, ``no_action``, or None while open
    (never what the sanction was)."""
    if report.status == Report.Status.RESOLVED:
        return "action_taken"
    if report.status == Report.Status.DISMISSED:
        return "no_action"
    return None


def appeals_open() -> QuerySet[Appeal]:
    """Appeals waiting for an answer, the oldest first."""
    return Appeal.objects.filter(status=Appeal.Status.OPEN).select_related(
        "sanction__user", "sanction__created_by"
    )


def sanctions_told(*, user: User, history: int = 20) -> list[Sanction]:
    """What the player is told of: their sanctions given by a moderator, newest first,
    each with its appeal (if any)."""
    return list(
        Sanction.objects.filter(user=user, created_by__isnull=False)
        .select_related("appeal")
        .order_by("-created_at", "-id")[:history]
    )


def appeal_of(sanction: Sanction) -> Appeal | None:
    return Appeal.objects.filter(sanction=sanction).first()
