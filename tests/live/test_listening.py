"""Which groups have a member (``games.live.listening``): asked of the channel layer's
Redis in one command on the asking thread's own connection, which survives Redis
closing it and Redis forgetting the script."""

from __future__ import annotations

import secrets

import pytest
import redis
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.live import listening


def _groups(count: int) -> list[str]:
    prefix = secrets.token_hex(4)
    return [f"game-{prefix}-{number}" for number in range(count)]


def _join(layer, group: str) -> str:
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(group, channel)
    return channel


def _redis(layer) -> redis.Redis:
    return redis.Redis.from_url(layer.hosts[0]["address"])


def test_only_the_groups_with_a_member_are_listening() -> None:
    layer = get_channel_layer()
    joined, left, empty = _groups(3)
    _join(layer, joined)
    channel = _join(layer, left)
    async_to_sync(layer.group_discard)(left, channel)
    assert listening.groups_with_members(layer, {joined, left, empty}) == {joined}
    assert listening.groups_with_members(layer, set()) == set()


def test_a_member_older_than_the_layers_expiry_is_not_listening() -> None:
    layer = get_channel_layer()
    (group,) = _groups(1)
    channel = _join(layer, group)
    # As ``group_add`` records a member: scored by when it joined (here, long ago).
    _redis(layer).zadd(layer._group_key(group), {channel: 1})
    assert listening.groups_with_members(layer, {group}) == set()


def test_a_connection_redis_closed_is_made_again() -> None:
    layer = get_channel_layer()
    (group,) = _groups(1)
    _join(layer, group)
    assert listening.groups_with_members(layer, {group}) == {group}
    connection = listening._connection(layer.hosts[0]["address"])
    connection.send_command("CLIENT", "ID")
    assert _redis(layer).client_kill_filter(_id=connection.read_response()) == 1
    assert listening.groups_with_members(layer, {group}) == {group}


def test_a_script_redis_forgot_is_sent_again() -> None:
    layer = get_channel_layer()
    (group,) = _groups(1)
    _join(layer, group)
    _redis(layer).script_flush()
    assert listening.groups_with_members(layer, {group}) == {group}
    assert _redis(layer).script_exists(listening._COUNTS_SHA) == [True]


def test_a_layer_not_on_one_redis_server_counts_every_group_as_listening() -> None:
    class Other:
        pass

    groups = set(_groups(2))
    assert listening.groups_with_members(Other(), groups) == groups


def test_a_redis_that_is_not_there_is_tried_once(monkeypatch) -> None:
    layer = get_channel_layer()
    (group,) = _groups(1)
    tries: list[int] = []
    made = listening._connection(layer.hosts[0]["address"])
    made.disconnect()

    def refused(*args, **kwargs):
        tries.append(1)
        raise redis.ConnectionError("refused")

    monkeypatch.setattr(made, "connect_check_health", refused)
    with pytest.raises(redis.ConnectionError):
        listening.groups_with_members(layer, {group})
    assert tries == [1]
