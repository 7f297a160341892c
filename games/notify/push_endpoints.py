"""Where the server may send a push, decided by address rather than by spelling.

A push endpoint is a URL that a browser hands us, so whoever holds an account chooses
where the server sends requests. ``endpoint_destination`` resolves the endpoint's
host once, the way the connection would (``getaddrinfo`` also reads ``127.1``,
``0x7f000001`` or ``2130706433`` as 127.0.0.1), and refuses it unless every address
is public; the push is then sent to that very address (``push_transport``), so a DNS
answer that changes in between (rebinding) changes nothing. Beyond that, only the
hosts of the browsers' push services are accepted (``PUSH_SERVICE_HOSTS``, see
docs/push.md). ``PUSH_ALLOW_LOCAL_ENDPOINTS`` (tests) lets any address and http:// by.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext
from urllib3.util.connection import allowed_gai_family

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

# IPv6 prefixes whose last 32 bits name an IPv4 host that a gateway would reach
# (NAT64, RFC 6052); the IPv4 address must be public too.
_NAT64 = ipaddress.ip_network("64:ff9b::/96")


class EndpointRefused(Exception):
    """The server will not send to this endpoint; ``message`` says why, for people."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class EndpointUnresolved(EndpointRefused):
    """The endpoint's host name has no address now (it may have one later)."""


@dataclass(frozen=True)
class Destination:
    """A checked endpoint: the host as named in the URL (for TLS and ``Host``) and the
    address that was checked, which is the one to connect to."""

    scheme: str
    host: str
    port: int
    address: str

    @property
    def host_header(self) -> str:
        name = f"[{self.host}]" if ":" in self.host else self.host
        default = 443 if self.scheme == "https" else 80
        return name if self.port == default else f"{name}:{self.port}"


def endpoint_destination(endpoint: str) -> Destination:
    """Where a push to ``endpoint`` goes, or ``EndpointRefused`` saying why it may not."""
    allow_local = bool(settings.PUSH_ALLOW_LOCAL_ENDPOINTS)
    scheme, host, port = _parts(endpoint, allow_local=allow_local)
    if not allow_local:
        if port != 443:
            raise EndpointRefused(gettext("A push service is reached on the HTTPS port (443)."))
        if not is_known_push_service(host):
            raise EndpointRefused(
                gettext("This address is not one of the browsers' push services.")
            )
    addresses = resolve(host, port)
    if not allow_local and not all(is_public(address) for address in addresses):
        raise EndpointRefused(
            gettext("This push address leads to a private or local network, not to the Internet.")
        )
    return Destination(scheme=scheme, host=host, port=port, address=str(addresses[0]))


def _parts(endpoint: str, *, allow_local: bool) -> tuple[str, str, int]:
    """The scheme, host and port of ``endpoint``, refusing anything but a plain URL (no
    user name, no characters that parsers read differently)."""
    schemes = ("https", "http") if allow_local else ("https",)
    not_a_url = EndpointRefused(gettext("A push endpoint is an https:// address."))
    if not endpoint.isascii() or any(c.isspace() or c in "\\\x00" for c in endpoint):
        raise not_a_url
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        raise not_a_url from None
    if parts.scheme not in schemes or not parts.hostname or "@" in parts.netloc:
        raise not_a_url
    return parts.scheme, parts.hostname, port or (443 if parts.scheme == "https" else 80)


def is_known_push_service(host: str) -> bool:
    """Whether ``host`` is (under) one of ``PUSH_SERVICE_HOSTS``; an empty list lets
    every public host by."""
    allowed = [str(name).lower().strip(".") for name in settings.PUSH_SERVICE_HOSTS]
    name = host.lower().rstrip(".")
    return not allowed or any(name == a or name.endswith(f".{a}") for a in allowed)


def resolve(host: str, port: int) -> list[IPAddress]:
    """Every address ``host`` has now, as the connection would look it up (numeric
    forms included), or ``EndpointUnresolved``."""
    try:
        answers = socket.getaddrinfo(
            host, port, family=allowed_gai_family(), type=socket.SOCK_STREAM
        )
    except (OSError, UnicodeError):
        raise EndpointUnresolved(_not_found()) from None
    addresses: list[IPAddress] = []
    for _family, _type, _proto, _name, sockaddr in answers:
        address = ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0])
        if address not in addresses:
            addresses.append(address)
    if not addresses:
        raise EndpointUnresolved(_not_found())
    return addresses


def _not_found() -> str:
    return gettext("The push service's address could not be found.")


def is_public(address: IPAddress) -> bool:
    """Whether ``address`` is on the public Internet: global, not multicast or
    reserved, and no IPv6 form (mapped, 6to4, Teredo, NAT64) of an IPv4 address that
    is not."""
    if isinstance(address, ipaddress.IPv6Address):
        for inner in _embedded_ipv4(address):
            if not is_public(inner):
                return False
    return address.is_global and not (address.is_multicast or address.is_reserved)


def _embedded_ipv4(address: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    inner: list[ipaddress.IPv4Address] = []
    if address.ipv4_mapped is not None:
        inner.append(address.ipv4_mapped)
    if address.sixtofour is not None:
        inner.append(address.sixtofour)
    if address.teredo is not None:
        inner.extend(address.teredo)
    if address in _NAT64:
        inner.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
    return inner
