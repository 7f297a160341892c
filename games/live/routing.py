"""Websocket routes (Channels), mounted by remi_site/asgi.py."""

from django.urls import URLPattern, URLResolver, path

from games.live.consumers import GameEventsConsumer

websocket_urlpatterns: list[URLPattern | URLResolver] = [
    path("ws/v1/", GameEventsConsumer.as_asgi(), name="ws-events"),
]
