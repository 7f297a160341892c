"""The admin in the pseudo-locale (docs/translations.md): moderators read it in their
language too. Every model's list, its add page and one object's page, every action
on an object's page and what one says when done hold no word outside the markers
but what the rows hold (names, what people wrote, ids). A word found there was never
marked for translation, or was put together from pieces.

Django keeps permissions' names in the database in English ("Can add game") and never
translates them: the lists of permissions to grant are left out."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from typing import Any

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts.models import Profile
from accounts.moderation.admin_actions import ObjectActionsMixin
from tests import pseudo_locale_kit as pseudo
from tests.browser.site_pages import BANNED, make_site_data

pytestmark = pytest.mark.django_db(transaction=True)


# Selects whose options are Django's English permission names.
PERMISSION_LISTS = frozenset({"user_permissions", "permissions"})
# django-axes' app: a name. The languages in the switcher, each in its own words.
PROPER = frozenset({"Axes"}) | {
    word for _, name in settings.LANGUAGES for word in pseudo.WORD.findall(str(name))
}
# A row's value as the admin writes it: whole tokens ("4khjptvjuvsq", "polish51").
TOKEN = re.compile(r"\w+")


class _Said(HTMLParser):
    """What a page says to its reader: its text, titles, placeholders and labels; not
    its scripts, styles, the values a form sends or the permissions' names."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.in_code = 0
        self.in_permissions = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        self.lines += [
            value
            for name in ("title", "placeholder", "aria-label", "alt")
            if (value := named.get(name))
        ]
        if tag == "input" and named.get("type") in ("submit", "button") and named.get("value"):
            self.lines.append(named["value"] or "")
        if tag in ("script", "style", "textarea"):
            self.in_code += 1
        if tag == "select":
            self.in_permissions = named.get("name") in PERMISSION_LISTS

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "textarea"):
            self.in_code -= 1
        if tag == "select":
            self.in_permissions = False

    def handle_data(self, data: str) -> None:
        if not self.in_code and not self.in_permissions and data.strip():
            self.lines.append(data)


def said(html: str) -> list[str]:
    parser = _Said()
    parser.feed(html)
    parser.close()
    return parser.lines


def data_words() -> set[str]:
    """What the rows hold (names, reasons, chat lines, ids, JSON), each value whole:
    data, not the site's words. A choice's stored value is left out: the
    admin shows its label, which the catalogues translate."""
    words: set[str] = set()
    for model in apps.get_models():
        fields = [f for f in model._meta.concrete_fields if not f.choices]
        for row in model._default_manager.values_list(*(f.attname for f in fields)):
            words |= {str(value) for value in row if value not in (None, "")}
            # A JSON value's keys and words ("stock_count"), the whole one is laid out
            # its own way.
            words |= {
                token
                for value in row
                if isinstance(value, dict | list)
                for token in TOKEN.findall(json.dumps(value))
            }
    return words


def admin_pages(client: Client) -> Iterator[str]:
    """Every model's list, add page and first object's page; every action of the
    objects with actions."""
    yield reverse("admin:index")
    for model, model_admin in admin.site._registry.items():
        meta = model._meta
        yield reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
        yield reverse(f"admin:{meta.app_label}_{meta.model_name}_add")
        first = model._default_manager.order_by("pk").first()
        if first is None:
            continue
        yield reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[first.pk])
        if isinstance(model_admin, ObjectActionsMixin):
            for action in model_admin.object_actions:
                yield model_admin.object_action_url(first, action)


def test_every_admin_page_and_action_in_the_pseudo_locale_is_marked(settings: Any) -> None:
    language = pseudo.enable(settings)
    make_site_data()
    boss = get_user_model().objects.create_superuser("boss", "boss@example.org", "pw-boss-1")
    Profile.objects.filter(user=boss).update(language=language)
    client = Client()
    client.force_login(boss)
    names = data_words() | PROPER

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
