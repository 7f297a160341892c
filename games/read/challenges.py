"""Reads of challenges: one challenge as the API and the event streams show it, and the
lists. The writes are ``games.challenges.services``."""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Literal

from django.contrib.auth.models import User
from django.db.models import Prefetch, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.errors import GameNotFound
from games.models import Challenge, ChallengeInvitee
from games.read.catalogue import preset_name
from games.read.selectors import user_card

Direction = Literal["in", "out"]

# Why the server ended a challenge to several accounts, naming whose account it was:
# "the other player" says nothing at a table of four.
NAMED_CANCEL_MESSAGES = {
    Challenge.CancelReason.BANNED: gettext_lazy("%(name)s's account is suspended."),
    Challenge.CancelReason.DELETED: gettext_lazy("%(name)s deleted their account."),
    Challenge.CancelReason.CLOSED: gettext_lazy("%(name)s's account was closed."),
    Challenge.CancelReason.PLAYBAN: gettext_lazy("%(name)s may not play rated games for now."),
}


def _with_people(challenges: QuerySet[Challenge]) -> QuerySet[Challenge]:
    invitees = ChallengeInvitee.objects.select_related("user__profile").order_by("position")
    return challenges.select_related(
        "challenger__profile", "destination__profile", "accepted_by__profile", "game", "rematch_of"
    ).prefetch_related(Prefetch("invitees", queryset=invitees))


def invited_to(user: User) -> QuerySet[ChallengeInvitee, Any]:
    """The ids of the challenges ``user`` is one of several invitees of (``pk__in``)."""
    return ChallengeInvitee.objects.filter(user=user).values("challenge_id")


def _invitees(challenge: Challenge) -> list[ChallengeInvitee]:
    """Its invitees in seat order: prefetched by the lists, read now after a write."""
    return list(challenge.invitees.all()) if _prefetched(challenge) else _read_invitees(challenge)


def _prefetched(challenge: Challenge) -> bool:
    return "invitees" in getattr(challenge, "_prefetched_objects_cache", {})


def _read_invitees(challenge: Challenge) -> list[ChallengeInvitee]:
    return list(
        ChallengeInvitee.objects.filter(challenge=challenge)
        .select_related("user__profile")
        .order_by("position")
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
    invited = {invitee.user_id for invitee in _invitees(challenge)}
    return user.pk in {
        challenge.challenger_id,
        challenge.destination_id,
        challenge.accepted_by_id,
        *invited,
    }


def challenge_list(*, user: User, direction: Direction | None = None) -> QuerySet[Challenge]:
    """The user's pending challenges, to them (``in``), from them (``out``) or both."""
    pending = Challenge.objects.filter(status=Challenge.Status.PENDING)
    to_user = Q(destination=user) | Q(pk__in=invited_to(user))
    if direction == "in":
        pending = pending.filter(to_user)
    elif direction == "out":
        pending = pending.filter(challenger=user)
    else:
        pending = pending.filter(to_user | Q(challenger=user))
    return _with_people(pending)


def rematch_get(*, game_id: str, user: User) -> Challenge:
    """The rematch offered of the finished game ``game_id``, for its players who were
    asked or asked (``GameNotFound`` for anyone else, and while none was offered)."""
    challenge = _with_people(Challenge.objects.filter(rematch_of__public_id=game_id)).first()
    if challenge is None or not _may_see(challenge, user):
        raise GameNotFound(_("no rematch of this game"), code="not_found")
    return challenge


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
    invitees = _invitees(challenge)
    expires_at = challenge.expires_at
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
        "invitees": [
            {"user": user_card(invitee.user), "answer": invitee.answer} for invitee in invitees
        ],
        "expires_at": None if expires_at is None else _iso(expires_at),
        "created_at": _iso(challenge.created_at),
    }


def _iso(moment: Any) -> str:
    return str(moment.isoformat().replace("+00:00", "Z"))


def cancel_message(challenge: Challenge) -> str | None:
    """Why the server cancelled the challenge, in the current language (None: it did
    not). For a challenge to several accounts, whose account ended it."""
    if not challenge.cancel_reason:
        return None
    reason = Challenge.CancelReason(challenge.cancel_reason)
    invitees = _invitees(challenge) if reason in NAMED_CANCEL_MESSAGES else []
    if invitees:
        gone = [i.user for i in invitees if i.answer == ChallengeInvitee.Answer.UNAVAILABLE]
        # No invitee's account: the challenger's was the one.
        whose = gone[0] if gone else challenge.challenger
        return str(NAMED_CANCEL_MESSAGES[reason]) % {"name": user_card(whose)["display_name"]}
    return str(reason.label)


def cancelled_for_account_rows(*, user: User, days: int = 7) -> list[dict[str, Any]]:
    """The user's challenges, both ways, that the server cancelled in the last ``days``
    because of what happened to an account, as the "My games" page says them: the
    other account's name (None: an open challenge of theirs) and why."""
    since = timezone.now() - timedelta(days=days)
    cancelled = _with_people(
        Challenge.objects.filter(
            Q(destination=user) | Q(challenger=user) | Q(pk__in=invited_to(user)),
            status=Challenge.Status.CANCELLED,
            updated_at__gte=since,
        )
        # Cancelled by their challenger, or expired: no account's change to tell of.
        .exclude(cancel_reason__in=["", Challenge.CancelReason.EXPIRED])
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
