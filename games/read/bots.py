"""The bots one may play: the built-in ones (the server moves them, always there) and
the bot accounts that play through the API, with their ratings (a built-in bot's from
its games against people, ``games.bot_ratings``) and whether each is connected now (a
websocket or an NDJSON stream open)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User as AuthUser
from django.db.models import Q

from accounts.models import BUILTIN_BOTS
from accounts.moderation.selectors import ban_in_force_subquery
from games import bot_ratings, ratings
from games.engine_words import engine_text

BUILTIN = "builtin"
ACCOUNT = "account"

# A bot account that still may play: not deleted, not disabled, not banned.
_PLAYING_BOT_ACCOUNTS = Q(profile__is_bot=True, profile__bot_level__isnull=True) & Q(
    is_active=True, profile__deleted_at__isnull=True, ban_id__isnull=True
)


def bot_directory(*, connected_now: Callable[[list[int]], set[int]]) -> list[dict[str, Any]]:
    """Every bot: the built-in ones weakest first, then the bot accounts, those
    connected now first, each group by username. ``connected_now`` tells which of some
    users are connected (``games.live.connections``)."""
    builtin = sorted(
        AuthUser.objects.select_related("profile").filter(BUILTIN_BOTS, is_active=True),
        key=lambda bot: (bot.profile.bot_level or 0, bot.username),
    )
    accounts = list(
        AuthUser.objects.select_related("profile")
        .annotate(ban_id=ban_in_force_subquery("pk"))
        .filter(_PLAYING_BOT_ACCOUNTS)
        .order_by("username")
    )
    ids = [bot.pk for bot in accounts]
    connected = connected_now(ids)
    rated = ratings.ratings_of_many(ids) | bot_ratings.bot_ratings_of_many(
        [bot.pk for bot in builtin]
    )
    listed = [_entry(bot, BUILTIN, True, rated[bot.pk]) for bot in builtin]
    others = [
        _entry(bot, ACCOUNT, _shown(bot, bot.pk in connected), rated[bot.pk]) for bot in accounts
    ]
    others.sort(key=lambda entry: entry["connected"] is not True)  # stable: by username within
    return listed + others


def _shown(bot: AuthUser, connected: bool) -> bool | None:
    # As for people: an account may keep its being online to itself.
    return connected if bot.profile.show_online else None


def _entry(
    bot: AuthUser, kind: str, connected: bool | None, rated: list[dict[str, Any]]
) -> dict[str, Any]:
    profile = bot.profile
    return {
        "username": bot.username,
        "display_name": profile.display_name or bot.username,
        "kind": kind,
        "bot_level": profile.bot_level,
        "avatar": profile.avatar,
        # A built-in bot's is stored in English (accounts.services.BUILTIN_BOTS) and read
        # in the reader's language; a bot account's own is shown as its owner wrote it.
        "bio": engine_text(profile.bio) if kind == BUILTIN else profile.bio,
        "connected": connected,
        "ratings": rated,
    }
