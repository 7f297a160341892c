"""Seeding a benchmark's database in-process, through the services: users with API
tokens.
"""

from __future__ import annotations

import gc
import os


def django_setup(env: dict[str, str]) -> None:
    os.environ.update(env)
    import django

    django.setup()


def make_players(count: int) -> list[str]:
    """``count`` users with an API token each (in-process, through the services). They
    sign in with their tokens only: no password, so none is hashed (a quarter of a second
    each on a busy host)."""
    from django.contrib.auth import get_user_model

    from accounts import services as account_services

    tokens = []
    for index in range(count):
        user = get_user_model().objects.create_user(username=f"bench{index}", password=None)
        _token, raw = account_services.token_create(user=user, name="bench")
        tokens.append(raw)
    return tokens


def collector_settle() -> None:
    """Keep what this process has loaded (Django, the engine, the seeding's leftovers) out
    of its garbage collector's walks, as the web server does (``remi_site.collector``): a
    load generator whose full collections walk all of Django pauses for tens of
    milliseconds, and every request it should have sent meanwhile is late."""
    gc.collect()
    gc.freeze()
