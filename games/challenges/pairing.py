"""Who may sit with whom in a rated game: a bot account plays rated games against
people only where the site allows it (``REMI_BOTS_RATED_VS_HUMANS``, off by default,
as on lichess). Built-in bots never play rated games (``games.play.create``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from accounts.models import is_builtin_bot
from games.errors import NotAllowed
from games.models import Game

BOTS_RATED_VS_HUMANS = "bots_rated_vs_humans"


def is_bot_account(user: Any) -> bool:
    """A bot account (a program playing through the API), not a built-in bot: those are
    kept out of rated games by ``game_create`` itself, with its own code."""
    profile = getattr(user, "profile", None)
    return bool(profile is not None and profile.is_bot and profile.bot_level is None)


def rated_pairing_check(*, rated: bool, users: Iterable[Any]) -> None:
    """``NotAllowed`` when a rated game would seat a bot account and a person while the
    site does not allow it."""
    if not rated or settings.REMI_BOTS_RATED_VS_HUMANS:
        return
    kinds = {is_bot_account(user) for user in users if not is_builtin_bot(user)}
    if kinds == {True, False}:
        raise NotAllowed(
            _(
                "on this site bot accounts play rated games against other bots only: "
                "make the game casual (rated: false)"
            ),
            code=BOTS_RATED_VS_HUMANS,
        )


def join_check(*, game: Game, user: Any) -> None:
    """Whether ``user`` may take a seat of ``game`` with the players already seated."""
    if game.rated:
        seated = [seat.user for seat in game.seats.select_related("user__profile")]
        rated_pairing_check(rated=True, users=[*seated, user])
