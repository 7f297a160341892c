"""Websocket tests close what they open.

A test that ends with a communicator's application still running leaves a consumer
reading the channel layer; pytest-asyncio cancels it as the test's event loop closes
and waits for it. Such a read whose cancellation was lost (the layer's Redis read
timeout did that, see settings.CHANNEL_LAYERS) hung a whole CI run. So after each
test its applications still running get a moment to end by themselves (a refused
connection's does, once it has sent its close), then the disconnect a browser would
send, and the test fails, naming how many it left open.
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
    """End the applications of the communicators made since the last call that still
    run; how many did not end by themselves."""
    running = [communicator for communicator in _created if _running(communicator)]
    _created.clear()
    left = 0
    for loop in {_loop(communicator) for communicator in running}:
        if not loop.is_closed() and not loop.is_running():
            of_loop = [communicator for communicator in running if _loop(communicator) is loop]
            left += loop.run_until_complete(_end(of_loop))
    return left


def _running(communicator: ApplicationCommunicator) -> bool:
    return communicator._future is not None and not communicator._future.done()


def _loop(communicator: ApplicationCommunicator) -> asyncio.AbstractEventLoop:
    return _future(communicator).get_loop()


async def _end(communicators: list[ApplicationCommunicator]) -> int:
    """Give the applications a moment, then disconnect those still running (``wait``
    raises what an application raised); how many needed it."""
    await asyncio.wait([_future(c) for c in communicators], timeout=GRACE_S)
    left = [communicator for communicator in communicators if _running(communicator)]
    for communicator in left:
        await communicator.send_input({"type": "websocket.disconnect", "code": 1000})
        await communicator.wait(DISCONNECT_TIMEOUT_S)
    return len(left)


def _future(communicator: ApplicationCommunicator) -> asyncio.Future[Any]:
    assert communicator._future is not None
    return communicator._future
