"""The websockets of the account-lifecycle machine: one event loop in a thread of its
own drives every communicator, so that the machine's synchronous steps can wait on
frames; and a browser's push subscription keys."""

from __future__ import annotations

import asyncio
import base64
import json
import threading
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any, TypeVar

from channels.testing import WebsocketCommunicator
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

FRAME_DEADLINE_S = 5.0
QUIET_S = 0.03  # a socket with nothing for this long has nothing queued

T = TypeVar("T")


class SocketLoop:
    """One event loop, in a thread of its own, for every websocket of the run: the
    machine's steps are synchronous, the communicators are not."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="seams-sockets")
        self.thread.start()

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(30)

    def stop(self) -> None:
        # Whatever the applications left (a channel layer's read) ends before the loop.
        self.run(_cancel_the_rest())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


async def _cancel_the_rest() -> None:
    tasks = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


@dataclass
class Socket:
    """A person's websocket: the frames it received, and the code it was closed with."""

    communicator: WebsocketCommunicator
    frames: list[dict[str, Any]] = field(default_factory=list)
    closed: int | None = None

    async def drain(self) -> None:
        while self.closed is None and not await self.communicator.receive_nothing(QUIET_S):
            output = await self.communicator.receive_output(FRAME_DEADLINE_S)
            if output["type"] == "websocket.close":
                self.closed = output.get("code", 1000)
            else:
                self.frames.append(json.loads(output["text"]))


def push_keys() -> dict[str, str]:
    key = ec.generate_private_key(ec.SECP256R1()).public_key()
    point = key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )

    def b64(raw: bytes) -> str:
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

    return {"p256dh": b64(point), "auth": b64(b"0123456789abcdef")}
