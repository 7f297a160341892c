"""Websocket authentication by API token, for programs (browsers use the session).

A client that sends ``Authorization: Bearer <token>`` in the handshake gets that
token's user in ``scope["user"]`` and the token's scopes in ``scope["token_scopes"]``
(absent for a session, which has every scope). Goes inside channels' AuthMiddlewareStack, so a
session user, when there is one, is kept, unless the account is banned: a banned
account is nobody here, by session or by token (the consumer closes with 4401).
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.middleware import BaseMiddleware
from django.contrib.auth.models import AnonymousUser
from rest_framework import exceptions

from accounts.authentication import ApiTokenAuthentication
from accounts.moderation.selectors import ban_in_force


@database_sync_to_async
def _user_for_token(raw: bytes) -> tuple[Any, list[str]]:
    try:
        user, token = ApiTokenAuthentication().authenticate_credentials(raw)
    except exceptions.AuthenticationFailed:
        return AnonymousUser(), []
    return user, list(token.scopes)


@database_sync_to_async
def _is_banned(user_id: int) -> bool:
    return ban_in_force(user_id=user_id) is not None


class TokenAuthMiddleware(BaseMiddleware):
    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        user = scope.get("user")
        if user is not None and user.is_authenticated and await _is_banned(user.pk):
            user = AnonymousUser()
            scope = dict(scope, user=user)
        if user is None or not user.is_authenticated:
            header = dict(scope.get("headers", [])).get(b"authorization", b"")
            scheme, _, raw = header.partition(b" ")
            if scheme.lower() == b"bearer" and raw.strip():
                user, scopes = await _user_for_token(raw.strip())
                scope = dict(scope, user=user, token_scopes=scopes)
        return await super().__call__(scope, receive, send)
