"""The admin in the pseudo-locale (docs/translations.md): moderators read it in their
language too. Every model's list, its add page and one object's page, every action
on an object's page and what one says when done hold no word outside the markers
but what the rows hold (names, what people wrote, ids). A word found there was never
marked for translation, or was put together from pieces. The lists of permissions to
grant are read too: Django keeps their names in the database in English ("Can add
game"), and the admin labels them from the code instead (accounts/admin/permissions.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts.models import Profile
from tests import pseudo_locale_kit as pseudo
from tests.browser.site_pages import BANNED, make_site_data
from tests.moderation.admin_walk_kit import PROPER, admin_pages, data_words, said

pytestmark = pytest.mark.django_db(transaction=True)


def test_every_admin_page_and_action_in_the_pseudo_locale_is_marked(settings: Any) -> None:
    language = pseudo.enable(settings)
    make_site_data()
    boss = get_user_model().objects.create_superuser("boss", "boss@example.org", "pw-boss-1")
    Profile.objects.filter(user=boss).update(language=language)
    client = Client()
    client.force_login(boss)
    names = frozenset(data_words() | PROPER)

    found: dict[str, list[str]] = {}
    for url in admin_pages(client):
        answer = client.get(url)
        assert answer.status_code in (200, 403), f"{url}: {answer.status_code}"
        if answer.status_code == 200:
            lines = pseudo.unmarked_lines(said(answer.content.decode()), names)
            if lines:
                found[url] = lines

    # What the account's actions say once done.
    banned = get_user_model().objects.get(username=BANNED)
    done = client.post(
        reverse("admin:auth_user_act", args=[banned.pk, "unban"]),
        {"reason": "served"},
        follow=True,
    )
    lines = pseudo.unmarked_lines(said(done.content.decode()), names | {"served"})
    if lines:
        found["unban, done"] = lines

    report = "\n".join(
        f"{url}:\n" + "\n".join(f"    {line}" for line in lines) for url, lines in found.items()
    )
    assert not found, "Text outside the pseudo-locale's markers:\n" + report
