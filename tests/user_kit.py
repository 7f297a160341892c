"""What tests that make people share: the password each test user is given, and a site
client logged in as a person."""

from __future__ import annotations

from typing import Any

from django.test import Client

PASSWORD = "correct-horse-battery-staple"


def logged_in(person: Any) -> Client:
    client = Client()
    client.force_login(person)
    client.user = person  # type: ignore[attr-defined]
    return client
