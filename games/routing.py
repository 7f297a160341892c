"""Websocket routes (Channels), mounted by remi_site/asgi.py."""

from django.urls import URLPattern, URLResolver

websocket_urlpatterns: list[URLPattern | URLResolver] = []
