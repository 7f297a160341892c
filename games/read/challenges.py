"""Reads of challenges: one challenge as the API and the event streams show it, and the
lists. The writes are ``games.challenges.services``."""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Literal

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from games.errors import GameNotFound
from games.models import Challenge
from games.read.catalogue import preset_name
from games.read.selectors import user_card

Direction = Literal["in", "out"]


def _with_people(challenges: QuerySet[Challenge]) -> QuerySet[Challenge]:
    return challenges.select_related(
        "challenger__profile", "destination__profile", "accepted_by__profile", "game", "rematch_of"
    )


def challenge_get(*, public_id: str, user: User) -> Challenge:
    """The challenge, if ``user`` may see it: its challenger, the account challenged and
    the one who accepted it, and anyone an open one while it waits. Anything else is
    ``GameNotFound``."""
    challenge = _with_people(Challenge.objects.filter(public_id=public_id)).first()
    if challenge is None or not _may_see(challenge, user):
        raise GameNotFound(_("no such challenge"), code="not_found")
    return challenge


def _may_see(challenge: Challenge, user: User) -> bool:
    # Once answered, an open challenge is its two players' alone: it names their game,
    # which may be private.
    if challenge.is_open and challenge.status == Challenge.Status.PENDING:
        return True
    return user.pk in (
        challenge.challenger_id,
        challenge.destination_id,
        challenge.accepted_by_id,
    )


def challenge_list(*, user: User, direction: Direction | None = None) -> QuerySet[Challenge]:
    """The user's pending challenges, to them (``in``), from them (``out``) or both."""
    pending = Challenge.objects.filter(status=Challenge.Status.PENDING)
    if direction == "in":
        pending = pending.filter(destination=user)
    elif direction == "out":
        pending = pending.filter(challenger=user)
    else:
        pending = pending.filter(Q(destination=user) | Q(challenger=user))
    return _with_people(pending)


def open_challenge_list(*, user: User) -> QuerySet[Challenge]:
    """Pending open challenges that ``user`` may accept (not their own)."""
    return _with_people(
        Challenge.objects.filter(status=Challenge.Status.PENDING, destination__isnull=True).exclude(
            challenger=user
        )
    )


def challenge_entry(challenge: Challenge) -> dict[str, Any]:
    """A challenge as the API and the event stream show it."""
    destination = challenge.destination
    accepted_by = challenge.accepted_by
    game = challenge.game
    rematch_of = challenge.rematch_of
    return {
        "id": challenge.public_id,
        "status": challenge.status,
        "open": challenge.is_open,
        "challenger": user_card(challenge.challenger),
        "destination": None if destination is None else user_card(destination),
        "preset": challenge.preset,
        "preset_name": preset_name(challenge.preset),
        "overrides": challenge.overrides,
        "players": challenge.players,
        "bots": list(challenge.bots),
        "visibility": challenge.visibility,
        "time_control": {
            "kind": challenge.time_control,
            "seconds_per_turn": challenge.seconds_per_turn,
            "days_per_move": challenge.days_per_move,
            "time_bank_s": challenge.time_bank_s,
        },
        "rated": challenge.rated,
        "decline_reason": challenge.decline_reason or None,
        "cancel_reason": challenge.cancel_reason or None,
        "cancel_message": cancel_message(challenge),
        "accepted_by": None if accepted_by is None else user_card(accepted_by),
        "game": None if game is None else game.public_id,
        "rematch_of": None if rematch_of is None else rematch_of.public_id,
        "created_at": challenge.created_at.isoformat().replace("+00:00", "Z"),
    }


def cancel_message(challenge: Challenge) -> str | None:
    """Why the server cancelled the challenge, in the current language (None: it did
    not)."""
    if not challenge.cancel_reason:
        return None
    return str(Challenge.CancelReason(challenge.cancel_reason).label)


def cancelled_for_account_rows(*, user: User, days: int = 7) -> list[dict[str, Any]]:
    """The user's challenges, both ways, that the server cancelled in the last ``days``
    because of what happened to an account, as the "My games" page says them: the
    other account's name (None: an open challenge of theirs) and why."""
    since = timezone.now() - timedelta(days=days)
    cancelled = _with_people(
        Challenge.objects.filter(
            Q(destination=user) | Q(challenger=user),
            status=Challenge.Status.CANCELLED,
            updated_at__gte=since,
        )
        .exclude(cancel_reason="")
        .order_by("-updated_at")
    )[:20]
    rows = []
    for challenge in cancelled:
        other = challenge.challenger if direction_of(challenge, user) == "in" else None
        if other is None:
            other = challenge.destination
        rows.append(
            {
                "id": challenge.public_id,
                "other": None if other is None else user_card(other)["display_name"],
                "message": cancel_message(challenge),
            }
        )
    return rows


def direction_of(challenge: Challenge, user: User) -> Direction:
    return "out" if challenge.challenger_id == user.pk else "in"
