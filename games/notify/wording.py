"""The words of a message about a game: the rules' name, the other players, the time
left, the result. Marked for translation: messages are rendered in the recipient's
language once players have one."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.models import Game, Seat
from games.notify.tokens import Kind
from games.read.catalogue import preset_name
from remi_site import formats

END_REASONS = {
    "completed": _("all deals were played"),
    "resigned": _("a player resigned"),
    "timeout": _("a player ran out of time too often"),
    "absent": _("a player was away"),
    "banned": _("a player was banned from the site and forfeited"),
    "adjudicated": _("a moderator decided the game"),
    "host_left": _("the host left before it began"),
    "aborted": _("it was called off"),
}
# The reasons that name the player whose seat ended the game (``loser``).
NAMED_END_REASONS = {
    "banned": _("%(name)s was banned from the site and forfeited"),
    "adjudicated": _("a moderator decided the game against %(name)s"),
}
_END_REASONS_YOU = {
    "banned": _("your account was banned and you forfeited"),
    "adjudicated": _("a moderator decided the game against you"),
}
# Said of a reason this list does not know yet, rather than its internal name.
OTHER_REASON = _("it was stopped")

UNSUBSCRIBE_LABELS = {
    Kind.TURN: _("“your turn” emails"),
    Kind.DIGEST: _("the daily email of the games waiting for you"),
    Kind.REMINDER: _("reminders before your deadlines"),
    Kind.STRIKE: _("emails when your time runs out"),
    Kind.GAME_OVER: _("emails with the result of your games"),
    Kind.CHALLENGE: _("emails when someone challenges you"),
    Kind.GAME: _("every message about this game"),
}


def unsubscribe_label(kind: Kind) -> str:
    return str(UNSUBSCRIBE_LABELS[kind])


def preset_label(preset: str) -> str:
    """The name the rules go by on every page."""
    return preset_name(preset)


def display_name(user: Any) -> str:
    profile = getattr(user, "profile", None)
    return str(profile.display_name if profile and profile.display_name else user.get_username())


def names(seats: Sequence[Seat]) -> str:
    """The players by name: "ana", "ana and marko", "ana, marko and ivan"."""
    return formats.word_list(display_name(seat.user) for seat in seats)


def opponents(seats: Sequence[Seat], user_id: int) -> str:
    """The other players of a game, by name."""
    return names([seat for seat in seats if seat.user_id != user_id])


def time_left(left: timedelta) -> str:
    """A duration in the reader's words: "1 dzień i 20 godzin", "25 minut" (in full: an
    abbreviation's full stop would meet the sentence's, "23 godz..")."""
    if left < timedelta(minutes=1):
        return gettext("less than a minute")
    return formats.duration(left)


def result(seats: Sequence[Seat], winners: Sequence[int], position: int) -> str:
    """The match's result as the player in ``position`` reads it."""
    won = [seat for seat in seats if seat.position in winners]
    if position in winners:
        others = [seat for seat in won if seat.position != position]
        if not others:
            return gettext("You won.")
        return gettext("You shared the win with %(names)s.") % {"names": names(others)}
    if len(won) == 1:
        return gettext("%(name)s won.") % {"name": names(won)}
    if won:
        return gettext("%(names)s shared the win.") % {"names": names(won)}
    return gettext("Nobody won.")


def end_reason(reason: str, loser: Seat | None = None, user_id: int | None = None) -> str:
    """Why the game ended, as ``user_id`` reads it; a ban or a moderator's decision
    names the player it went against (``loser``), "you" to that player."""
    if loser is not None and reason in NAMED_END_REASONS:
        if loser.user_id == user_id:
            return str(_END_REASONS_YOU[reason])
        return str(NAMED_END_REASONS[reason]) % {"name": display_name(loser.user)}
    return str(END_REASONS.get(reason, OTHER_REASON))


def about(game: Game, seats: Sequence[Seat], user_id: int) -> dict[str, Any]:
    """What every message about ``game`` to ``user_id`` says of it. While the game is
    played its opponents are the players still in it (one resigned, banned or put out
    is not); once over, everyone who played."""
    if game.status == Game.Status.ACTIVE:
        seats = [seat for seat in seats if seat.status != Seat.Status.OUT]
    return {
        "game_id": game.public_id,
        "opponents": opponents(seats, user_id),
        "preset": preset_label(game.preset),
    }
