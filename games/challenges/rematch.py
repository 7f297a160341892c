"""A rematch: after a finished game, one of its players offers the same table again
(the preset, the house rules, the time control, rated or not, the same players) as a
challenge to every other seat. Each invited account (a person or a bot account)
accepts or declines for itself; built-in bots are seated again without asking. The
new game starts when the last invitee accepts; a decline, the offerer's cancellation,
the expiry (``expiry_for``) or an invitee's account closing ends the offer for all.

A game has one rematch offer, whatever its answer: a second offer from another player
while it waits is their acceptance of it. The seats: the offerer hosts in seat 0, the
built-in bots follow in their old order, then the invited accounts in their old order
(a preset that draws for seats draws them again at the start).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import is_builtin_bot
from accounts.moderation.selectors import ban_in_force
from games.challenges.services import challenge_accept, challenge_create
from games.engine import PRESETS
from games.errors import Conflict, GameNotFound, NotAllowed
from games.models import Challenge, ChallengeInvitee, Game


@dataclass(frozen=True)
class Offer:
    """The rematch and whether this call made it (``False``: it joined the one waiting)."""

    challenge: Challenge
    created: bool


def rematch_offer(*, public_id: str, user: User) -> Offer:
    """Offer ``user``'s finished game again to its other seats; accepted at once when
    only built-in bots are asked. While another player's offer waits for ``user``'s
    answer, this is their acceptance. ``Conflict`` while the game runs and once it was
    offered again; ``NotAllowed`` when another player can no longer play (banned,
    deleted) or may not play this rated game."""
    with transaction.atomic():
        # The game's row is the lock: two players asking at once make one rematch.
        game = Game.objects.select_for_update().filter(public_id=public_id).first()
        if game is None:
            raise GameNotFound(_("no such game of yours"), code="not_found")
        others = _others_of(game, user)
        waiting = _waiting_for(game, user)
        if waiting is not None:
            return Offer(challenge_accept(public_id=waiting, user=user), created=False)
        _offer_check(game, others)
        invitees = [other for other in others if not is_builtin_bot(other)]
        builtin = [other for other in others if is_builtin_bot(other)]
        destination = invitees[0] if invitees else builtin.pop(0)
        challenge = challenge_create(
            challenger=user,
            destination=destination,
            invitees=invitees,
            preset=game.preset,
            overrides=_house_rules(game),
            bots=[bot.username for bot in builtin],
            visibility=game.visibility,
            time_control=game.time_control,
            seconds_per_turn=game.seconds_per_turn,
            days_per_move=game.days_per_move,
            time_bank_s=game.time_bank_s if game.time_control == Game.TimeControl.LIVE else None,
            rated=game.rated,
            rematch_of=game,
            expires_at=expiry_for(game) if invitees else None,
        )
        return Offer(challenge, created=True)


def expiry_for(game: Game, *, now: datetime | None = None) -> datetime:
    """When a rematch of ``game`` ends unanswered: ``REMATCH_LIVE_EXPIRY_S`` after the
    offer for a live table (its players are at the table now, or gone), the game's own
    time for a move for a correspondence one."""
    now = now or timezone.now()
    if game.time_control == Game.TimeControl.LIVE:
        return now + timedelta(seconds=settings.REMATCH_LIVE_EXPIRY_S)
    return now + timedelta(days=game.days_per_move or 1)


def _others_of(game: Game, user: User) -> list[User]:
    """The game's other players in seat order; ``GameNotFound`` unless ``user`` sat in it."""
    seats = list(game.seats.select_related("user__profile").order_by("position"))
    if user.pk not in {seat.user_id for seat in seats}:
        raise GameNotFound(_("no such game of yours"), code="not_found")
    return [seat.user for seat in seats if seat.user_id != user.pk]


def _waiting_for(game: Game, user: User) -> str | None:
    """The public id of the game's pending rematch that asks ``user``, if there is one."""
    asked = ChallengeInvitee.objects.filter(
        user=user,
        challenge__rematch_of=game,
        challenge__status=Challenge.Status.PENDING,
    )
    return asked.values_list("challenge__public_id", flat=True).first()


def _offer_check(game: Game, others: list[User]) -> None:
    if game.status != Game.Status.FINISHED:
        raise Conflict(
            _("a rematch is offered after the game is finished"),
            code="game_not_finished",
            details={"status": game.status},
        )
    offered = Challenge.objects.filter(rematch_of=game).values_list("public_id", flat=True).first()
    if offered is not None:
        raise Conflict(
            _("this game was already offered again"),
            code="rematch_exists",
            details={"challenge": offered},
        )
    for other in others:
        if _gone(other):
            raise NotAllowed(
                _("%(player)s can no longer play") % {"player": other.profile.display_name},
                code="player_unavailable",
                details={"username": other.username},
            )


def _gone(user: User) -> bool:
    """Deleted, disabled or banned: no one to offer a game to."""
    profile: Any = getattr(user, "profile", None)
    deleted = profile is not None and profile.deleted_at is not None
    return deleted or not user.is_active or ban_in_force(user_id=user.pk) is not None


def _house_rules(game: Game) -> dict[str, Any]:
    """The game's ruleset fields that differ from its preset's: its house rules as
    ``game_create`` takes them."""
    by_book = PRESETS[game.preset].to_dict()
    return {
        name: value
        for name, value in game.ruleset.items()
        if name != "name" and by_book.get(name) != value
    }
