"""Which Channels groups have a member: asked of the channel layer's Redis before a
commit's messages are sent (``games.live.publisher``), so that a group nobody is in
costs no send.

A group send to an empty group does nothing; asking first saves the trip to the event
loop and the per-group requests of ``group_send``. Every move asks (its game's group
and its players' own groups), so the question is one script (``EVALSHA``: one command,
whatever the number of groups) sent on a connection of the asking thread's own. Through
redis-py's pool, a pipeline of one ``ZCOUNT`` a group took 57 us of CPU in a loop and
0.21 ms in a move (``bench/move_cost.py --parts``), much of it the pool's checkout (a
look at the socket) and the pipeline's machinery; the script on the thread's
connection, 17 us and 0.13 ms (the rest is the round trip itself). The web server's
threads are a fixed pool (``WEB_THREADS``), so are these connections.
"""

from __future__ import annotations

import hashlib
import threading
import time
from typing import Any

import redis
from channels_redis.core import RedisChannelLayer
from redis.exceptions import NoScriptError

# How many members each group (KEYS) has that joined or renewed since ARGV[1] (the
# layer's own expiry: an older member is one ``group_send`` would discard).
_COUNTS = """
local counts = {}
for i, key in ipairs(KEYS) do
  counts[i] = redis.call('ZCOUNT', key, ARGV[1], '+inf')
end
return counts
"""
_COUNTS_SHA = hashlib.sha1(_COUNTS.encode(), usedforsecurity=False).hexdigest()


def groups_with_members(layer: Any, groups: set[str]) -> set[str]:
    """The ``groups`` that have at least one channel, asked of Redis in one command. A
    layer other than one Redis server is not asked: every group counts as having
    members. Raises what Redis raises (the caller logs it)."""
    address = _layer_address(layer)
    if address is None or not groups:
        return groups
    ordered = sorted(groups)
    since = int(time.time()) - int(layer.group_expiry)
    keys = [layer._group_key(group) for group in ordered]
    counts = _ask(address, keys, since)
    return {group for group, count in zip(ordered, counts, strict=True) if count}


def _layer_address(layer: Any) -> str | None:
    """The address of the channel layer's Redis (``channels_redis`` with one host given
    by address), or None."""
    hosts = getattr(layer, "hosts", None)
    if not isinstance(layer, RedisChannelLayer) or not hosts or len(hosts) != 1:
        return None
    address = hosts[0].get("address")
    return address if isinstance(address, str) else None


_local = threading.local()


def _connection(address: str) -> redis.Connection:
    """This thread's own connection to ``address`` (it connects on its first command)."""
    connections: dict[str, redis.Connection] | None = getattr(_local, "connections", None)
    if connections is None:
        connections = _local.connections = {}
    found = connections.get(address)
    if found is None:
        made: Any = redis.ConnectionPool.from_url(address).make_connection()
        found = connections[address] = made
    return found


def _ask(address: str, keys: list[str], since: int) -> list[int]:
    connection = _connection(address)
    connected = connection.is_connected
    try:
        return _counts(connection, keys, since)
    except (redis.ConnectionError, redis.TimeoutError):
        if not connected:
            raise  # Redis is not there (connecting retries with backoff already)
        # A connection Redis closed (a restart, an idle timeout): once more on a new one.
        return _counts(connection, keys, since)


def _counts(connection: redis.Connection, keys: list[str], since: int) -> list[int]:
    try:
        try:
            connection.send_command("EVALSHA", _COUNTS_SHA, len(keys), *keys, since)
            counts: list[int] = connection.read_response()
        except NoScriptError:
            # Not in this server's script cache yet (a new or restarted Redis): EVAL
            # runs it and caches it.
            connection.send_command("EVAL", _COUNTS, len(keys), *keys, since)
            counts = connection.read_response()
    except redis.ResponseError:
        raise  # an answer was read whole: the connection is as good as before
    except BaseException:
        connection.disconnect()  # a reply may be half read: never read it as the next
        raise
    return counts
