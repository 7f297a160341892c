"""A player's private calendar feed (ICS, built with ``icalendar``): one event at
each deadline of their correspondence games where it is their turn, with an alarm
at each of their reminder lead times. The feed's URL holds a secret of the player's
(``PlayerSettings.calendar_secret``), so a calendar app fetches it without logging
in; resetting the secret retires the old URL, and so does a ban, a deletion or a
deactivation of the account (``feed_retire``, a handler of ``accounts.lifecycle``): the
URL then answers 404 for good, and an account given back makes a new one."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import F, Prefetch
from django.utils import translation
from django.utils.translation import gettext
from icalendar import Alarm, Calendar, Event

from accounts.moderation.selectors import ban_in_force_subquery
from games.models import Game, PlayerSettings, Seat
from games.notify import links, wording
from games.notify.messages import language_of
from games.notify.preferences import reminder_hours_of

PRODID = "-//Remi online//correspondence deadlines//EN"


def calendar_feed(*, secret: str, now: datetime) -> bytes | None:
    """The ICS feed of the player whose calendar secret is ``secret``, or None."""
    if not secret:
        return None
    # An account closed or banned has no feed, even if its secret were somehow kept.
    prefs = (
        PlayerSettings.objects.filter(
            calendar_secret=secret, user__is_active=True, user__profile__deleted_at__isnull=True
        )
        .alias(ban=ban_in_force_subquery("user_id"))
        .filter(ban__isnull=True)
        .select_related("user__profile")
        .first()
    )
    if prefs is None:
        return None
    # A calendar app fetches the feed without the player's session or browser: the
    # player's saved language, not the request's.
    with translation.override(language_of(prefs.user)):
        return _feed(prefs, now)


def feed_retire(*, user_id: int) -> bool:
    """Retire the user's calendar URL for good (the account is banned, deleted or
    deactivated); True when there was one."""
    return bool(
        PlayerSettings.objects.filter(user_id=user_id, calendar_secret__isnull=False).update(
            calendar_secret=None
        )
    )


def _feed(prefs: PlayerSettings, now: datetime) -> bytes:
    feed = Calendar()
    feed.add("prodid", PRODID)
    feed.add("version", "2.0")
    feed.add("calscale", "GREGORIAN")
    feed.add("x-wr-calname", gettext("Remi: my deadlines"))
    for game in deadlines_of(prefs.user.pk):
        feed.add_component(_event(game, prefs, now))
    return feed.to_ical()


def deadlines_of(user_id: int) -> list[Game]:
    """The user's active correspondence games waiting for their move, with a deadline;
    not the games they muted (nothing about those reaches them)."""
    return list(
        Game.objects.filter(
            status=Game.Status.ACTIVE,
            time_control=Game.TimeControl.CORRESPONDENCE,
            deadline_at__isnull=False,
            seats__user_id=user_id,
            seats__position=F("to_move"),
        )
        .exclude(mutes__user_id=user_id)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user__profile")))
        .order_by("deadline_at", "pk")
    )


def _event(game: Game, prefs: PlayerSettings, now: datetime) -> Event:
    about = wording.about(game, list(game.seats.all()), prefs.user.pk)
    deadline = game.deadline_at
    assert deadline is not None
    event = Event()
    # One event per turn: a deadline that moves (a vacation) updates it.
    event.add("uid", f"{game.public_id}-{game.ply}@remi-online")
    event.add("dtstamp", now)
    event.add("dtstart", deadline)
    event.add("summary", gettext("Remi: your move against %(opponents)s") % about)
    event.add(
        "description",
        gettext("Your move in %(preset)s against %(opponents)s is due.") % about,
    )
    event.add("url", links.game_url(game.public_id))
    for hours in reminder_hours_of(prefs) if prefs.reminders else []:
        alarm = Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add("trigger", timedelta(hours=-hours))
        alarm.add("description", event["summary"])
        event.add_component(alarm)
    return event
