"""The permissions to grant on a group's or a user's page are said in the reader's
language (accounts/admin/permissions.py), not in the English Django stores: "app |
model | what it allows", Django's four default permissions and our own alike."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.contrib.auth.models import Group

from tests.moderation.admin_walk_kit import superuser_reading

pytestmark = pytest.mark.django_db

OPTION = re.compile(r"<option [^>]*>([^<]*)</option>")
ENGLISH = re.compile(r"\bCan (add|change|delete|view)\b")


def permission_options(html: str, field: str) -> list[str]:
    select = re.search(rf'<select name="{field}".*?</select>', html, re.S)
    assert select, field
    return [unescape(label) for label in OPTION.findall(select[0])]


# One default permission (adding a game) and one of ours (seeing the hidden cards).
LABELS = {
    "pl": (
        "Gry | gra | Może dodawać: gra",
        "Gry | wgląd moderatora | Może widzieć ukryte karty (wszystkie ręce, stos zakryty)"
        " w panelu administracyjnym",
    ),
    "sr-latn": (
        "Partije | partija | Može da dodaje: partija",
        "Partije | moderatorski uvid | Može da vidi skrivene karte (sve ruke, gomilu za"
        " vučenje) na administratorskim stranicama",
    ),
    "mk": (
        "Партии | партија | Може да додава: партија",
        "Партии | модераторски увид | Може да ги гледа скриените карти (сите раце, шпилот)"
        " на административните страници",
    ),
}


@pytest.mark.parametrize("language", sorted(LABELS))
def test_a_groups_permissions_are_listed_in_the_readers_words(language: str) -> None:
    default, ours = LABELS[language]
    client = superuser_reading(language)
    group = Group.objects.create(name="Sędziowie")

    options = permission_options(
        client.get(f"/admin/auth/group/{group.pk}/change/").content.decode(), "permissions"
    )

    assert len(options) > 20
    assert not [label for label in options if ENGLISH.search(label)]
    assert default in options
    assert ours in options


def test_a_users_permissions_are_listed_in_the_readers_words_too() -> None:
    client = superuser_reading("sr-cyrl")
    boss = client.get("/admin/auth/user/").wsgi_request.user

    options = permission_options(
        client.get(f"/admin/auth/user/{boss.pk}/change/").content.decode(), "user_permissions"
    )

    assert not [label for label in options if ENGLISH.search(label)]
    assert (
        "Налози и модерација | запис у дневнику модерације | Може да решава и одбацује пријаве"
        in options
    )
