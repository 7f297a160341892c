"""A yes/no column of the admin says yes or no in the reader's language, not Python's
"True" (accounts/admin/boolean_icons.py), in the change list and on a read-only page."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import Profile

pytestmark = pytest.mark.django_db

ALTS = re.compile(r'<img src="[^"]*/admin/img/icon-(yes|no|unknown)\.svg" alt="([^"]*)"')


@pytest.mark.parametrize(
    ("language", "yes", "no"),
    [("en", "Yes", "No"), ("mk", "Да", "Не"), ("sr-latn", "Da", "Ne"), ("pl", "Tak", "Nie")],
)
def test_a_yes_no_column_says_yes_or_no_in_the_readers_language(
    language: str, yes: str, no: str
) -> None:
    boss = get_user_model().objects.create_superuser("boss", "boss@example.org", "pw-boss-1")
    Profile.objects.filter(user=boss).update(language=language)
    client = Client()
    client.force_login(boss)

    # The accounts' list: "staff status" is yes for the superuser.
    page = client.get("/admin/auth/user/").content.decode()
    alts = dict(ALTS.findall(page))

    assert alts["yes"] == yes
    assert "True" not in alts.values() and "False" not in alts.values()
    assert all(alt in (yes, no) for alt in alts.values())
