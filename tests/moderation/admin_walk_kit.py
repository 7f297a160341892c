"""The admin as its readers see it, for the tests of its words: every page to walk,
what a page says, what the rows hold (data, in any language), and a superuser who reads
a given language."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser

from django.apps import apps
from django.conf import settings
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts.models import Profile
from accounts.moderation.admin_actions import ObjectActionsMixin
from tests import pseudo_locale_kit as pseudo

# django-axes' app: a name. The languages in the switcher, each in its own words.
PROPER = frozenset({"Axes"}) | {
    word for _, name in settings.LANGUAGES for word in pseudo.WORD.findall(str(name))
}
# A row's value as the admin writes it: whole tokens ("4khjptvjuvsq", "polish51").
TOKEN = re.compile(r"\w+")
# JSON's own words, not a row's: names are taken out in any case, and "true" would hide
# a page's English "True" (a JSON document shown whole is data all the same).
JSON_WORDS = frozenset({"true", "false", "null"})


class _Said(HTMLParser):
    """What a page says to its reader: its text, titles, placeholders and labels; not
    its scripts, styles or the values a form sends."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.in_code = 0

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

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "textarea"):
            self.in_code -= 1

    def handle_data(self, data: str) -> None:
        if not self.in_code and data.strip():
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
            # Not a yes/no value: the admin says it in words ("True" would hide an
            # English "True" on the page).
            words |= {
                str(value)
                for value in row
                if value not in (None, "") and not isinstance(value, bool)
            }
            # A JSON value's keys and words ("stock_count"), the whole one is laid out
            # its own way.
            documents = [json.dumps(value) for value in row if isinstance(value, dict | list)]
            words |= set(documents) | {
                token
                for document in documents
                for token in TOKEN.findall(document)
                if token not in JSON_WORDS
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


def superuser_reading(language: str) -> Client:
    """A client of a superuser whose saved language is ``language``."""
    boss = get_user_model().objects.create_superuser("boss", "boss@example.org", "pw-boss-1")
    Profile.objects.filter(user=boss).update(language=language)
    client = Client()
    client.force_login(boss)
    return client
