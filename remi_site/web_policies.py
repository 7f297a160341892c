"""The browser policies every response carries (django-csp, django-permissions-policy),
the same in the embedded mode and in production."""

from __future__ import annotations

from typing import Any

from csp import constants as csp_constants

# Scripts and styles from the site's own files only, never inline: a player's name or
# a chat line that slipped through escaping still cannot run. The page's own websocket
# origin is added to connect-src per request (remi_site.csp). The API docs and the admin
# need no exception (remi_site.urls, tests/browser/test_csp.py).
CONTENT_SECURITY_POLICY: dict[str, Any] = {
    "DIRECTIVES": {
        "default-src": [csp_constants.SELF],
        "script-src": [csp_constants.SELF],
        "style-src": [csp_constants.SELF],
        # data: for the inline favicon and the images in the vendored CSS.
        "img-src": [csp_constants.SELF, "data:"],
        "connect-src": [csp_constants.SELF],
        "font-src": [csp_constants.SELF],
        "object-src": [csp_constants.NONE],
        "base-uri": [csp_constants.SELF],
        "form-action": [csp_constants.SELF],
        "frame-ancestors": [csp_constants.NONE],
    },
}

# Powerful browser features the site never uses: denied to it and to anything it embeds.
PERMISSIONS_POLICY: dict[str, list[str]] = {
    feature: []
    for feature in (
        "accelerometer", "camera", "display-capture", "geolocation",
        "gyroscope", "hid", "idle-detection", "magnetometer", "microphone", "midi",
        "payment", "serial", "usb", "xr-spatial-tracking",
    )
}  # fmt: skip
