"""A rematch: after a finished game, one of its players offers the same table again
(the preset, the house rules, the time control, rated or not, the same players) as a
challenge to the others, who accept or decline it as any challenge; a built-in bot
accepts at once. A game is offered again once, whoever asks and whatever the answer.

The table the challenge can hold: the player who asks, one other account (a person or
a bot account) and any built-in bots, or built-in bots only.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import is_builtin_bot
from accounts.moderation.selectors import ban_in_force
from games.challenges.services import challenge_create
from games.engine import PRESETS
from games.errors import Conflict, GameNotFound, NotAllowed
from games.models import Challenge, Game


def rematch_offer(*, public_id: str, user: User) -> Challenge:
    """Offer ``user``'s finished game again; the challenge, accepted at once when only
    built-in bots are asked. ``Conflict`` while the game runs, once it was offered
    again, or for a table a challenge cannot hold; ``NotAllowed`` when another player
    can no longer play (banned, deleted) or may not play this rated game."""
    with transaction.atomic():
        # The game's row is the lock: two players asking at once make one rematch.
        game = Game.objects.select_for_update().filter(public_id=public_id).first()
        if game is None:
            raise GameNotFound(_("no such game of yours"), code="not_found")
        others = _others_of(game, user)
        _offer_check(game, others)
        people = [other for other in others if not is_builtin_bot(other)]
        builtin = [other for other in others if is_builtin_bot(other)]
        destination = people[0] if people else builtin.pop(0)
        return challenge_create(
            challenger=user,
            destination=destination,
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
        )


def _others_of(game: Game, user: User) -> list[User]:
    """The game's other players in seat order; ``GameNotFound`` unless ``user`` sat in it."""
    seats = list(game.seats.select_related("user__profile").order_by("position"))
    if user.pk not in {seat.user_id for seat in seats}:
        raise GameNotFound(_("no such game of yours"), code="not_found")
    return [seat.user for seat in seats if seat.user_id != user.pk]


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
    if len([other for other in others if not is_builtin_bot(other)]) > 1:
        raise Conflict(
            _(
                "a rematch is offered to one other player (with any built-in bots): "
                "for a bigger table, create a game and invite them"
            ),
            code="rematch_table_too_big",
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
