"""What a game's group on the channel layer hears: the events published while a test's
code runs."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer

from games.live.publisher import game_group


def heard(public_id: str, do: Callable[[], Any]) -> list[dict[str, Any]]:
    """The events the game's group receives (real channel layer) while ``do()`` runs
    with its commit hooks executed, until the group has been quiet for half a second."""
    layer = get_channel_layer()

    async def main() -> list[dict[str, Any]]:
        channel = await layer.new_channel()
        await layer.group_add(game_group(public_id), channel)
        await sync_to_async(do)()
        events = []
        while True:
            try:
                message = await asyncio.wait_for(layer.receive(channel), 0.5)
            except TimeoutError:
                return events
            events.append(message["event"])

    return async_to_sync(main)()
