"""Notification endpoints: your choices, your browsers' push subscriptions, your
calendar feed's URL, and muting a game.

Thin like the other views: parse with an input serializer, call ``games.notify``,
answer with a plain dict that the output serializer describes.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.authentication import request_user
from games.api import notify_serializers as ns
from games.api.views import GAME_ID, GameAPIView
from games.errors import GameNotFound
from games.models import PushSubscription
from games.notify import links, preferences, push, recipients
from games.read import queue, selectors
from remi_site.api_errors import error_responses


def notification_settings(user: Any) -> dict[str, Any]:
    """The body of ``GET /me/notifications``."""
    row = preferences.preferences_for(user)
    return {
        "email_turns": row.email_turns,
        "reminders": row.reminders,
        "reminder_hours": preferences.reminder_hours_of(row),
        "email_strikes": row.email_strikes,
        "email_game_over": row.email_game_over,
        "time_zone": row.time_zone,
        "push_turns": row.push_turns,
        "push_challenges": row.push_challenges,
        "push_game_over": row.push_game_over,
        "push_public_key": push.public_key(),
        "push_subscriptions": PushSubscription.objects.filter(user=user).count(),
        "calendar_url": links.calendar_url(preferences.calendar_secret_for(user)),
        "muted_games": [game.public_id for game in preferences.muted_games(user)],
    }


class NotificationSettingsView(GameAPIView):
    @extend_schema(
        operation_id="notification_settings_retrieve",
        tags=["account"],
        summary="Your notification choices",
        description="Which emails you get, when you are reminded, the time zone of your "
        "messages, which Web Push notifications you opted in to, your calendar feed and "
        "the games you muted. Every email also carries a one-click unsubscribe link.",
        responses={200: ns.NotificationSettingsSerializer, **error_responses(401, 429)},
    )
    def get(self, request: Request) -> Response:
        return Response(notification_settings(request_user(request)))

    @extend_schema(
        operation_id="notification_settings_update",
        tags=["account"],
        summary="Change your notification choices",
        description="Send only what changes.",
        request=ns.NotificationSettingsUpdateSerializer,
        responses={
            200: ns.NotificationSettingsSerializer,
            **error_responses(400, 401, 429),
        },
    )
    def patch(self, request: Request) -> Response:
        data = ns.NotificationSettingsUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = request_user(request)
        preferences.preferences_update(user=user, changes=data.validated_data)
        return Response(notification_settings(user))


class PushSubscriptionsView(GameAPIView):
    @extend_schema(
        operation_id="push_subscriptions_create",
        tags=["account"],
        summary="Receive Web Push notifications in a browser",
        description="Send the browser's `PushSubscription` (subscribed with "
        "`push_public_key` of `GET /me/notifications`). Which kinds arrive is chosen with "
        "`push_turns`, `push_challenges` and `push_game_over`. An endpoint registered "
        "before becomes yours. Only the browsers' push services are accepted (an "
        "endpoint whose host has a private or local address is refused, 400), and at "
        "most `PUSH_SUBSCRIPTIONS_PER_USER` browsers (10) per account (409 "
        "`too_many_push_subscriptions` beyond).",
        request=ns.PushSubscriptionCreateSerializer,
        responses={
            201: ns.PushSubscriptionSerializer,
            **error_responses(400, 401, 409, 429),
        },
    )
    def post(self, request: Request) -> Response:
        data = ns.PushSubscriptionCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        row = push.subscription_add(
            user=request_user(request),
            endpoint=data.validated_data["endpoint"],
            p256dh=data.validated_data["keys"]["p256dh"],
            auth=data.validated_data["keys"]["auth"],
        )
        return Response(
            {"endpoint": row.endpoint, "created_at": row.created_at},
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(
        operation_id="push_subscriptions_delete",
        tags=["account"],
        summary="Stop Web Push notifications to a browser",
        description="Forget the subscription of `endpoint` (nothing happens if it is not "
        "yours or not known).",
        request=ns.PushSubscriptionDeleteSerializer,
        responses={204: None, **error_responses(400, 401, 429)},
    )
    def delete(self, request: Request) -> Response:
        data = ns.PushSubscriptionDeleteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        push.subscription_remove(
            user=request_user(request), endpoint=data.validated_data["endpoint"]
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class CalendarResetView(GameAPIView):
    @extend_schema(
        operation_id="calendar_reset",
        tags=["account"],
        summary="Give your calendar feed a new secret URL",
        description="The old URL stops working at once (e.g. after sharing it by mistake).",
        request=None,
        responses={200: ns.CalendarSerializer, **error_responses(401, 429)},
    )
    def post(self, request: Request) -> Response:
        secret = preferences.calendar_reset(user=request_user(request))
        return Response({"calendar_url": links.calendar_url(secret)})


class GameMuteView(GameAPIView):
    @extend_schema(
        operation_id="games_mute",
        tags=["games"],
        summary="Mute a game: no messages about it",
        description="No email or push about this game reaches you any more (your turn, "
        "reminders, timeouts, its end), and its deadlines leave your calendar feed.",
        parameters=[GAME_ID],
        request=None,
        responses={200: ns.GameMuteSerializer, **error_responses(401, 404, 429)},
    )
    def post(self, request: Request, game_id: str) -> Response:
        user = request_user(request)
        game = selectors.game_get(public_id=game_id, user=user)
        preferences.game_mute(user=user, game=game)
        return Response({"muted": True})

    @extend_schema(
        operation_id="games_unmute",
        tags=["games"],
        summary="Unmute a game",
        parameters=[GAME_ID],
        request=None,
        responses={200: ns.GameMuteSerializer, **error_responses(401, 404, 429)},
    )
    def delete(self, request: Request, game_id: str) -> Response:
        user = request_user(request)
        game = selectors.game_get(public_id=game_id, user=user)
        preferences.game_unmute(user=user, game_id=game.public_id)
        return Response({"muted": False})


class GameSeenView(GameAPIView):
    @extend_schema(
        operation_id="games_seen",
        tags=["games"],
        summary="Say that you have the game's table in view",
        description="The table's page sends this about every 30 s while it is visible and "
        "you used it in the last two minutes. While it comes, a “your turn” email or "
        "push waits; one is sent if the turn is still unseen `TURN_NOTICE_UNSEEN_S` (300) "
        "seconds after it began. A tab left open but hidden or idle sends nothing, so the "
        "message goes at once.",
        parameters=[GAME_ID],
        request=None,
        responses={204: None, **error_responses(401, 404, 429)},
    )
    def post(self, request: Request, game_id: str) -> Response:
        user = request_user(request)
        if not queue.plays_in(public_id=game_id, user=user):
            raise GameNotFound(_("no such game"))
        recipients.table_seen(user_id=user.pk, game_id=game_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
