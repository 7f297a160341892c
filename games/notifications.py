"""What happens after a game change commits: events, private hands, presence.

``games.events`` publishes the public events the services register (moves in
their public form, deal and game over, joins and leaves) to the game's group
``game-<public id>``, and calls :func:`game_committed` once the transaction has
committed. That sends, once per game and ply:

- a public ``turn`` event (seat to move, phase, deadline) to the game's group;
- each seated person's own view of the deal (their hand) to their user group
  ``user-<id>`` only: no other connection ever receives it;
- and schedules the background work of the new position (``games.tasks``): the
  bot's move when a bot is to move, a deadline guard for live games, a "your
  turn" email for a correspondence player who is not connected.

Presence (who is connected to which game) lives in Redis sorted sets scored by
expiry time, so a crashed ASGI process's connections simply expire.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from functools import cache
from typing import Any

import redis
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings

from games.engine import Deal as EngineDeal
from games.events import game_group
from games.models import Deal, Game, Seat

logger = logging.getLogger(__name__)

PRESENCE_TTL_S = 60.0  # a connection not refreshed for this long is gone
PROTOCOL_VERSION = 1


def user_group(user_id: int) -> str:
    """The Channels group of one user's connections: their private updates."""
    return f"user-{user_id}"


# ------------------------------------------------------------------ sending


def _send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:
        logger.exception("could not send %s to %s", message.get("type"), group)


def publish_user_event(user_id: int, game_id: str, ply: int, event: Mapping[str, Any]) -> None:
    """A private event for one user's connections only (their own hand)."""
    _send(
        user_group(user_id),
        {"type": "user.event", "game": game_id, "ply": ply, "event": dict(event)},
    )


def publish_public_event(game_id: str, ply: int, event: Mapping[str, Any]) -> None:
    _send(
        game_group(game_id),
        {"type": "game.event", "game": game_id, "ply": ply, "event": dict(event)},
    )


# ------------------------------------------------------------------ after commit

# (game, ply) pairs already handled by this process: the services register the
# hook once per event, so one commit may call it several times.
_handled: OrderedDict[tuple[str, int], None] = OrderedDict()
_handled_lock = threading.Lock()


def _first_time(game_id: str, ply: int) -> bool:
    with _handled_lock:
        key = (game_id, ply)
        if key in _handled:
            return False
        _handled[key] = None
        while len(_handled) > 10_000:
            _handled.popitem(last=False)
        return True


def game_committed(game_id: str) -> None:
    """Run once a transaction that changed game ``game_id`` has committed."""
    game = Game.objects.filter(public_id=game_id).first()
    # (Lobby events share ply 0 with the start: only an active game is marked handled.)
    if game is None or game.status != Game.Status.ACTIVE:
        return
    if not _first_time(game_id, game.ply):
        return
    row = Deal.objects.filter(game=game, number=game.deal_number).first()
    if row is None:
        return
    deal = EngineDeal.from_dict(row.state)
    seats = list(Seat.objects.filter(game=game).select_related("user__profile"))
    deadline = None if game.deadline_at is None else game.deadline_at.isoformat()
    if not deal.is_over:
        publish_public_event(
            game_id,
            game.ply,
            {
                "type": "turn",
                "seat": deal.to_move,
                "phase": "play" if deal.drawn else "draw",
                "deadline_at": deadline,
            },
        )
    for seat in seats:
        if _is_bot(seat):
            continue
        publish_user_event(
            seat.user_id,
            game_id,
            game.ply,
            {"type": "private", "deal": row.number, "view": deal.view(seat.position).to_dict()},
        )
    if deal.is_over:
        return
    from games import tasks  # tasks import the services, which import this module

    tasks.schedule_after_commit(game, seats[deal.to_move], is_bot=_is_bot(seats[deal.to_move]))


def _is_bot(seat: Seat) -> bool:
    profile = getattr(seat.user, "profile", None)
    return bool(profile is not None and profile.is_bot)


# ------------------------------------------------------------------ presence


@cache
def _redis() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL)


def _game_key(game_id: str) -> str:
    return f"remi:presence:game:{game_id}"


def _user_key(user_id: int) -> str:
    return f"remi:presence:user:{user_id}"


def presence_touch(*, user_id: int, channel: str, games: list[str]) -> None:
    """Record (or refresh) that ``channel`` of ``user_id`` is connected and watching
    ``games``."""
    expires = time.time() + PRESENCE_TTL_S
    member = f"{user_id}|{channel}"
    pipe = _redis().pipeline()
    pipe.zadd(_user_key(user_id), {channel: expires})
    pipe.expire(_user_key(user_id), int(PRESENCE_TTL_S) * 2)
    for game_id in games:
        pipe.zadd(_game_key(game_id), {member: expires})
        pipe.expire(_game_key(game_id), int(PRESENCE_TTL_S) * 2)
    pipe.execute()


def presence_drop(*, user_id: int, channel: str, games: list[str]) -> None:
    """Forget ``channel`` (disconnected, or no longer watching ``games``)."""
    pipe = _redis().pipeline()
    if not games:
        pipe.zrem(_user_key(user_id), channel)
    for game_id in games:
        pipe.zrem(_game_key(game_id), f"{user_id}|{channel}")
    pipe.execute()


def connected_users(game_id: str) -> set[int]:
    """Ids of the users with a live connection watching the game."""
    members: list[bytes] = _redis().zrangebyscore(  # type: ignore[assignment]
        _game_key(game_id), time.time(), "+inf"
    )
    return {int(member.split(b"|", 1)[0]) for member in members}


def is_connected(user_id: int) -> bool:
    """Whether the user has any live websocket connection."""
    return bool(_redis().zcount(_user_key(user_id), time.time(), "+inf"))
