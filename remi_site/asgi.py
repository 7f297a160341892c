"""ASGI entry point: HTTP goes to Django, websockets to the Channels routes.

Run with ``uvicorn remi_site.asgi:application``. Websockets authenticate with the
session cookie (AuthMiddlewareStack) or an ``Authorization: Bearer`` API token, and
must come from an allowed host (Origin check). First of all, the client's address is
decided once (``PROXY_COUNT``, remi_site.client_ip) and put in the scope.
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "remi_site.settings")

# Django's ASGI handler, serving each request in one trip to a worker thread.
from remi_site.asgi_http import get_asgi_application  # noqa: E402

# Set Django up before importing anything that touches models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from accounts.ws_auth import TokenAuthMiddleware  # noqa: E402
from games.live.routing import websocket_urlpatterns  # noqa: E402
from remi_site.client_ip import ClientAddressMiddleware  # noqa: E402
from remi_site.outage import WebsocketDatabaseGuard  # noqa: E402
from remi_site.ws_origin import OriginCheck  # noqa: E402

application = ClientAddressMiddleware(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": OriginCheck(
                WebsocketDatabaseGuard(
                    AuthMiddlewareStack(TokenAuthMiddleware(URLRouter(websocket_urlpatterns)))
                )
            ),
        }
    )
)


def _settle() -> None:
    """Import what the first requests would (every view, through the URL
    configuration), then let the garbage collector run between requests only, and
    never walk what is loaded by then (``remi_site.collector``)."""
    from django.urls import get_resolver

    from remi_site import collector

    get_resolver().url_patterns  # noqa: B018  (imports the views)
    collector.settle()


_settle()
