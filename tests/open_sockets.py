"""Websocket tests close what they open.

A test that ends with a communicator's application still running leaves a consumer
waiting on the channel layer's blocking pop from Redis. pytest-asyncio then cancels
it as the test's event loop closes and waits for it; when that cancellation is lost
inside the Redis client's timed read (seen once in a CI run), the wait never ends and
the whole run hangs. So after each test its applications still running get a moment
to end by themselves (a refused connection's does, once it has sent its close), then
the disconnect a browser would send, and the test fails, naming how many it left open.
"""

from __future__ import annotations

import asyncio
from typing import Any

from asgiref.testing import ApplicationCommunicator

# How long an application has to end by itself, then once told the connection closed.
GRACE_S = 3
DISCONNECT_TIMEOUT_S = 5

_created: list[ApplicationCommunicator] = []
_original_init = ApplicationCommunicator.__init__


def _recorded_init(self: ApplicationCommunicator, *args: Any, **kwargs: Any) -> None:
    _original_init(self, *args, **kwargs)
    _created.append(self)


def watch() -> None:
    """Record every communicator made from now on (once per test process)."""
    ApplicationCommunicator.__init__ = _recorded_init  # type: ignore[method-assign]


def close_those_left_open() -> int:
    """Disconnect the communicators made since the last call whose application still
    runs; how many there were."""
    running = [
        communicator._future
        for communicator in _created
        if communicator._future is not None and not communicator._future.done()
    ]
    loops = {future.get_loop() for future in running}
    for loop in loops:
        if not loop.is_closed() and not loop.is_running():
            of_loop = [future for future in running if future.get_loop() is loop]
            loop.run_until_complete(asyncio.wait(of_loop, timeout=GRACE_S))
    left = [
        communicator
        for communicator in _created
        if communicator._future is not None and not communicator._future.done()
    ]
    _created.clear()
    for communicator in left:
        loop = communicator._future.get_loop()  # type: ignore[union-attr]
        if not loop.is_closed() and not loop.is_running():
            loop.run_until_complete(_disconnect(communicator))
    return len(left)


async def _disconnect(communicator: ApplicationCommunicator) -> None:
    await communicator.send_input({"type": "websocket.disconnect", "code": 1000})
    await communicator.wait(DISCONNECT_TIMEOUT_S)
    # The connection is over: what it was sent and never read is of no interest.
    assert communicator._future is not None
    if not communicator._future.cancelled():
        with_error = communicator._future.exception()
        if with_error is not None and not isinstance(with_error, asyncio.CancelledError):
            raise with_error
