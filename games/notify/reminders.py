"""Reminders before correspondence deadlines, at the lead times each player chose
(``PlayerSettings.reminder_hours``: 24 h, 8 h, 2 h before, several allowed).

A reminder is keyed by (seat, deadline, lead time) (``SentReminder``, whose unique
constraint is the claim): none is sent twice, whatever the cache or a second worker
does. A deadline that moves (a vacation, extra time) gets a reminder again only when it
moved by at least the reminder's lead: the one sent before still told the truth
otherwise (a 20-second vacation is no news).
The sweep (``reminders_send``, every few minutes from beat) looks only at the turns
whose deadline is within the longest lead time anyone chose. Lead times as long as
the whole move (a 24 h reminder in a one-day game) are skipped: the "your turn"
message says it. Several lead times due at once (a deadline moved close) send one
reminder.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from datetime import datetime, timedelta
from itertools import islice

from django.db import IntegrityError, transaction
from django.db.models import F

from games import clock
from games.live import publisher
from games.models import DEFAULT_REMINDER_HOURS, Game, PlayerSettings, Seat, SentReminder
from games.notify import wording
from games.notify.messages import email_send, recipient_locale
from games.notify.preferences import is_muted, preferences_of, reminder_hours_of
from games.notify.tokens import Kind

_CHUNK = 500
# Sent reminders are kept this long past their deadline (then nothing can match them).
_KEEP = timedelta(days=1)


def reminders_send(now: datetime) -> int:
    """Send every reminder due at ``now``; returns how many players were reminded."""
    SentReminder.objects.filter(deadline_at__lt=now - _KEEP).delete()
    seats = (
        Seat.objects.filter(
            game__status=Game.Status.ACTIVE,
            game__time_control=Game.TimeControl.CORRESPONDENCE,
            game__deadline_at__gt=now,
            game__deadline_at__lte=now + timedelta(hours=_longest_lead()),
            position=F("game__to_move"),
            user__profile__is_bot=False,
        )
        .select_related("game", "user__profile", "user__play_settings")
        .order_by("pk")
    )
    reminded = 0
    for chunk in _chunks(seats.iterator(chunk_size=_CHUNK), _CHUNK):
        due = {seat: leads for seat in chunk if (leads := due_leads(seat, now))}
        sent = _sent_deadlines(due)
        for seat, leads in due.items():
            deadline = seat.game.deadline_at
            assert deadline is not None  # due_leads: a deadline
            new = [lead for lead in leads if not _reminded(sent, seat, deadline, lead)]
            if new and _claim(seat, new):
                _remind(seat, now)
                reminded += 1
    return reminded


def due_leads(seat: Seat, now: datetime) -> list[int]:
    """The seat's lead times (hours) that are due at ``now`` for its game's deadline."""
    game = seat.game
    prefs = preferences_of(seat.user)
    period = clock.move_period(game)
    if not prefs.reminders or game.deadline_at is None or period is None:
        return []
    return sorted(
        hours
        for hours in reminder_hours_of(prefs)
        if timedelta(hours=hours) < period and game.deadline_at - timedelta(hours=hours) <= now
    )


def _longest_lead() -> int:
    """The longest lead time (hours) of any player with reminders on."""
    chosen = (
        PlayerSettings.objects.filter(reminders=True)
        .values_list("reminder_hours", flat=True)
        .distinct()
    )
    hours = [
        h for values in chosen for h in reminder_hours_of(PlayerSettings(reminder_hours=values))
    ]
    return max([*DEFAULT_REMINDER_HOURS, *hours])


def _chunks(rows: Iterator[Seat], size: int) -> Iterator[list[Seat]]:
    while chunk := list(islice(rows, size)):
        yield chunk


def _sent_deadlines(due: dict[Seat, list[int]]) -> dict[tuple[int, int], list[datetime]]:
    """The deadlines reminded already, by (seat, lead), among the seats of ``due``."""
    sent: dict[tuple[int, int], list[datetime]] = defaultdict(list)
    if not due:
        return sent
    rows = SentReminder.objects.filter(seat__in=list(due)).values_list(
        "seat_id", "deadline_at", "lead_hours"
    )
    for seat_id, deadline, lead in rows:
        sent[(seat_id, lead)].append(deadline)
    return sent


def _reminded(
    sent: dict[tuple[int, int], list[datetime]], seat: Seat, deadline: datetime, lead: int
) -> bool:
    """Whether the ``lead``-hour reminder of ``deadline`` went already: for it, or for
    a deadline it moved from by less than the lead."""
    window = timedelta(hours=lead)
    return any(abs(deadline - before) < window for before in sent.get((seat.pk, lead), ()))


def _claim(seat: Seat, leads: Iterable[int]) -> bool:
    """Claim the reminder of ``seat``'s deadline for the shortest of ``leads`` (the
    claim: two sweeps compute the same one, one insert wins), and mark the longer ones
    sent with it."""
    shortest, *longer = sorted(leads)
    deadline = seat.game.deadline_at
    assert deadline is not None
    try:
        with transaction.atomic():
            SentReminder.objects.create(seat=seat, deadline_at=deadline, lead_hours=shortest)
    except IntegrityError:
        return False
    SentReminder.objects.bulk_create(
        [SentReminder(seat=seat, deadline_at=deadline, lead_hours=hours) for hours in longer],
        ignore_conflicts=True,
    )
    return True


def _remind(seat: Seat, now: datetime) -> None:
    """The reminder itself: an event to the player's connections, and an email."""
    game = seat.game
    deadline = game.deadline_at
    assert deadline is not None
    publisher.publish_user_event(
        seat.user_id,
        game.public_id,
        game.ply,
        {"type": "reminder", "deadline_at": deadline.isoformat()},
    )
    if is_muted(user_id=seat.user_id, game=game):
        return
    seats = list(Seat.objects.filter(game=game).select_related("user__profile"))
    prefs = preferences_of(seat.user)
    with recipient_locale(seat.user, prefs):
        email_send(
            user=seat.user,
            prefs=prefs,
            template="reminder",
            kind=Kind.REMINDER,
            context={
                **wording.about(game, seats, seat.user_id),
                "deadline": deadline,
                "left": wording.time_left(deadline - now),
            },
            game_id=game.public_id,
        )
