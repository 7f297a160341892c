"""Web Push through a push service of our own: a tiny HTTP server in the test that
records what it is sent. What arrives is encrypted for the browser (RFC 8291:
``Content-Encoding: aes128gcm``, the browser's keys decrypt it) and signed with the
site's VAPID key (RFC 8292), and only the kinds the player opted in to are sent."""

from __future__ import annotations

import base64
import json
import os
import ssl
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import pytest
import trustme
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from django.test import override_settings

from games.models import PushSubscription
from games.notify import notices, push
from games.play.resign import game_resign
from games.read.catalogue import preset_name
from tests.games.notify_kit import SERBIAN, Duel, duel, play_turn
from tests.games.push_kit import FakeDNS, fake_dns, silent_listener
from tests.sites import free_port

__all__ = ["fake_dns"]  # a fixture

pytestmark = pytest.mark.django_db(transaction=True)


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class PushService:
    """A push service on 127.0.0.1: records each request, answers ``status``."""

    port: int = 0
    status: int = 201
    received: list[Received] = field(default_factory=list)
    host: str = "127.0.0.1"
    scheme: str = "http"
    server_names: list[str | None] = field(default_factory=list)  # SNI, over TLS

    def endpoint(self, name: str) -> str:
        return f"{self.scheme}://{self.host}:{self.port}/push/{name}"


@contextmanager
def serving(service: PushService, tls: ssl.SSLContext | None = None) -> Iterator[PushService]:
    """``service`` listening on 127.0.0.1 (over TLS with ``tls``) while inside."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (the http.server name)
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            service.received.append(
                Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
            )
            self.send_response(service.status)
            if 300 <= service.status < 400:
                self.send_header("Location", "/elsewhere")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    if tls is not None:
        server.socket = tls.wrap_socket(server.socket, server_side=True)
    service.port = server.server_address[1]
    # Shutting down waits for the loop to look again: every 20 ms, not every half second.
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        with override_settings(PUSH_ALLOW_LOCAL_ENDPOINTS=True):
            yield service
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@pytest.fixture
def push_service() -> Iterator[PushService]:
    with serving(PushService()) as service:
        yield service


@dataclass
class Browser:
    """A browser's side of a subscription: its key pair and authentication secret."""

    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self, endpoint: str) -> dict[str, Any]:
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64url(public), "auth": b64url(self.auth)},
        }

    def read(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        message: dict[str, Any] = json.loads(plain)
        return message


def subscribe(client: Any, service: PushService, name: str, **kinds: bool) -> Browser:
    """The user of ``client`` turns pushes on in a new browser, for ``kinds``."""
    browser = Browser()
    created = client.post(
        "/api/v1/me/push-subscriptions",
        browser.subscription(service.endpoint(name)),
        format="json",
    )
    assert created.status_code == 201, created.json()
    assert client.patch("/api/v1/me/notifications", kinds, format="json").status_code == 200
    return browser


def vapid_claims(authorization: str) -> dict[str, Any]:
    """The claims of a ``vapid t=<JWT>, k=<key>`` header, after checking the JWT's
    ES256 signature with the key it names, which must be the site's."""
    scheme, _, rest = authorization.partition(" ")
    assert scheme == "vapid"
    parts = dict(part.strip().split("=", 1) for part in rest.split(","))
    assert parts["k"] == push.public_key()
    header, payload, signature = parts["t"].split(".")
    raw = b64url_decode(signature)
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64url_decode(parts["k"]))
    public.verify(
        encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
        f"{header}.{payload}".encode(),
        ec.ECDSA(hashes.SHA256()),
    )
    assert json.loads(b64url_decode(header)) == {"typ": "JWT", "alg": "ES256"}
    claims: dict[str, Any] = json.loads(b64url_decode(payload))
    return claims


@pytest.fixture
def table(user_factory: Callable[..., Any], deals_seeded: Callable[[int], None]) -> Duel:
    return duel(user_factory)


def test_your_turn_is_pushed_encrypted_and_signed(table, client_for, push_service, settings):
    mover, waiting = table.mover, table.waiting
    browser = subscribe(client_for(waiting), push_service, "laptop", push_turns=True)

    play_turn(table.game_id, mover)

    assert [request.path for request in push_service.received] == ["/push/laptop"]
    request = push_service.received[0]
    assert request.headers["content-encoding"] == "aes128gcm"
    assert int(request.headers["ttl"]) > 0
    assert b"Your turn" not in request.body  # encrypted
    salt, record_size, key_id_length = request.body[:16], request.body[16:20], request.body[20]
    assert len(salt) == 16 and int.from_bytes(record_size, "big") >= 18
    assert key_id_length == 65  # the sender's ephemeral P-256 key (RFC 8291)
    claims = vapid_claims(request.headers["authorization"])
    assert claims["aud"] == f"http://127.0.0.1:{push_service.port}"
    assert claims["sub"] == settings.VAPID_SUBJECT
    message = browser.read(request.body)
    assert message["kind"] == "turn" and message["title"] == "Your turn"
    assert message["body"] == f"Your turn against {mover.profile.display_name} ({SERBIAN})."
    assert message["url"].endswith(f"/games/{table.game_id}/")


def test_a_mail_server_that_is_away_keeps_no_push_back(
    table, client_for, push_service, settings, caplog
):
    """The player wants each turn by email and by push; the mail server refuses every
    connection (nothing listens on its port): the push still goes, and the mail's
    failure is logged, not raised into the move's after-commit work."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", free_port(), 5
    mover, waiting = table.mover, table.waiting
    assert waiting.email
    subscribe(client_for(waiting), push_service, "phone", push_turns=True)

    play_turn(table.game_id, mover)

    assert [request.path for request in push_service.received] == ["/push/phone"]
    assert f"the turn email to user {waiting.pk} was not sent" in caplog.text
    assert "after-commit work" not in caplog.text


def test_only_the_kinds_opted_in_are_pushed(table, client_for, push_service):
    mover, waiting = table.mover, table.waiting
    subscribe(client_for(waiting), push_service, "waiting-phone", push_game_over=True)
    subscribe(client_for(mover), push_service, "mover-phone", push_turns=True)

    play_turn(table.game_id, mover)  # waiting's turn: they did not opt in to that
    assert push_service.received == []
    game_resign(game=table.game, user=waiting)  # the mover only wants turns

    assert [request.path for request in push_service.received] == ["/push/waiting-phone"]


def test_the_end_of_a_game_is_pushed_with_the_result(table, client_for, push_service):
    winner = table.waiting
    browser = subscribe(client_for(winner), push_service, "laptop", push_game_over=True)

    game_resign(game=table.game, user=table.mover)

    message = browser.read(push_service.received[0].body)
    assert message["kind"] == "game_over" and message["body"] == "You won."


def test_a_challenge_is_pushed_through_the_hook_when_opted_in(
    table, client_for, push_service, settings
):
    player = table.waiting
    player.profile.email_challenges = False  # a push alone: the email is counted too
    player.profile.save(update_fields=["email_challenges"])
    client = client_for(player)
    browser = subscribe(client, push_service, "desk")

    assert notices.challenge_notice(user_id=player.pk, challenger="Jova", url="/play/") == 0
    client.patch("/api/v1/me/notifications", {"push_challenges": True}, format="json")
    assert (
        notices.challenge_notice(
            user_id=player.pk,
            challenger="Jova",
            url="/play/",
            preset="macedonian",
            from_username="petar",
        )
        == 1
    )

    assert len(push_service.received) == 1
    assert browser.read(push_service.received[0].body) == {
        "kind": "challenge",
        # A display name with the username beside it: nobody passes for a friend.
        "title": "Jova (@petar) challenges you",
        "body": preset_name("macedonian"),
        "url": f"{settings.SITE_URL}/play/",
        "tag": "",
    }


def test_a_subscription_the_push_service_says_is_gone_is_forgotten(table, client_for, push_service):
    waiting = table.waiting
    subscribe(client_for(waiting), push_service, "old", push_turns=True)
    push_service.status = 410

    play_turn(table.game_id, table.mover)

    assert len(push_service.received) == 1
    assert not PushSubscription.objects.filter(user=waiting).exists()


def test_a_push_service_that_redirects_is_not_followed(table, client_for, push_service):
    waiting = table.waiting
    subscribe(client_for(waiting), push_service, "moved", push_turns=True)
    push_service.status = 307

    play_turn(table.game_id, table.mover)

    assert [request.path for request in push_service.received] == ["/push/moved"]
    assert PushSubscription.objects.filter(user=waiting).exists()  # kept: not a 404/410


def test_the_vapid_key_is_made_once_and_kept(tmp_path, settings):
    settings.VAPID_PRIVATE_KEY = ""
    settings.VAPID_KEY_FILE = tmp_path / "keys" / "vapid-private.pem"
    push.vapid_key.cache_clear()
    try:
        first = push.public_key()
        push.vapid_key.cache_clear()
        again = push.public_key()
    finally:
        push.vapid_key.cache_clear()

    assert first == again and len(b64url_decode(first)) == 65
    assert (settings.VAPID_KEY_FILE.stat().st_mode & 0o777) == 0o600
    assert [path.name for path in settings.VAPID_KEY_FILE.parent.iterdir()] == ["vapid-private.pem"]


def test_a_configured_vapid_key_is_used(settings):
    key = ec.generate_private_key(ec.SECP256R1())
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()
    expected = b64url(
        key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
    )
    settings.VAPID_PRIVATE_KEY = pem
    push.vapid_key.cache_clear()
    try:
        assert push.public_key() == expected
    finally:
        push.vapid_key.cache_clear()


# ------------------------------------------------------------------ the connection


@contextmanager
def tls_push_service(
    tmp_path: Any, settings: Any, fake_dns: FakeDNS, certified: str
) -> Iterator[PushService]:
    """A push service named ``push.test`` (resolving to 127.0.0.1) over TLS, with a
    certificate for ``certified`` from a CA the site is told to trust."""
    ca = trustme.CA()
    bundle = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(bundle))
    settings.PUSH_CA_BUNDLE = str(bundle)
    fake_dns.names["push.test"] = ["127.0.0.1"]
    service = PushService(host="push.test", scheme="https")
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert(certified).configure_cert(context)
    context.sni_callback = lambda sock, name, ctx: service.server_names.append(name)
    with serving(service, tls=context):
        yield service


def test_a_push_connects_to_the_address_checked_and_speaks_tls_to_the_name(
    table, client_for, tmp_path, settings, fake_dns
):
    with tls_push_service(tmp_path, settings, fake_dns, certified="push.test") as service:
        waiting = table.waiting
        browser = subscribe(client_for(waiting), service, "tls", push_turns=True)
        looked_up = fake_dns.lookups["push.test"]

        play_turn(table.game_id, table.mover)

    assert [request.path for request in service.received] == ["/push/tls"]
    request = service.received[0]
    assert request.headers["host"] == f"push.test:{service.port}"
    assert service.server_names == ["push.test"]
    assert browser.read(request.body)["kind"] == "turn"
    assert vapid_claims(request.headers["authorization"])["aud"] == (
        f"https://push.test:{service.port}"
    )
    # One lookup of the name to check it; the connection dialled the address checked.
    assert fake_dns.lookups["push.test"] == looked_up + 1
    assert fake_dns.lookups["127.0.0.1"] >= 1


def test_a_certificate_for_another_name_is_refused(table, client_for, tmp_path, settings, fake_dns):
    with tls_push_service(tmp_path, settings, fake_dns, certified="other.test") as service:
        waiting = table.waiting
        subscribe(client_for(waiting), service, "impostor", push_turns=True)

        play_turn(table.game_id, table.mover)

    assert service.server_names == ["push.test"]
    assert service.received == []
    assert PushSubscription.objects.filter(user=waiting).exists()  # kept: not a 404/410


def test_a_notice_to_many_silent_push_services_ends_within_its_budget(table, client_for, settings):
    """Ten browsers whose push service accepts the connection and never answers: the
    notice gives up once its budget is spent, not after ten timeouts."""
    with silent_listener() as (port, accepted):
        with override_settings(PUSH_ALLOW_LOCAL_ENDPOINTS=True):
            client = client_for(table.waiting)
            for number in range(10):
                subscribe(client, PushService(port=port), f"silent-{number}")
        settings.PUSH_ALLOW_LOCAL_ENDPOINTS = True
        settings.PUSH_TIMEOUT_S = 0.5
        settings.PUSH_NOTICE_BUDGET_S = 1.2

        started = time.monotonic()
        taken = push.push_deliver(user_id=table.waiting.pk, payload={"kind": "turn"})
        spent = time.monotonic() - started

    assert taken == 0
    assert 1.0 < spent < 3.0, spent  # ten timeouts would be 5 s
    assert 2 <= len(accepted) < 10
