"""What the push tests share: a browser's keys, a resolver that answers for chosen
host names (the test machine has no DNS) and counts every lookup, and a push service
that accepts connections and never answers."""

from __future__ import annotations

import base64
import socket
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

# A push service's endpoint as Chrome hands it out, and an address of Google's for it.
FCM_ENDPOINT = "https://fcm.googleapis.com/fcm/send/"
FCM_ADDRESS = "142.250.185.74"


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def browser_keys() -> dict[str, str]:
    """A browser's ``keys`` (its P-256 public key and authentication secret)."""
    public = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    return {"p256dh": b64url(public), "auth": b64url(bytes(range(16)))}


_STREAM = (socket.SOCK_STREAM, socket.IPPROTO_TCP, "")


class FakeDNS:
    """``socket.getaddrinfo`` that answers ``names`` (name -> addresses; none: no such
    name) itself and asks the real resolver for everything else; ``lookups`` counts
    the names asked."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.names: dict[str, list[str]] = {}
        self.lookups: Counter[str] = Counter()

    def __call__(self, host: Any, port: Any, *args: Any, **kwargs: Any) -> list[Any]:
        name = host.decode() if isinstance(host, bytes) else str(host)
        self.lookups[name] += 1
        if name not in self.names:
            return list(self.real(host, port, *args, **kwargs))
        if not self.names[name]:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        answers = []
        for address in self.names[name]:
            number = int(port or 0)
            if ":" in address:
                answers.append((socket.AF_INET6, *_STREAM, (address, number, 0, 0)))
            else:
                answers.append((socket.AF_INET, *_STREAM, (address, number)))
        return answers


@pytest.fixture
def fake_dns(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeDNS]:
    resolver = FakeDNS(socket.getaddrinfo)
    resolver.names["fcm.googleapis.com"] = [FCM_ADDRESS]
    monkeypatch.setattr(socket, "getaddrinfo", resolver)
    yield resolver


@contextmanager
def silent_listener() -> Iterator[tuple[int, list[socket.socket]]]:
    """A TCP port on 127.0.0.1 that accepts every connection and never answers."""
    listener = socket.create_server(("127.0.0.1", 0), backlog=64)
    listener.settimeout(0.05)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1], accepted
    finally:
        stop.set()
        thread.join(timeout=10)
        for connection in accepted:
            connection.close()
        listener.close()
