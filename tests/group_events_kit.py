"""What groups on the channel layer hear: the messages published while a test's code
runs, read from the real channel layer."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer

from games.live.publisher import game_group


def heard_by(groups: list[str], do: Callable[[], Any]) -> list[tuple[str, dict[str, Any]]]:
    """The ``(group, message)`` pairs that ``groups`` receive while ``do()`` runs (its
    commit hooks included) and until each has been quiet for half a second."""
    layer = get_channel_layer()

    async def main() -> list[tuple[str, dict[str, Any]]]:
        channels = {}
        for group in groups:
            channels[group] = channel = await layer.new_channel()
            await layer.group_add(group, channel)
        await sync_to_async(do)()
        out = []
        for group, channel in channels.items():
            while True:
                try:
                    out.append((group, await asyncio.wait_for(layer.receive(channel), 0.5)))
                except TimeoutError:
                    break
        return out

    return async_to_sync(main)()


def game_messages(public_id: str, do: Callable[[], Any]) -> list[dict[str, Any]]:
    """The messages the game's group receives while ``do()`` runs (``heard_by``)."""
    return [message for _group, message in heard_by([game_group(public_id)], do)]


def heard(public_id: str, do: Callable[[], Any]) -> list[dict[str, Any]]:
    """The events the game's group receives while ``do()`` runs (``heard_by``)."""
    return [message["event"] for message in game_messages(public_id, do)]
