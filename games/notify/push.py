"""Web Push (RFC 8030): browser notifications through each browser's push service,
encrypted for the browser (RFC 8291, ``aes128gcm``) and signed with the site's VAPID
key (RFC 8292) by ``pywebpush``.

The VAPID key comes from ``VAPID_PRIVATE_KEY``; without it, from ``VAPID_KEY_FILE``,
made once (the embedded mode). A browser subscribes through the API with the public
key (``public_key``); a subscription its push service says is gone (404, 410) is
deleted.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import json
import logging
import os
import secrets
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.db import transaction
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from games.errors import InvalidRequest
from games.models import PushSubscription

logger = logging.getLogger(__name__)

# How long a push service keeps a message for a browser that is offline.
PUSH_TTL_S = 24 * 3600


# ------------------------------------------------------------------ the site's key


@cache
def vapid_key() -> Vapid:
    """The site's VAPID key (read once per process)."""
    configured = str(settings.VAPID_PRIVATE_KEY).strip()
    if configured:
        if "-----BEGIN" in configured:
            return Vapid.from_pem(configured.encode())
        return Vapid.from_string(configured)
    return _key_from_file(Path(settings.VAPID_KEY_FILE))


def _key_from_file(path: Path) -> Vapid:
    """The key in ``path``, made first if there is none. The web server and the worker
    may both start at once: the file is written aside and linked into place, so the
    first one wins and the other reads it."""
    if not path.exists():
        made = Vapid()
        made.generate_keys()
        path.parent.mkdir(parents=True, exist_ok=True)
        aside = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
        aside.write_bytes(made.private_pem())
        aside.chmod(0o600)
        try:
            os.link(aside, path)
        except FileExistsError:
            pass
        finally:
            aside.unlink()
    return Vapid.from_pem(path.read_bytes())


def public_key() -> str:
    """The application server key a browser subscribes with (base64url, uncompressed
    P-256 point)."""
    raw = vapid_key().public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return _b64url(raw)


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _b64url_decode(text: str) -> bytes | None:
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None


# ------------------------------------------------------------------ subscriptions


def endpoint_error(endpoint: str) -> str | None:
    """Why the server will not send to ``endpoint``, or None. Push services are
    public HTTPS servers: an address on this machine or a private network is refused
    (unless ``PUSH_ALLOW_LOCAL_ENDPOINTS``), so that a subscription cannot make the
    server send requests inside its own network."""
    parts = urlsplit(endpoint)
    allow_local = bool(settings.PUSH_ALLOW_LOCAL_ENDPOINTS)
    schemes = ("https", "http") if allow_local else ("https",)
    if parts.scheme not in schemes or not parts.hostname:
        return "a push endpoint is an https:// URL"
    if allow_local:
        return None
    host = parts.hostname
    if host == "localhost" or host.endswith((".localhost", ".local", ".internal")):
        return "a push endpoint is on a public server"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return None  # a name
    if not address.is_global:
        return "a push endpoint is on a public server"
    return None


def keys_error(p256dh: str, auth: str) -> dict[str, str]:
    """What is wrong with a subscription's keys, by field."""
    errors: dict[str, str] = {}
    point = _b64url_decode(p256dh)
    try:
        if point is None:
            raise ValueError(p256dh)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        errors["p256dh"] = "a P-256 public key (base64url, uncompressed point)"
    secret = _b64url_decode(auth)
    if secret is None or len(secret) != 16:
        errors["auth"] = "a 16-byte authentication secret (base64url)"
    return errors


def subscription_add(*, user: Any, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    """Register a browser's subscription for ``user`` (an endpoint registered before,
    by them or by whoever used the browser before, becomes theirs)."""
    errors = keys_error(p256dh, auth)
    problem = endpoint_error(endpoint)
    if problem:
        errors["endpoint"] = problem
    if errors:
        raise InvalidRequest("; ".join(errors.values()), details={"fields": errors})
    with transaction.atomic():
        row, _ = PushSubscription.objects.update_or_create(
            endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth}
        )
    return row


def subscription_remove(*, user: Any, endpoint: str) -> bool:
    """Forget the user's subscription of ``endpoint``; False when there was none."""
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return bool(deleted)


# ------------------------------------------------------------------ sending


def _session() -> requests.Session:
    """An HTTP session that follows no redirect: a push service answers where it is
    asked, and a redirect could point the server at its own network."""
    session = requests.Session()
    session.max_redirects = 0
    return session


def push_send(*, user_id: int, payload: Mapping[str, Any], ttl: int = PUSH_TTL_S) -> int:
    """Send ``payload`` (JSON: ``kind``, ``title``, ``body``, ``url``, ``tag``, read by
    ``static/sw.js``) to every browser the user subscribed; returns how many push
    services took it. Failures are logged, never raised: a push is a courtesy."""
    subscriptions = list(PushSubscription.objects.filter(user_id=user_id))
    if not subscriptions:
        return 0
    data = json.dumps(dict(payload))
    taken = 0
    session = _session()
    for subscription in subscriptions:
        try:
            webpush(
                {
                    "endpoint": subscription.endpoint,
                    "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
                },
                data=data,
                vapid_private_key=vapid_key(),
                vapid_claims={"sub": str(settings.VAPID_SUBJECT)},
                content_encoding="aes128gcm",
                ttl=ttl,
                timeout=float(settings.PUSH_TIMEOUT_S),
                requests_session=session,
            )
            taken += 1
        except WebPushException as error:
            if error.status_code in (404, 410):
                subscription.delete()  # the browser unsubscribed, or the push service forgot it
            else:
                logger.warning("push to subscription %s failed: %s", subscription.pk, error)
        except requests.RequestException as error:
            logger.warning(
                "push service of subscription %s unreachable: %s", subscription.pk, error
            )
    return taken
