"""Reads of challenges: one challenge as the API and the event streams show it, and the
lists. The writes are ``games.challenges.services``."""

from __future__ import annotations

from typing import Any, Literal

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from games.errors import GameNotFound
from games.models import Challenge
from games.read.selectors import user_card

Direction = Literal["in", "out"]


def _with_people(challenges: QuerySet[Challenge]) -> QuerySet[Challenge]:
    return challenges.select_related(
        "challenger__profile", "destination__profile", "accepted_by__profile", "game", "rematch_of"
    )


def challenge_get(*, public_id: str, user: User) -> Challenge:
    """The challenge, if ``user`` may see it: its challenger and the account challenged,
    and anyone for an open one. Anything else is ``GameNotFound``."""
    challenge = _with_people(Challenge.objects.filter(public_id=public_id)).first()
    if challenge is None or not _may_see(challenge, user):
        raise GameNotFound(_("no such challenge"), code="not_found")
    return challenge


def _may_see(challenge: Challenge, user: User) -> bool:
    return challenge.is_open or user.pk in (challenge.challenger_id, challenge.destination_id)


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
        "accepted_by": None if accepted_by is None else user_card(accepted_by),
        "game": None if game is None else game.public_id,
        "rematch_of": None if rematch_of is None else rematch_of.public_id,
        "created_at": challenge.created_at.isoformat().replace("+00:00", "Z"),
    }


def direction_of(challenge: Challenge, user: User) -> Direction:
    return "out" if challenge.challenger_id == user.pk else "in"
