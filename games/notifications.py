"""What happens after a game change commits: events, private hands, presence.

``games.events`` calls :func:`game_committed` once a transaction that changed a
game has committed, with the public events the services registered (moves in
their public form, deal and game over, joins and leaves) and, from the hot path
(a move), the committed state the service had in memory. It sends, in one trip
to the channel layer and only to groups that have a member:

- the public events, then a public ``turn`` event (seat to move, phase, deadline),
  to the game's group ``game-<public id>``;
- a seated person's own view of the deal (their hand) to their user group
  ``user-<id>`` only, when their hand changed or it is their turn: no other
  connection ever receives it;
- and schedules the background work of the new position (``games.tasks``): the
  bot's move when a bot is to move, and, when a new turn starts in a
  correspondence game, a "your turn" email for a player who may want one.

Presence (who is connected to which game) lives in Redis sorted sets scored by
expiry time, so a crashed ASGI process's connections simply expire.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

import redis
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels_redis.core import RedisChannelLayer
from django.conf import settings

from accounts.models import is_builtin_bot
from games import timecontrol
from games.engine import Deal as EngineDeal
from games.events import CommittedState, game_group
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

# (game, ply) pairs already handled by this process when the state is read again
# after the commit (a service nested in an outer transaction: several commit hooks
# of one commit see the same, final, state).
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


def game_committed(
    game_id: str,
    events: Sequence[tuple[int, Mapping[str, Any]]] = (),
    state: CommittedState | None = None,
) -> None:
    """Run once a transaction that changed game ``game_id`` has committed: publish its
    public ``events``, then (a running game) the ``turn`` event and the private views,
    all in one trip to the channel layer, then schedule the background work.

    ``state`` is the committed game as the service had it in memory; without it the
    game, its deal and its seats are read again. With it, private views go only to
    the seats whose hand changed and the seat to move (the others' hands are as they
    were; the public events say what happened), and the "your turn" work is scheduled
    only when a new turn started.
    """
    group = game_group(game_id)
    messages: list[tuple[str, dict[str, Any]]] = [
        (group, {"type": "game.event", "game": game_id, "ply": ply, "event": dict(event)})
        for ply, event in events
    ]
    live: CommittedState | None = None
    try:
        live = state if state is not None else _read_state(game_id)
    except Exception:
        logger.exception("could not read game %s after its commit", game_id)
    if live is not None and live.game.status != Game.Status.ACTIVE:
        live = None  # over (or not started): its public events say everything
    private: list[Seat] = []
    game = live.game if live is not None else None
    deal = live.deal if live is not None else None
    if live is not None and game is not None and deal is not None and not deal.is_over:
        deadline = None if game.deadline_at is None else game.deadline_at.isoformat()
        turn = {
            "type": "turn",
            "seat": deal.to_move,
            "phase": "play" if deal.drawn else "draw",
            "deadline_at": deadline,
            **timecontrol.turn_clock(game, live.seats[deal.to_move]),
        }
        messages.append(
            (group, {"type": "game.event", "game": game_id, "ply": game.ply, "event": turn})
        )
    if live is not None and game is not None and deal is not None:
        private = [
            seat
            for seat in live.seats
            if not is_builtin_bot(seat.user)
            and (live.hands is None or seat.position in live.hands or seat.position == deal.to_move)
        ]
    _publish(messages, private, live)
    if live is None or game is None or deal is None or deal.is_over:
        return
    seat = live.seats[deal.to_move]
    from games import tasks  # tasks import the services, which import this module

    tasks.schedule_after_commit(
        game, seat, is_bot=is_builtin_bot(seat.user), new_turn=live.new_turn
    )


def _read_state(game_id: str) -> CommittedState | None:
    """The committed state of an active game, read from the database (once per ply)."""
    game = Game.objects.filter(public_id=game_id).first()
    # (Lobby events share ply 0 with the start: only an active game is marked handled.)
    if game is None or game.status != Game.Status.ACTIVE:
        return None
    if not _first_time(game_id, game.ply):
        return None
    row = Deal.objects.filter(game=game, number=game.deal_number).only("state").first()
    if row is None:
        return None
    seats = list(Seat.objects.filter(game=game).select_related("user__profile"))
    return CommittedState(game=game, deal=EngineDeal.from_dict(row.state), seats=seats)


def _publish(
    messages: list[tuple[str, dict[str, Any]]],
    private: list[Seat],
    live: CommittedState | None,
) -> None:
    """Send ``messages`` and each ``private`` seat's view to the groups that have a
    member (one look at the channel layer for all of them), in one trip to the
    event loop. Failures are logged: a committed move must not become an error."""
    layer = get_channel_layer()
    if layer is None or not (messages or private):
        return
    try:
        by_user = {user_group(seat.user_id): seat for seat in private}
        listening = _groups_with_members(layer, {group for group, _ in messages} | set(by_user))
        out = [(group, message) for group, message in messages if group in listening]
        if live is not None and live.deal is not None:
            game = live.game
            for group, seat in by_user.items():
                if group in listening:
                    event = {
                        "type": "private",
                        "deal": game.deal_number,
                        "view": live.view(seat.position),
                    }
                    out.append(
                        (
                            group,
                            {
                                "type": "user.event",
                                "game": game.public_id,
                                "ply": game.ply,
                                "event": event,
                            },
                        )
                    )
        if not out:
            return

        async def send_all() -> None:
            for group, message in out:
                await layer.group_send(group, message)

        async_to_sync(send_all)()
    except Exception:
        logger.exception("could not publish the events of a commit")


def _groups_with_members(layer: Any, groups: set[str]) -> set[str]:
    """The ``groups`` that have at least one channel, asked of Redis in one round trip
    (a group send to an empty group does nothing; asking first saves the trip to the
    event loop and the per-group requests of ``group_send``). A layer other than one
    Redis server is not asked: every group counts as having members."""
    client = _layer_redis(layer)
    if client is None or not groups:
        return groups
    ordered = sorted(groups)
    since = int(time.time()) - int(layer.group_expiry)
    pipe = client.pipeline(transaction=False)
    for group in ordered:
        pipe.zcount(layer._group_key(group), since, "+inf")
    counts = pipe.execute()
    return {group for group, count in zip(ordered, counts, strict=True) if count}


_layer_clients: dict[str, redis.Redis] = {}


def _layer_redis(layer: Any) -> redis.Redis | None:
    """A synchronous client of the channel layer's Redis (``channels_redis`` with one
    host given by address), or None."""
    hosts = getattr(layer, "hosts", None)
    if not isinstance(layer, RedisChannelLayer) or not hosts or len(hosts) != 1:
        return None
    address = hosts[0].get("address")
    if not isinstance(address, str):
        return None
    client = _layer_clients.get(address)
    if client is None:
        client = _layer_clients[address] = redis.Redis.from_url(address)
    return client


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
