"""A challenge's message (email, push) goes once per challenger and player in ten
minutes: cancelling a challenge frees its place among the challenger's pending ones, and
each challenge made again mailed the player again, a flood anyone could aim at anyone.
The challenges themselves still reach the player's list."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from django.core.mail import EmailMessage

from games.models import PlayerSettings
from games.notify.notices import CHALLENGE_NOTICE_GAP_S
from tests.games.notify_kit import mails_to

pytestmark = pytest.mark.django_db(transaction=True)  # the messages go after the commit


def test_a_challenge_made_again_and_again_mails_the_player_once(
    user_factory: Callable[..., Any],
    client_for: Callable[[Any], Any],
    mailoutbox: list[EmailMessage],
    clear_cache: None,
) -> None:
    jova, zora = user_factory(username="jova"), user_factory(username="zora")
    vera = user_factory(username="vera")
    vera.email = "vera@example.com"
    vera.save(update_fields=["email"])
    PlayerSettings.objects.create(user=vera)
    api = client_for(jova)

    for _ in range(5):
        made = api.post("/api/v1/challenges", {"to": "vera", "preset": "serbian"}, format="json")
        assert made.status_code == 201, made.json()
        cancelled = api.post(f"/api/v1/challenges/{made.json()['id']}/cancel")
        assert cancelled.status_code == 200, cancelled.json()
    again = api.post("/api/v1/challenges", {"to": "vera", "preset": "serbian"}, format="json")
    other = client_for(zora).post(
        "/api/v1/challenges", {"to": "vera", "preset": "serbian"}, format="json"
    )

    assert (again.status_code, other.status_code) == (201, 201)
    assert len(mails_to(mailoutbox, vera)) == 2  # jova's first, zora's
    pending = client_for(vera).get("/api/v1/challenges").json()
    challengers = {row["challenger"]["username"] for row in pending["results"]}
    assert challengers == {"jova", "zora"}
    # The next of jova's may mail her once the gap has passed.
    key = cache.make_and_validate_key(f"remi:notice:challenge-from:jova:{vera.pk}")
    assert 0 < cache._cache.get_client(key).ttl(key) <= CHALLENGE_NOTICE_GAP_S
