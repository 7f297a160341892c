"""The HTTP session a push is sent with: it connects to the address that
``push_endpoints`` checked and nowhere else, with TLS verified against the host name.

``pywebpush`` posts through a ``requests`` session. The adapter mounted here keeps the
URL (the VAPID audience, the ``Host`` header, SNI and the certificate's name all come
from the host name) but hands ``requests`` a connection pool for the checked address,
so no second DNS lookup happens between the check and the connection.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import requests
from django.conf import settings
from requests.adapters import HTTPAdapter

from games.notify.push_endpoints import Destination


class PinnedAdapter(HTTPAdapter):
    """Sends every request to one checked ``Destination`` (and refuses a request for
    any other host, a redirect's say)."""

    def __init__(self, destination: Destination) -> None:
        self.destination = destination
        super().__init__(pool_connections=1, pool_maxsize=1, max_retries=0)

    def build_connection_pool_key_attributes(
        self, request: requests.PreparedRequest, verify: Any, cert: Any = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        host_params, pool_kwargs = super().build_connection_pool_key_attributes(
            request, verify, cert
        )
        target = self.destination
        parts = urlsplit(request.url or "")
        default_port = 443 if parts.scheme == "https" else 80
        if (parts.scheme, parts.hostname, parts.port or default_port) != (
            target.scheme,
            target.host,
            target.port,
        ):
            raise requests.exceptions.InvalidURL(
                f"{request.url} is not the checked push endpoint", request=request
            )
        host_params.update(host=target.address, port=target.port)
        if target.scheme == "https":
            # Connect to the address, but speak TLS to the name: SNI and the
            # certificate's host name are the endpoint's, and the certificate is checked.
            pool_kwargs.update(
                server_hostname=target.host, assert_hostname=target.host, cert_reqs="CERT_REQUIRED"
            )
        return host_params, pool_kwargs

    def add_headers(self, request: requests.PreparedRequest, **kwargs: Any) -> None:
        # The pool is the address's; the Host header must still name the push service.
        request.headers["Host"] = self.destination.host_header


def pinned_session(destination: Destination) -> requests.Session:
    """A session that reaches ``destination`` only: no proxy, no ``.netrc`` or other
    environment settings, no redirect (a redirect could point anywhere)."""
    session = requests.Session()
    session.trust_env = False
    session.max_redirects = 0
    session.verify = str(settings.PUSH_CA_BUNDLE) or True
    adapter = PinnedAdapter(destination)
    session.mount("https://", adapter)
    session.mount("http://", adapter)
    return session
