"""The notification settings page (/settings/notifications/), the unsubscribe page,
the push scripts, and the site address that every link sent out is built on."""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest
from django.test import override_settings

from games.models import GameMute, PlayerSettings
from games.notify import preferences
from games.notify.tokens import Kind, Unsubscribe, unsubscribe_token
from tests.games.notify_kit import duel, links_in, mails_to, web_client
from tests.settings_kit import run_python

pytestmark = pytest.mark.django_db

PAGE = "/settings/notifications/"


def test_the_page_needs_a_login(db):
    response = web_client().get(PAGE)

    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_the_page_shows_the_choices_the_calendar_and_the_push_key(user):
    response = web_client(user).get(PAGE)

    assert response.status_code == 200
    page = response.content.decode()
    for name in ("email_turns", "reminder_hours", "time_zone", "push_turns", "email_strikes"):
        assert f'name="{name}"' in page
    assert '<option value="Europe/Belgrade">Serbia</option>' in page
    assert '<option value="America/New_York">United States (New York)</option>' in page
    secret = PlayerSettings.objects.get(user=user).calendar_secret
    assert f"/calendar/{secret}.ics</code>" in page
    assert 'data-public-key="' in page and 'src="/static/js/push.js"' in page
    assert "<script>" not in page  # the CSP allows no inline script


def test_saving_the_form_stores_every_choice(user):
    saved = web_client(user).post(
        PAGE,
        {
            "action": "save",
            "email_turns": "daily",
            "reminders": "on",
            "reminder_hours": ["8", "2"],
            "time_zone": "America/New_York",
            "email_game_over": "on",
            "push_turns": "on",
        },
    )

    assert saved.status_code == 302 and saved["Location"] == PAGE
    row = PlayerSettings.objects.get(user=user)
    assert (row.email_turns, row.reminders, row.reminder_hours) == ("daily", True, [8, 2])
    assert (row.time_zone, row.email_strikes, row.email_game_over) == (
        "America/New_York",
        False,
        True,
    )
    assert (row.push_turns, row.push_challenges, row.push_game_over) == (True, False, False)


def test_a_bad_choice_is_shown_and_nothing_is_saved(user):
    refused = web_client(user).post(
        PAGE, {"email_turns": "hourly", "time_zone": "Nowhere/Land", "reminder_hours": ["5"]}
    )

    assert refused.status_code == 200
    assert refused.content.decode().count('class="field-errors"') == 3
    row = preferences.preferences_for(user)
    assert (row.email_turns, row.time_zone, row.reminder_hours) == ("each", "", [24, 2])


def test_two_first_looks_at_the_calendar_share_one_secret(user):
    """Two tabs opening the page for the first time at once: the later one had read
    the settings before the first wrote a secret, and must not replace it (the first
    tab's URL would then lead nowhere)."""
    before_any = preferences.preferences_for(user)

    first = preferences.calendar_secret_for(user)
    with mock.patch.object(preferences, "preferences_for", return_value=before_any):
        second = preferences.calendar_secret_for(user)

    assert before_any.calendar_secret is None
    assert second == first == PlayerSettings.objects.get(user=user).calendar_secret


def test_the_page_resets_the_calendar_and_unmutes_a_game(started, client_for):
    game, users = started(players=2)
    me = users[0]
    old = preferences.calendar_secret_for(me)
    preferences.game_mute(user=me, game=game)
    browser = web_client(me)

    assert browser.post(PAGE, {"action": "calendar_reset"}).status_code == 302
    listed = browser.get(PAGE).content.decode()
    assert browser.post(PAGE, {"action": "unmute", "game": game.public_id}).status_code == 302

    assert PlayerSettings.objects.get(user=me).calendar_secret not in (None, old)
    assert f'value="{game.public_id}"' in listed
    assert not GameMute.objects.filter(user=me).exists()


def test_the_unsubscribe_page_says_what_it_stops(user):
    token = unsubscribe_token(Unsubscribe(user.pk, Kind.STRIKE))

    page = web_client().get(f"/unsubscribe/{token}/").content.decode()

    assert "Stop emails when your time runs out?" in page
    assert PlayerSettings.objects.filter(user=user, email_strikes=False).count() == 0


def test_the_service_worker_and_the_push_script_are_served(db):
    for path in ("/static/sw.js", "/static/js/push.js"):
        response = web_client().get(path)
        body = b"".join(response.streaming_content)  # type: ignore[attr-defined]
        assert response.status_code == 200 and b"addEventListener" in body


# ------------------------------------------------------------------ the site's address


@pytest.mark.django_db(transaction=True)  # the emails go after the commit
def test_links_sent_out_are_built_on_site_url(
    user_factory: Callable[..., Any], deals_seeded: Callable[[int], None], mailoutbox: Any
) -> None:
    with override_settings(SITE_URL="http://127.0.0.1:8765"):
        table = duel(user_factory)

    links = links_in(mails_to(mailoutbox, table.mover)[0])
    assert links and all(link.startswith("http://127.0.0.1:8765/") for link in links)


def test_the_default_site_url_follows_the_run_port(tmp_path):
    code = "import django, json; django.setup(); from django.conf import settings; "
    code += "print(json.dumps(settings.SITE_URL))"
    env = {"DJANGO_SETTINGS_MODULE": "remi_site.settings", "REMI_VAR_DIR": str(tmp_path)}

    on_port = run_python(code, {**env, "REMI_PORT": "8123", "REMI_HOST": "0.0.0.0"})
    chosen = run_python(code, {**env, "REMI_PORT": "8123", "SITE_URL": "https://remi.example"})

    assert json.loads(on_port.stdout.strip().splitlines()[-1]) == "http://127.0.0.1:8123"
    assert json.loads(chosen.stdout.strip().splitlines()[-1]) == "https://remi.example"


def test_make_run_gives_its_children_the_address_it_serves():
    run_embedded = importlib.import_module("scripts.run_embedded")

    assert run_embedded.site_url("0.0.0.0", "8123") == "http://127.0.0.1:8123"
    assert run_embedded.site_url("192.0.2.7", "9000") == "http://192.0.2.7:9000"


def _zone_options(page: str) -> list[tuple[str, str]]:
    select = page.split('name="time_zone"')[1].split("</select>")[0]
    return re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', select)


@pytest.mark.parametrize(
    ("language", "place", "before", "after"),
    [
        # Cyrillic "Ј" (U+0408) comes before "А" in Unicode, after "И" in the alphabet.
        ("mk", ("Europe/Skopje", "Северна Македонија"), "Италија", "Камерун"),
        # Polish "Ł" comes after "Z" in Unicode, among the "L"s here (the Unicode
        # collation algorithm's order, without Polish's own: after "Lu").
        ("pl", ("Europe/Warsaw", "Polska"), "Liban", "Madagaskar"),
    ],
)
def test_the_zones_are_places_in_the_readers_words_and_alphabet(
    user, language, place, before, after
):
    user.profile.language = language
    user.profile.save()

    options = _zone_options(web_client(user).get(PAGE).content.decode())

    assert place in options
    assert options[1] == ("Etc/UTC", "UTC")
    labels = [label for _, label in options[2:]]
    assert not [label for label in labels if "/" in label or "_" in label]  # no IANA id
    middle = {"mk": "Јапонија", "pl": "Łotwa"}[language]
    assert labels.index(before) < labels.index(middle) < labels.index(after)


def test_a_zone_saved_under_an_older_id_is_offered_as_saved(user):
    preferences.preferences_update(user=user, changes={"time_zone": "Asia/Calcutta"})

    page = web_client(user).get(PAGE).content.decode()

    assert ("Asia/Calcutta", "India") in _zone_options(page)
    assert '<option value="Asia/Calcutta" selected>India</option>' in page
    aliases = json.loads(page.split('id="zone-aliases" type="application/json">')[1].split("<")[0])
    assert aliases["Asia/Calcutta"] == "Asia/Kolkata"
    assert aliases["Europe/Kiev"] == "Europe/Kyiv"
