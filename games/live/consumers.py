"""The websocket endpoint ``/ws/v1/``: live game events and each user's event stream
(protocol: docs/websocket.md; every frame: docs/asyncapi.yaml).

Thin: authenticate (session cookie or ``Authorization: Bearer`` token, set by the
ASGI stack; Origin checked there too), authorise a subscription with the same
rule as the REST API (public games, or private ones the user sits in), join the
Channels groups, forward events. Each connection is in its user's group
(private updates: their own hand) and in the group of each game it subscribed to
(public events). A connection subscribed to the event stream passes on its user's
stream frames (challenges, games starting and ending, their turn), after sending the
stream's state (``games.read.streams``). State is never built here: events are built
after commit by ``games.live.publisher`` and ``games.live.outbox``.

Hostile clients: a frame that is not a JSON object of a known type gets an error
frame and the connection stays open; frames beyond the connection's rate
(``games.live.limits``) are dropped before they are parsed, and a client that keeps
sending is disconnected; a user holds at most ``WS_MAX_CONNECTIONS_PER_USER``
connections, and a client address ``WS_MAX_WATCHERS_PER_ADDRESS`` visitors' ones.
Every close code is in docs/websocket.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
from types import SimpleNamespace
from typing import Any, NoReturn, cast

from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.contrib.auth import SESSION_KEY
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from redis.exceptions import RedisError

from accounts.models import Profile
from accounts.scopes import PLAY, READ, has_scope, token_scopes
from games.errors import GameError, GameNotFound
from games.live import limits, presence, publisher
from games.live.publisher import game_group
from games.play import alone_pause, chat
from games.read import selectors
from games.read.streams import stream_state
from games.stream_events import STREAM
from remi_site import formats
from remi_site.client_ip import client_ip_from_scope
from remi_site.language import header_language
from remi_site.outage import DATABASE_DOWN
from remi_site.throttling import ScopedRateThrottle

logger = logging.getLogger(__name__)

# Close codes (docs/websocket.md).
CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403  # authenticated, but not allowed to connect this way
CLOSE_BANNED = 4410  # the account was banned while connected
CLOSE_DELETED = 4404  # the account was deleted while connected
# Why ``account_closed`` closes a user's connections, and the code each reason closes with.
CLOSE_CODES_BY_REASON = {
    "banned": CLOSE_BANNED,
    "deleted": CLOSE_DELETED,
    "deactivated": CLOSE_DELETED,
}
CLOSE_TOO_MANY_CONNECTIONS = 4429
CLOSE_FLOODING = 1008  # RFC 6455: policy violation
CLOSE_SERVICE_RESTART = 1012  # RFC 6455: the channel layer (Redis) was lost: reconnect
CLOSE_TRY_AGAIN_LATER = 1013  # RFC 6455: the channel layer or the database is down
MAX_SUBSCRIPTIONS = 50
MAX_FRAME_CHARS = 4096  # the largest legitimate message is a few dozen characters
# A game's public id (games.models.new_public_id); anything else is no game.
GAME_ID = re.compile(r"[a-z0-9]{1,16}")
PRESENCE_REFRESH_S = presence.PRESENCE_TTL_S / 3
# A ping refreshes presence at most this often (the refresher does it anyway).
PING_TOUCH_MIN_INTERVAL_S = 5.0


class _ChatScope:
    # The chat's rate (THROTTLE_CHAT) counts a user's lines over the API and here together.
    throttle_scope = "chat"


@database_sync_to_async
def _chat_post(user: Any, game_id: str, text: str) -> int | float:
    """Post a line as ``user`` (``games.play.chat``: seated, not muted); the line's id,
    or the seconds to wait (a float) when the user's chat rate is spent."""
    throttle = ScopedRateThrottle()
    # The throttle reads only the request's user (it counts per user) and the scope.
    request: Any = SimpleNamespace(user=user)
    if not throttle.allow_request(request, cast(Any, _ChatScope())):
        return float(throttle.wait() or 1.0)
    game = selectors.game_get(public_id=game_id, user=user)
    return chat.post_message(game=game, user=user, text=text).pk


@database_sync_to_async
def _subscription(user: Any, game_id: str) -> dict[str, Any]:
    game = selectors.game_get(public_id=game_id, user=user)
    seat = selectors.seat_of(game, user)
    return {
        "ply": game.ply,
        "status": game.status,
        "seat": None if seat is None else seat.position,
    }


@database_sync_to_async
def _bot_on_a_session(scope: Any, user: Any) -> bool:
    """A bot account signed in by a session cookie (one from before it became a bot):
    a bot connects with its API token, never as a browser."""
    session = scope.get("session")
    if session is None or str(session.get(SESSION_KEY, "")) != str(user.pk):
        return False  # authenticated by its token
    return Profile.objects.filter(user_id=user.pk, is_bot=True).exists()


@database_sync_to_async
def _stream_state(user: Any) -> list[dict[str, Any]]:
    return stream_state(user=user)


def _watching(scope: Any) -> bool:
    """A visitor asks to watch without an account (``/ws/v1/?watch=1``, no credentials
    sent): credentials that failed are still refused with 4401."""
    headers = dict(scope.get("headers") or [])
    return b"watch=1" in (scope.get("query_string") or b"").split(b"&") and (
        b"authorization" not in headers
    )


class GameEventsConsumer(AsyncJsonWebsocketConsumer):
    user: Any = None
    watcher = False  # a visitor without an account: public game events only
    games: set[str]
    streaming = False  # subscribed to the user's event stream
    _refresher: asyncio.Task[None] | None = None
    _slot = False  # holds one of the user's connection slots: a live connection
    _closing = False  # closed for flooding: the client's last frames are ignored
    _language: str | None = None

    async def dispatch(self, message: Any) -> None:
        # Every answer, a refused chat line's reason too, in the person's language (a
        # websocket has no middleware to choose it).
        if self._language is None:
            # From the handshake's Accept-Language alone: a database read here, in a
            # thread, could outlive a connection closed at once (a refused one).
            self._language = header_language(self.scope)
        with translation.override(self._language):
            await super().dispatch(message)

    async def connect(self) -> None:
        self.user = self.scope.get("user")
        self.games = set()
        self._frames = limits.FrameBucket.from_settings()
        self._dropped = 0  # frames dropped in a row for the rate
        self._touched_at = 0.0
        if self.user is None or not self.user.is_authenticated:
            if not _watching(self.scope):
                await self._refuse(CLOSE_UNAUTHENTICATED)
            # A visitor without an account watches public games: game events only.
            self.watcher = True
            if not await limits.watcher_slot_take(self.scope, self.channel_name):
                await self._refuse(CLOSE_TOO_MANY_CONNECTIONS)
            await self.accept()
            self._refresher = asyncio.create_task(self._refresh_presence())
            await self.send_json(
                {"type": "hello", "protocol": publisher.PROTOCOL_VERSION, "user": ""}
            )
            return
        if await _bot_on_a_session(self.scope, self.user) or not self._may(READ):
            await self._refuse(CLOSE_FORBIDDEN)
        if not await limits.connection_slot_take(self.user.pk, self.channel_name):
            logger.warning(
                "websocket refused: user %s has %s connections open (from %s)",
                self.user.pk,
                limits.max_connections_per_user(),
                client_ip_from_scope(self.scope),
            )
            await self._refuse(CLOSE_TOO_MANY_CONNECTIONS)
        self._slot = True
        try:
            await self.channel_layer.group_add(
                publisher.user_group(self.user.pk), self.channel_name
            )
        except (RedisError, OSError) as error:
            logger.warning("websocket refused: the channel layer is down (%s)", error)
            await self._refuse(CLOSE_TRY_AGAIN_LATER)
        await self.accept()
        await self._touch()
        self._refresher = asyncio.create_task(self._refresh_presence())
        await self.send_json(
            {
                "type": "hello",
                "protocol": publisher.PROTOCOL_VERSION,
                "user": self.user.get_username(),
            }
        )

    def _may(self, needed: str) -> bool:
        """Whether the connection's token has the scope (a session has them all)."""
        scopes = self.scope.get("token_scopes")
        return has_scope(token_scopes(None) if scopes is None else scopes, needed)

    async def _refuse(self, code: int) -> NoReturn:
        """Accept, then close with ``code``: a client sees the code (a refused
        handshake would only say 403)."""
        await self.accept()
        await self.close(code=code)
        # Stop now: a refused client need not send a disconnect, and waiting for
        # one would hold a task and a channel-layer read open until shutdown.
        raise StopConsumer

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        except (RedisError, OSError) as error:
            # Redis went away under the connection (a restart): close it cleanly so the
            # client reconnects and resyncs by ply, instead of an error in the server.
            logger.warning("websocket closed: the channel layer failed (%s)", error)
            if self._refresher is not None:
                self._refresher.cancel()
            with contextlib.suppress(Exception):
                await send({"type": "websocket.close", "code": CLOSE_SERVICE_RESTART})
        except DATABASE_DOWN:
            # Release what the connection holds (its slot, its groups): the client comes
            # back, and a slot kept would count against it. The guard around every
            # websocket (remi_site.outage) closes it with 1013.
            if self._refresher is not None:
                self._refresher.cancel()
            with contextlib.suppress(Exception):
                await self.disconnect(CLOSE_TRY_AGAIN_LATER)
            raise

    async def disconnect(self, code: int) -> None:
        if self._refresher is not None:
            self._refresher.cancel()
        if self.watcher:
            await limits.watcher_slot_release(self.scope, self.channel_name)
            for game_id in list(self.games):
                with contextlib.suppress(RedisError, OSError):
                    await self.channel_layer.group_discard(game_group(game_id), self.channel_name)
            return
        if not self._slot:
            return
        try:
            await self._leave_everything()
        except (RedisError, OSError) as error:
            # Nothing to clean up in a Redis that is gone: groups and presence expire.
            logger.warning("websocket cleanup skipped: the channel layer failed (%s)", error)

    async def _leave_everything(self) -> None:
        await limits.connection_slot_release(self.user.pk, self.channel_name)
        for game_id in list(self.games):
            await self.channel_layer.group_discard(game_group(game_id), self.channel_name)
        await self.channel_layer.group_discard(
            publisher.user_group(self.user.pk), self.channel_name
        )
        await database_sync_to_async(presence.presence_drop)(
            user_id=self.user.pk, channel=self.channel_name, games=sorted(self.games)
        )
        await database_sync_to_async(presence.presence_drop)(
            user_id=self.user.pk, channel=self.channel_name, games=[]
        )

    # ---------------------------------------------------------------- client messages

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        """Every frame: the rate first (in memory), then its size and JSON, so that a
        hostile frame never costs more than an error frame."""
        if self._closing:
            return
        if not self._frames.take():
            await self._drop_for_rate()
            return
        self._dropped = 0
        if text_data is None:
            await self._error("bad_message", _("send JSON text frames, not binary ones"))
            return
        if len(text_data) > MAX_FRAME_CHARS:
            await self._error(
                "too_large",
                ngettext(
                    "a message has at most %(count)s character",
                    "a message has at most %(count)s characters",
                    MAX_FRAME_CHARS,
                )
                % {"count": formats.number(MAX_FRAME_CHARS)},
            )
            return
        try:
            content = json.loads(text_data)
        except (ValueError, RecursionError):
            await self._error("bad_message", _("the message is not valid JSON"))
            return
        await self.receive_json(content)

    async def _drop_for_rate(self) -> None:
        """The first frame dropped in a row is answered; a client that goes on sending
        a whole burst more while limited is disconnected."""
        self._dropped += 1
        if self._dropped == 1:
            await self._error(
                "rate_limited",
                _("too many messages: this one and the next until retry_after were dropped"),
                retry_after=round(self._frames.retry_after_s(), 3),
            )
        elif self._dropped >= self._frames.burst:
            self._closing = True
            logger.warning(
                "websocket closed for flooding: user %s from %s",
                self.user.pk,
                client_ip_from_scope(self.scope),
            )
            await self.close(code=CLOSE_FLOODING)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict):
            await self._error("bad_message", _("send a JSON object"))
            return
        kind = content.get("type")
        if self.watcher and (kind == "chat" or "stream" in content):
            await self._error("not_authenticated", _("sign in to chat or to follow your events"))
        elif kind in ("subscribe", "unsubscribe") and "stream" in content:
            await self._stream(content, on=kind == "subscribe")
        elif kind == "subscribe":
            await self._subscribe(content)
        elif kind == "unsubscribe":
            await self._unsubscribe(content)
        elif kind == "ping":
            await self._ping()
        elif kind == "chat":
            await self._chat(content)
        elif isinstance(kind, str):
            await self._error(
                "unknown_type", _("unknown message type %(type)s") % {"type": repr(kind[:40])}
            )
        else:
            await self._error("bad_message", _("a message needs a type (string)"))

    async def _ping(self) -> None:
        if time.monotonic() - self._touched_at >= PING_TOUCH_MIN_INTERVAL_S:
            await self._touch()
        await self.send_json({"type": "pong"})

    async def _subscribe(self, content: dict[str, Any]) -> None:
        game_id = content.get("game")
        last_ply = content.get("ply")
        if not isinstance(game_id, str) or not (
            last_ply is None or (isinstance(last_ply, int) and not isinstance(last_ply, bool))
        ):
            await self._error("bad_message", _("subscribe needs game (string), ply (int or null)"))
            return
        if not GAME_ID.fullmatch(game_id):
            # Never a Channels group name made of client text: no such game.
            await self._error("not_found", _("no such game"), game=game_id[:40])
            return
        if game_id not in self.games and len(self.games) >= MAX_SUBSCRIPTIONS:
            await self._error(
                "too_many_subscriptions",
                ngettext(
                    "at most %(count)s game",
                    "at most %(count)s games",
                    MAX_SUBSCRIPTIONS,
                )
                % {"count": formats.number(MAX_SUBSCRIPTIONS)},
            )
            return
        # Join first, then read the ply: no event can fall between the two.
        await self.channel_layer.group_add(game_group(game_id), self.channel_name)
        try:
            info = await _subscription(self.user, game_id)
        except GameNotFound:
            await self.channel_layer.group_discard(game_group(game_id), self.channel_name)
            await self._error("not_found", _("no such game"), game=game_id)
            return
        self.games.add(game_id)
        await self._touch()
        await self.send_json({"type": "subscribed", "game": game_id, **info})
        # ``ply: null`` (nothing seen yet) of a game under way or over: read it first.
        stale = info["status"] != "lobby" if last_ply is None else last_ply != info["ply"]
        if stale:
            await self.send_json({"type": "resync", "game": game_id, "ply": info["ply"]})
        if not self.watcher and info["seat"] is not None and info["status"] == "active":
            # The one person of a game against bots is back: their paused turn goes on.
            await database_sync_to_async(alone_pause.resume_turn)(game_id=game_id, user=self.user)

    async def _unsubscribe(self, content: dict[str, Any]) -> None:
        game_id = content.get("game")
        if not isinstance(game_id, str):
            await self._error("bad_message", _("unsubscribe needs game (string)"))
            return
        if game_id in self.games:
            await self._stop_following(game_id)
        await self.send_json({"type": "unsubscribed", "game": game_id[:40]})

    async def _stop_following(self, game_id: str) -> None:
        self.games.discard(game_id)
        await self.channel_layer.group_discard(game_group(game_id), self.channel_name)
        if not self.watcher:
            await database_sync_to_async(presence.presence_drop)(
                user_id=self.user.pk, channel=self.channel_name, games=[game_id]
            )

    async def _stream(self, content: dict[str, Any], *, on: bool) -> None:
        """The user's event stream (challenges, games starting and ending, their turn).
        On subscribing, its state first: the stream is on before the state is read, so
        nothing is missed (an event may come twice: clients treat them as idempotent)."""
        if content.get("stream") != STREAM:
            await self._error(
                "bad_message", _('the only stream is "%(stream)s"') % {"stream": STREAM}
            )
            return
        self.streaming = on
        await self.send_json({"type": "subscribed" if on else "unsubscribed", "stream": STREAM})
        if on:
            for frame in await _stream_state(self.user):
                await self.send_json(frame)

    async def _chat(self, content: dict[str, Any]) -> None:
        game_id, text = content.get("game"), content.get("text")
        if not isinstance(game_id, str) or not isinstance(text, str):
            await self._error("bad_message", _("chat needs game (string), text (string)"))
            return
        if not GAME_ID.fullmatch(game_id):
            await self._error("not_found", _("no such game"), game=game_id[:40])
            return
        if not self._may(PLAY):
            await self._error(
                "insufficient_scope",
                _("this token lacks the scope %(scope)s needed here") % {"scope": PLAY},
                game=game_id,
                details={"scope": PLAY},
            )
            return
        try:
            sent = await _chat_post(self.user, game_id, text)
        except GameError as error:
            await self._error(error.code, error.message, game=game_id, details=error.details)
            return
        if isinstance(sent, float):
            await self._error(
                "throttled", "too many chat lines", game=game_id, retry_after=round(sent, 3)
            )
            return
        await self.send_json({"type": "chat_sent", "game": game_id, "id": sent})

    async def _error(self, code: str, message: str, **extra: Any) -> None:
        await self.send_json({"type": "error", "code": code, "message": message, **extra})

    # ---------------------------------------------------------------- presence

    async def _touch(self) -> None:
        self._touched_at = time.monotonic()
        if self.watcher:
            return  # a visitor is nobody's presence
        await database_sync_to_async(presence.presence_touch)(
            user_id=self.user.pk, channel=self.channel_name, games=sorted(self.games)
        )

    async def _refresh_presence(self) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            while True:
                await asyncio.sleep(PRESENCE_REFRESH_S)
                await self._touch()
                if self.watcher:
                    await limits.watcher_slot_refresh(self.scope, self.channel_name)
                else:
                    await limits.connection_slot_refresh(self.user.pk, self.channel_name)

    # ---------------------------------------------------------------- channel layer events

    async def game_event(self, message: dict[str, Any]) -> None:
        """A public event of a game this connection subscribed to."""
        if message["game"] in self.games:
            await self.send_json(
                {**message["event"], "game": message["game"], "ply": message["ply"]}
            )

    async def user_event(self, message: dict[str, Any]) -> None:
        """A private event for this user (their own hand): only their connections get it."""
        await self.send_json({**message["event"], "game": message["game"], "ply": message["ply"]})

    async def stream_event(self, message: dict[str, Any]) -> None:
        """A frame of this user's event stream, for the connections subscribed to it."""
        if self.streaming:
            await self.send_json(message["event"])

    async def game_access_ended(self, message: dict[str, Any]) -> None:
        """The user left a private game's lobby or was removed from it
        (``games.play.lobby.game_leave``): the connection stops following it at once,
        and says so; subscribing again is refused like any game they may not see."""
        game_id = message["game"]
        if game_id in self.games:
            await self._stop_following(game_id)
            await self.send_json({"type": "unsubscribed", "game": game_id})

    async def account_closed(self, message: dict[str, Any]) -> None:
        """The account was banned (``games.play.moderation.ban_enforce``) or deleted
        (``accounts.deletion``): every one of its connections closes at once."""
        self._closing = True
        await self.close(code=CLOSE_CODES_BY_REASON.get(message.get("reason", ""), CLOSE_BANNED))
