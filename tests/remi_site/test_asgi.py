"""Websocket authentication and origin checks of the ASGI application."""

from __future__ import annotations

import pytest
from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.testing import WebsocketCommunicator

from accounts.ws_auth import TokenAuthMiddleware

pytestmark = pytest.mark.django_db(transaction=True)


class WhoAmI(AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        await self.accept()
        user = self.scope["user"]
        await self.send_json({"user": user.username if user.is_authenticated else None})


app = AuthMiddlewareStack(TokenAuthMiddleware(WhoAmI.as_asgi()))


async def who(headers: list[tuple[bytes, bytes]]) -> object:
    communicator = WebsocketCommunicator(app, "/ws/test/", headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    message = await communicator.receive_json_from()
    await communicator.disconnect()
    return message["user"]


async def test_a_bearer_token_authenticates_a_websocket(user_factory, token_factory):
    user = await database_sync_to_async(user_factory)(username="wsuser")
    _token, raw = await database_sync_to_async(token_factory)(user)

    assert await who([(b"authorization", f"Bearer {raw}".encode())]) == "wsuser"


async def test_a_bad_token_leaves_the_websocket_anonymous():
    assert await who([(b"authorization", b"Bearer remi_nonsense")]) is None


async def test_no_credentials_is_anonymous():
    assert await who([]) is None


async def test_websockets_from_a_foreign_origin_are_refused():
    from remi_site.asgi import application

    communicator = WebsocketCommunicator(
        application, "/ws/anything/", headers=[(b"origin", b"https://evil.example")]
    )
    connected, _ = await communicator.connect()

    assert not connected
