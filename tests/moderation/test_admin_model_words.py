"""Every message of Django's admin that names a model or a field is right in every
language, whatever the model's gender and case (remi_site/admin_model_words.py).

Django's catalogues put the name after a verb in the nominative ("Czy chcesz skasować
gra") or write every gender's ending at once ("został(a)(-ło) dodany(-na)(-ne)"). The
site's catalogues, read first, name it where the nominative is right: at the start of
the text, after a colon (the colon introduces the name as a label: "Dodano: gra"), or
in parentheses after a word of ours that carries the case ("Usunięcie obiektu (gra
„X”)"). This test reads Django's own English catalogue, so a msgid a later Django adds
fails here until the site's catalogues say it."""

from __future__ import annotations

import json
import re
from functools import cache
from html import unescape
from pathlib import Path

import django.contrib.admin
import polib  # type: ignore[import-untyped]
import pytest
from django.conf import settings
from django.contrib.auth.models import Group

from tests.moderation.admin_walk_kit import superuser_reading

DJANGO_ADMIN_EN = Path(django.contrib.admin.__file__).parent / "locale" / "en" / "LC_MESSAGES"
SITE_LOCALE = Path(settings.BASE_DIR) / "locale"
LOCALES = ("pl", "sr_Latn", "sr_Cyrl", "mk")
# The languages that decline a noun: the name may stand only where the nominative is.
DECLINING = ("pl", "sr_Latn", "sr_Cyrl")

# The placeholders Django fills with a model's or a field's verbose name.
NAMED = re.compile(
    r"\{name\}|%\((?:name|verbose_name|verbose_name_plural|object_name|objects_name|model"
    r"|items|class_name|filter_title)\)s"
)
# Bare placeholders: each msgid that has one must be listed below, as a name or not.
BARE = re.compile(r"%s|\{\}")
# Where a bare "%s" is a model's name (the titles) or a field's (the two-list widget).
BARE_NAMES = frozenset(
    {
        "Add %s",
        "Change %s",
        "View %s",
        "Select %s",
        "Select %s to change",
        "Select %s to view",
        "Available %s",
        'Choose %s by selecting them and then select the "Choose" arrow button.',
        "Type into this box to filter down the list of available %s.",
        "Choose all %s",
        "Choose selected %s",
        "Remove selected %s",
        "Chosen %s",
        'Remove %s by selecting them and then select the "Remove" arrow button.',
        "Type into this box to filter down the list of selected %s.",
        "Remove all %s",
    }
)
# Where it is not: a row's own name (its __str__) or a number.
BARE_NOT_NAMES = frozenset(
    {
        "Select this object for an action - {}",
        "Change history: %s",
        "%s selected option not visible",
        "Note: You are %s hour ahead of server time.",
        "Note: You are %s hour behind server time.",
    }
)
ANY_PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\w*\}")
# A gender alternation of Django's catalogues: "dodany(-na)", "wybraną(-ne)".
ALTERNATION = re.compile(r"\(-|\w\((?:a|go|ną|ny|i)\)")


def django_msgids() -> dict[str, bool]:
    """Every msgid of Django's admin that names a model or a field -> whether it is the
    script catalogue's."""
    found: dict[str, bool] = {}
    for domain in ("django", "djangojs"):
        for entry in polib.pofile(str(DJANGO_ADMIN_EN / f"{domain}.po")):
            texts = (entry.msgid, entry.msgid_plural or "")
            bare = any(BARE.search(text) for text in texts)
            if bare:
                assert entry.msgid in BARE_NAMES | BARE_NOT_NAMES, (
                    f"Django's {entry.msgid!r}: is its placeholder a model's name?"
                )
            if any(NAMED.search(text) for text in texts) or entry.msgid in BARE_NAMES:
                found[entry.msgid] = domain == "djangojs"
    return found


@cache
def site_catalogue(locale: str, domain: str) -> dict[str, polib.POEntry]:
    path = SITE_LOCALE / locale / "LC_MESSAGES" / f"{domain}.po"
    return {entry.msgid: entry for entry in polib.pofile(str(path)) if not entry.msgctxt}


def forms_of(entry: polib.POEntry) -> list[str]:
    if entry.msgid_plural:
        return [entry.msgstr_plural[index] for index in sorted(entry.msgstr_plural)]
    return [entry.msgstr]


def name_placeholders(msgid: str) -> list[str]:
    return NAMED.findall(msgid) or (["%s"] if msgid in BARE_NAMES else [])


MSGIDS = django_msgids()


def test_the_check_finds_every_kind_of_message_that_names_a_model() -> None:
    # The titles, the "done" messages, the history, the delete pages, the widgets.
    assert len(MSGIDS) >= 46  # Django 5.2's
    for msgid in (
        "The {name} “{obj}” was added successfully.",
        "Delete selected %(verbose_name_plural)s",
        "Successfully deleted %(count)d %(items)s.",
        "%(count)s %(name)s was changed successfully.",
        " By %(filter_title)s ",
        "Models in the %(name)s application",
        "Available %s",
    ):
        assert msgid in MSGIDS


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("msgid", sorted(MSGIDS))
def test_the_site_says_each_admin_message_that_names_a_model(locale: str, msgid: str) -> None:
    entry = site_catalogue(locale, "djangojs" if MSGIDS[msgid] else "django").get(msgid)

    assert entry is not None, f"{locale}: {msgid!r} is not in the site's catalogue"
    assert "fuzzy" not in entry.flags
    plural_forms = polib.pofile(str(SITE_LOCALE / locale / "LC_MESSAGES" / "django.po"))
    count = int(re.search(r"nplurals=(\d+)", plural_forms.metadata["Plural-Forms"])[1])
    forms = forms_of(entry)
    assert len(forms) == (count if entry.msgid_plural else 1)
    for form in forms:
        assert form.strip(), f"{locale}: {msgid!r} has an empty form"
        assert sorted(ANY_PLACEHOLDER.findall(form)) == sorted(ANY_PLACEHOLDER.findall(msgid))
        assert not ALTERNATION.search(form), f"{locale}: {form!r}"
        if locale in DECLINING:
            for placeholder in name_placeholders(msgid):
                for at in re.finditer(re.escape(placeholder), form):
                    before = form[: at.start()]
                    assert before.strip() == "" or before.endswith((": ", "(")), (
                        f"{locale}: {form!r} names the model after a word that declines it"
                    )


# The most seen of them, as the admin shows them: a group added, the page that asks
# before deleting it, the list's "delete" action, and the two-list widget's heading
# (the admin's script catalogue, which reads the site's after Django's).
SEEN = {
    "pl": (
        "Pomyślnie dodano: grupa „Sędziowie”.",
        "Czy na pewno chcesz usunąć: grupa „Sędziowie”?",
        "Usuń zaznaczone obiekty: grupy",
        "Do wyboru: %s",
    ),
    "sr-latn": (
        "Uspešno dodato: grupa „Sędziowie“.",
        "Da li sigurno želiš da obrišeš: grupa „Sędziowie“?",
        "Obriši označene objekte: grupe",
        "Dostupno: %s",
    ),
    "sr-cyrl": (
        "Успешно додато: група „Sędziowie“.",
        "Да ли сигурно желиш да обришеш: група „Sędziowie“?",
        "Обриши означене објекте: групе",
        "Доступно: %s",
    ),
    "mk": (
        "Успешно додадено: група „Sędziowie“.",
        "Дали сигурно сакаш да избришеш: група „Sędziowie“?",
        "Избриши ги избраните објекти: групи",
        "Достапно: %s",
    ),
}
TAGS = re.compile(r"<[^>]+>")


def text_of(html: str) -> str:
    return " ".join(unescape(TAGS.sub("", html)).split())


@pytest.mark.django_db
@pytest.mark.parametrize("language", sorted(SEEN))
def test_the_admin_names_a_model_right_when_adding_deleting_and_in_its_actions(
    language: str,
) -> None:
    added, asked, action, available = SEEN[language]
    client = superuser_reading(language)

    page = client.post("/admin/auth/group/add/", {"name": "Sędziowie"}, follow=True)
    assert added in text_of(page.content.decode())

    group = Group.objects.get(name="Sędziowie")
    page = client.get(f"/admin/auth/group/{group.pk}/delete/")
    assert asked in text_of(page.content.decode())

    page = client.get("/admin/auth/group/")
    assert f">{action}</option>" in page.content.decode()

    script = client.get("/admin/jsi18n/").content.decode()
    assert f'"Available %s": {json.dumps(available)}' in script
