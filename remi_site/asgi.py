"""ASGI entry point: HTTP goes to Django, websockets to the Channels routes.

Run with ``uvicorn remi_site.asgi:application``. Websockets authenticate with the
session cookie (AuthMiddlewareStack) or an ``Authorization: Bearer`` API token, and
must come from an allowed host (Origin check).
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "remi_site.settings")

# Set Django up before importing anything that touches models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from accounts.ws_auth import TokenAuthMiddleware  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(TokenAuthMiddleware(URLRouter(websocket_urlpatterns)))
        ),
    }
)
