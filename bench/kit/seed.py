"""Seeding a benchmark's database in-process, through the services: users with API
tokens.
"""

from __future__ import annotations

import os
import secrets


def django_setup(env: dict[str, str]) -> None:
    os.environ.update(env)
    import django

    django.setup()


def make_players(count: int) -> list[str]:
    """``count`` users with an API token each (in-process, through the services)."""
    from django.contrib.auth import get_user_model

    from accounts import services as account_services

    tokens = []
    for index in range(count):
        user = get_user_model().objects.create_user(
            username=f"bench{index}", password=secrets.token_urlsafe(16)
        )
        _token, raw = account_services.token_create(user=user, name="bench")
        tokens.append(raw)
    return tokens
