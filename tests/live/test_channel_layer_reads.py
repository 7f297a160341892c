"""A consumer's read of the channel layer ends when it is cancelled, as it is each
time a websocket closes: a read that went on would hold a task and a pooled Redis
connection until the server stops."""

from __future__ import annotations

import asyncio
import random

from channels.layers import get_channel_layer

# With a read timeout on the layer's Redis connections, about one cancellation in
# eight was lost (200 tries): all of these pass only if none is.
TRIES = 120
# A read ends at once when cancelled; a lost cancellation keeps it for good.
ENDS_WITHIN_S = 3


async def test_a_cancelled_read_of_the_channel_layer_ends() -> None:
    layer = get_channel_layer()
    rng = random.Random(5)
    still_reading = 0
    for _ in range(TRIES):
        channel = await layer.new_channel()
        read = asyncio.ensure_future(layer.receive(channel))
        # Cancelled at every stage of the read: before it starts, as it sends the
        # blocking pop, and while Redis holds it.
        await asyncio.sleep(rng.choice([0, 0.001, 0.003, 0.01, 0.05]))
        read.cancel()
        done, _ = await asyncio.wait([read], timeout=ENDS_WITHIN_S)
        if not done:
            still_reading += 1
            read.cancel()
            await asyncio.wait([read], timeout=ENDS_WITHIN_S)
    assert still_reading == 0, f"{still_reading} of {TRIES} cancelled reads went on"
