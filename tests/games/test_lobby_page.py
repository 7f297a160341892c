"""The lobby page brings the presets with it, so that its form is whole when it is
first drawn (no fetch that pushes the form down while a person reads it)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from accounts.models import Profile

pytestmark = pytest.mark.django_db

PRESETS_DATA = re.compile(
    r'<script id="presets-data" type="application/json">(.*?)</script>', re.DOTALL
)


def presets_in(html: str) -> list[dict[str, Any]]:
    found = PRESETS_DATA.search(html)
    assert found is not None, "the lobby page carries no presets"
    return json.loads(found.group(1))


@pytest.mark.parametrize("language", ["en", "pl"])
def test_the_lobby_carries_the_presets_as_the_api_lists_them(
    client: Client, user: Any, language: str
) -> None:
    Profile.objects.filter(user=user).update(language=language)
    client.force_login(user)

    page = client.get("/play/")
    api = client.get("/api/v1/rulesets?page_size=100")

    assert page.status_code == api.status_code == 200
    assert presets_in(page.content.decode()) == api.json()["results"]


def test_the_lobby_names_the_presets_in_the_players_language(client: Client, user: Any):
    Profile.objects.filter(user=user).update(language="pl")
    client.force_login(user)

    page = client.get("/play/").content.decode()

    names = {preset["name"]: preset["ruleset"]["display_name"] for preset in presets_in(page)}
    assert names["macedonian"] == "Remik macedoński"
