"""Web Push (RFC 8030): browser notifications through each browser's push service,
encrypted for the browser (RFC 8291, ``aes128gcm``) and signed with the site's VAPID
key (RFC 8292) by ``pywebpush``.

The VAPID key comes from ``VAPID_PRIVATE_KEY``; without it, from ``VAPID_KEY_FILE``,
made once (the embedded mode). A browser subscribes through the API with the public
key (``public_key``), at most ``PUSH_SUBSCRIPTIONS_PER_USER`` browsers per account;
where the server may send is ``push_endpoints``' decision, at registration and again
at each send. ``push_send`` only queues: the ``push`` Celery queue's own worker sends
(``push_deliver``), each request with a short timeout and each notice within
``PUSH_NOTICE_BUDGET_S``, so a push service that hangs holds up no bot move and no
deadline (docs/push.md). A subscription its push service says is gone (404, 410), or
whose address is no longer public, is deleted.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import os
import secrets
import time
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import requests
from celery import current_app
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext, ngettext
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from games.errors import Conflict, InvalidRequest
from games.models import PushSubscription
from games.notify.push_endpoints import EndpointRefused, EndpointUnresolved, endpoint_destination
from games.notify.push_transport import pinned_session
from remi_site import formats

logger = logging.getLogger(__name__)

# How long a push service keeps a message for a browser that is offline.
PUSH_TTL_S = 24 * 3600
# The task that sends (games.tasks, routed to the ``push`` queue by CELERY_TASK_ROUTES).
DELIVER_TASK = "games.tasks.push_deliver"


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
    """Why the server will not send to ``endpoint``, or None (``push_endpoints``)."""
    try:
        endpoint_destination(endpoint)
    except EndpointRefused as refused:
        return refused.message
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
        errors["p256dh"] = gettext("A P-256 public key (base64url, uncompressed point).")
    secret = _b64url_decode(auth)
    if secret is None or len(secret) != 16:
        errors["auth"] = gettext("A 16-byte authentication secret (base64url).")
    return errors


def subscription_add(*, user: Any, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    """Register a browser's subscription for ``user`` (an endpoint registered before,
    by them or by whoever used the browser before, becomes theirs). Refused beyond
    ``PUSH_SUBSCRIPTIONS_PER_USER`` browsers; the same endpoint again counts once."""
    errors = keys_error(p256dh, auth)
    problem = endpoint_error(endpoint)
    if problem:
        errors["endpoint"] = problem
    if errors:
        raise InvalidRequest(" ".join(errors.values()), details={"fields": errors})
    limit = int(settings.PUSH_SUBSCRIPTIONS_PER_USER)
    with transaction.atomic():
        # One registration at a time per account, so that two at once cannot both
        # find room for the last browser.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        others = PushSubscription.objects.filter(user=user).exclude(endpoint=endpoint)
        if others.count() >= limit:
            raise Conflict(
                ngettext(
                    "Push notifications already go to %(limit)s browser, the most an "
                    "account may have. Turn them off in one first.",
                    "Push notifications already go to %(limit)s browsers, the most an "
                    "account may have. Turn them off in one first.",
                    limit,
                )
                % {"limit": formats.number(limit)},
                code="too_many_push_subscriptions",
                details={"limit": limit},
            )
        row, _ = PushSubscription.objects.update_or_create(
            endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth}
        )
    return row


def subscription_remove(*, user: Any, endpoint: str) -> bool:
    """Forget the user's subscription of ``endpoint``; False when there was none."""
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return bool(deleted)


# ------------------------------------------------------------------ sending


def push_send(*, user_id: int, payload: Mapping[str, Any], ttl: int = PUSH_TTL_S) -> int:
    """Queue ``payload`` (JSON: ``kind``, ``title``, ``body``, ``url``, ``tag``, read by
    ``static/sw.js``) for every browser the user subscribed, on the ``push`` queue;
    returns for how many browsers it was queued. Never raises: a push is a courtesy."""
    browsers = PushSubscription.objects.filter(user_id=user_id).count()
    if not browsers:
        return 0
    try:
        _deliver_task().delay(user_id, dict(payload), ttl)
    except Exception:
        logger.exception("could not queue a push to user %s", user_id)
        return 0
    return browsers


def _deliver_task() -> Any:
    """The sending task, by name (the tasks call this module, not the other way)."""
    registry = current_app.tasks
    if DELIVER_TASK not in registry:
        current_app.loader.import_default_modules()
    return registry[DELIVER_TASK]


def push_deliver(*, user_id: int, payload: Mapping[str, Any], ttl: int = PUSH_TTL_S) -> int:
    """Send ``payload`` to every browser the user subscribed, within
    ``PUSH_NOTICE_BUDGET_S`` in all (each request gets at most ``PUSH_TIMEOUT_S`` to
    connect and as much to answer); returns how many push services took it. Failures
    are logged, never raised."""
    subscriptions = list(PushSubscription.objects.filter(user_id=user_id).order_by("pk"))
    data = json.dumps(dict(payload))
    deadline = time.monotonic() + float(settings.PUSH_NOTICE_BUDGET_S)
    taken = 0
    for index, subscription in enumerate(subscriptions):
        left = deadline - time.monotonic()
        if left <= 0:
            logger.warning(
                "push to user %s: out of time, %s browsers skipped",
                user_id,
                len(subscriptions) - index,
            )
            break
        timeout = min(float(settings.PUSH_TIMEOUT_S), left)
        taken += _deliver_one(subscription, data, ttl=ttl, timeout=timeout)
    return taken


def _deliver_one(subscription: PushSubscription, data: str, *, ttl: int, timeout: float) -> int:
    """Send to one browser (1 when its push service took it). Its address is checked
    again (a name may point elsewhere since it was registered) and the request goes
    to the address checked."""
    try:
        destination = endpoint_destination(subscription.endpoint)
    except EndpointUnresolved:
        logger.warning("push service of subscription %s not found now", subscription.pk)
        return 0
    except EndpointRefused as refused:
        logger.warning("subscription %s dropped: %s", subscription.pk, refused.message)
        subscription.delete()
        return 0
    session = pinned_session(destination)
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
            timeout=timeout,
            requests_session=session,
        )
        return 1
    except WebPushException as error:
        if error.status_code in (404, 410):
            subscription.delete()  # the browser unsubscribed, or the push service forgot it
        else:
            logger.warning("push to subscription %s failed: %s", subscription.pk, error)
    except requests.RequestException as error:
        logger.warning("push service of subscription %s unreachable: %s", subscription.pk, error)
    finally:
        session.close()
    return 0
