"""Requests at the same moment, for the tests of what concurrency must not break: run
together in threads, and a second device of the same player."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connection
from rest_framework.test import APIClient


def at_once(*requests: Callable[[], Any]) -> list[Any]:
    """Run the requests in threads released together; each thread has its own database
    connection (Django's are per thread), closed at the end."""
    barrier = threading.Barrier(len(requests))
    results: list[Any] = [None] * len(requests)

    def run(index: int, request: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[index] = request()
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=pair) for pair in enumerate(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results


def second_device(client: APIClient) -> APIClient:
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Bearer {client.token}")  # type: ignore[attr-defined]
    return other
