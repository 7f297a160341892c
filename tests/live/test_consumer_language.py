"""The websocket answers in the language of the browser that opened it (Accept-Language);
the error's code is the same in every language."""

from __future__ import annotations

from typing import Any

import pytest
from channels.testing import WebsocketCommunicator

from remi_site.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 5  # seconds a test waits for a frame the server must send


def client(token: str | None, accept_language: str = "") -> WebsocketCommunicator:
    """A signed-in client (API token), or a visitor who watches public games."""
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    if token is not None:
        headers.append((b"authorization", f"Bearer {token}".encode()))
    if accept_language:
        headers.append((b"accept-language", accept_language.encode()))
    path = "/ws/v1/" if token is not None else "/ws/v1/?watch=1"
    return WebsocketCommunicator(application, path, headers=headers)


async def error_for_unknown_type(communicator: WebsocketCommunicator) -> dict[str, Any]:
    connected, _ = await communicator.connect(timeout=TIMEOUT)
    assert connected
    assert (await communicator.receive_json_from(timeout=TIMEOUT))["type"] == "hello"
    # Sent raw: an undocumented type is the point, and the contract check refuses one.
    await communicator.send_input({"type": "websocket.receive", "text": '{"type": "dance"}'})
    frame = await communicator.receive_json_from(timeout=TIMEOUT)
    await communicator.disconnect()
    return frame


async def test_a_visitor_gets_the_language_of_their_browser() -> None:
    english = await error_for_unknown_type(client(None))
    polish = await error_for_unknown_type(client(None, "pl-PL,pl;q=0.9"))

    assert english == {"type": "error", "code": "unknown_type", "message": english["message"]}
    assert english["message"] == "unknown message type 'dance'"
    assert polish["code"] == "unknown_type"
    assert polish["message"] == "nieznany typ wiadomości 'dance'"
