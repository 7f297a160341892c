"""A display name may not pass for another account: it may not read as another
account's username (in any case, compatibility form or look-alike alphabet), nor as a
built-in bot's name, nor mix look-alike alphabets within a word. Display names need
not be unique, and a name that does not change is never refused."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from accounts import deletion, display_names, preferences, services, usernames
from accounts.moderation import services as moderation
from tests.accounts.account_kit import web_client

pytestmark = pytest.mark.django_db

SIGNUP = "/api/v1/auth/signup"
ME = "/api/v1/me"
SETTINGS = "/api/v1/me/settings"


def _display_name(user: Any) -> str:
    user.profile.refresh_from_db()
    return str(user.profile.display_name)


@pytest.mark.parametrize(
    "name",
    [
        "Marko",  # another case
        " marko ",  # spaces around it
        "ｍarko",  # fullwidth
        "маrко",  # Cyrillic "м", "а", "к" among Latin letters
    ],
)
def test_a_display_name_that_reads_as_anothers_username_is_refused_over_the_api(
    client_for, user_factory, name
):
    user_factory("marko")
    petar = user_factory("petar", display_name="Petar")

    response = client_for(petar).patch(ME, {"display_name": name}, format="json")

    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid"
    assert "display_name" in error["details"]["fields"]
    assert _display_name(petar) == "Petar"


def test_a_name_in_one_alphabet_that_reads_as_a_username_is_refused(client_for, user_factory):
    user_factory("ace")
    petar = user_factory("petar", display_name="Petar")

    response = client_for(petar).patch(SETTINGS, {"display_name": "АСЕ"}, format="json")

    assert response.status_code == 400
    assert "another player" in str(response.json()["error"]["details"]["fields"]["display_name"])
    assert _display_name(petar) == "Petar"


def test_a_bots_name_is_the_bots_own(client_for, user_factory, bots):
    petar = user_factory("petar", display_name="Petar")
    client = client_for(petar)

    for name in ("Expert Emil", "expert   emil", "EXPERT EMIL"):
        response = client.patch(ME, {"display_name": name}, format="json")
        assert response.status_code == 400, name
        assert "a bot's name" in str(response.json()["error"]["details"]["fields"])

    assert _display_name(petar) == "Petar"


def test_a_word_mixing_look_alike_alphabets_is_refused_and_words_in_two_alphabets_are_welcome(
    client_for, user_factory
):
    petar = user_factory("petar", display_name="Petar")
    client = client_for(petar)

    mixed = client.patch(ME, {"display_name": "Реtar"}, format="json")  # Cyrillic "Ре"
    two = client.patch(ME, {"display_name": "Петар (Petar)"}, format="json")

    assert mixed.status_code == 400
    assert "one alphabet" in str(mixed.json()["error"]["details"]["fields"]["display_name"])
    assert two.status_code == 200, two.json()
    assert _display_name(petar) == "Петар (Petar)"


@pytest.mark.parametrize("name", ["Marko", "Марко", "Đorđe Petrović", "Łukasz", "♠ Ana ♥"])
def test_a_name_shared_with_other_players_display_names_is_welcome(client_for, user_factory, name):
    """Two people may both be "Marko": only usernames and bots' names are someone's."""
    user_factory("marko1", display_name=name)
    petar = user_factory("petar", display_name="Petar")

    response = client_for(petar).patch(ME, {"display_name": name}, format="json")

    assert response.status_code == 200, response.json()
    assert _display_name(petar) == name


def test_ones_own_username_is_a_display_name_one_may_have(client_for, user_factory):
    petar = user_factory("petar", display_name="Pero")

    response = client_for(petar).patch(ME, {"display_name": "PETAR"}, format="json")

    assert response.status_code == 200
    assert _display_name(petar) == "PETAR"


def test_a_display_name_kept_is_never_refused(client_for, user_factory):
    """ "Marko" was free when Petar chose it; an account "marko" signed up since. Petar
    can still change his other settings without being told to rename."""
    petar = user_factory("petar", display_name="Marko")
    user_factory("marko")

    response = client_for(petar).patch(
        SETTINGS, {"display_name": "Marko", "chat_enabled": False}, format="json"
    )

    assert response.status_code == 200, response.json()
    assert _display_name(petar) == "Marko"


def test_sign_up_refuses_a_display_name_that_passes_for_another(api_client, user_factory, password):
    user_factory("marko")

    api = api_client.post(
        SIGNUP,
        {"username": "petar", "password": password, "display_name": "Marko"},
        format="json",
    )
    page = Client().post(
        "/accounts/signup/",
        {
            "username": "petar",
            "display_name": "MARKO",
            "password1": password,
            "password2": password,
        },
    )

    assert api.status_code == 400
    assert "display_name" in api.json()["error"]["details"]["fields"]
    assert page.status_code == 200 and "another player" in page.content.decode()
    assert not get_user_model().objects.filter(username="petar").exists()


def test_the_pages_say_why_a_display_name_is_refused(user_factory):
    user_factory("marko")
    petar = user_factory("petar", display_name="Petar")
    client = web_client(petar)

    profile = client.post("/accounts/profile/", {"display_name": "Marko", "country": ""})
    settings_page = client.post(
        "/settings/", {"display_name": "Marko", "language": "en", "email_turns": "each"}
    )

    assert profile.status_code == 400 and "another player" in profile.content.decode()
    assert settings_page.status_code == 400
    assert "another player" in settings_page.content.decode()
    assert _display_name(petar) == "Petar"


@pytest.mark.parametrize(
    "name", ["a]b", "\\", "^$", "a-z", "[[", "(?", "*+", "{2}", "x|y", "%_", "'\"", "😀"]
)
def test_signs_a_pattern_would_read_are_read_as_themselves(client_for, user_factory, name):
    """The check builds a pattern from the name: its signs are letters to it, never an
    error, and a name of signs alone passes for nobody."""
    user_factory("ab")
    petar = user_factory("petar", display_name="Petar")

    response = client_for(petar).patch(ME, {"display_name": name}, format="json")

    assert response.status_code == 200, response.json()
    assert _display_name(petar) == name


def test_a_deleted_accounts_name_is_free_and_a_banned_ones_is_not(
    client_for, user_factory, password
):
    """Deletion frees a username (the account becomes "deleted-…"), so a display name
    may read as it again; a ban keeps the account and its name."""
    gone = user_factory("marko")
    banned = user_factory("jovan")
    admin = get_user_model().objects.create_superuser("root", "root@example.org", "pw-root-1")
    petar = user_factory("petar", display_name="Petar")
    deletion.account_delete(user=gone, password=password)
    moderation.ban_create(user=banned, moderator=admin, reason="abuse", permanent=True)
    client = client_for(petar)

    freed = client.patch(ME, {"display_name": "Marko"}, format="json")
    kept = client.patch(ME, {"display_name": "Jovan"}, format="json")

    assert freed.status_code == 200, freed.json()
    assert kept.status_code == 400
    assert _display_name(petar) == "Marko"


# Letters that look alike across alphabets, compatibility forms and case.
LOOK_ALIKES = "aаAАcсCСeеEЕoоOОpрPРkкKКmмMМｍ"
NAMES = st.text(LOOK_ALIKES, min_size=1, max_size=3)
STEPS = st.one_of(
    st.tuples(st.just("sign up"), NAMES, NAMES | st.just("")),
    st.tuples(st.just("rename"), st.integers(0, 5), NAMES | NAMES.map(" {} ".format)),
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(steps=st.lists(STEPS, max_size=8))
def test_no_name_chosen_passes_for_another_account_whatever_is_tried(
    steps: list[tuple[Any, ...]], password: str
) -> None:
    """Any run of sign-ups and renames, checked as the forms and the API check them:
    each is done or refused (never an error), and a display name just chosen never
    reads as another account's username (the database's look-alike pattern checked
    against the letters' readings)."""
    with transaction.atomic():  # each example's accounts are rolled back
        accounts: list[Any] = []
        for step in steps:
            if step[0] == "sign up":
                _, username, name = step
                try:
                    usernames.refuse_mixed_alphabets(username)
                    if name:
                        display_names.refuse_posing(name, account=None)
                    account = services.user_signup(
                        username=username, password=password, display_name=name
                    )
                except (ValidationError, services.UsernameTaken) as refusal:
                    event(f"sign-up refused: {type(refusal).__name__}")
                    continue
                accounts.append(account)
                _assert_passes_for_nobody(account)
            elif accounts:
                _, index, name = step
                account = accounts[index % len(accounts)]
                if name == _display_name(account):
                    continue  # kept, not chosen: never refused
                try:
                    display_names.refuse_posing(name, account=account)
                except ValidationError as refusal:
                    event(f"rename refused: {refusal.code}")
                    continue
                preferences.settings_update(user=account, display_name=name)
                event("renamed")
                _assert_passes_for_nobody(account)
        transaction.set_rollback(True)


def _assert_passes_for_nobody(account: Any) -> None:
    chosen = display_names.reading(_display_name(account))
    others = get_user_model().objects.exclude(pk=account.pk).values_list("username", flat=True)
    assert chosen not in {display_names.reading(other) for other in others}, chosen


def test_a_person_named_alone_has_the_username_beside_a_name_that_does_not_read_as_it():
    assert display_names.named_alone("Marko", "marko") == "Marko"
    assert display_names.named_alone("MARKO ", "marko") == "MARKO "
    assert display_names.named_alone("Marko", "petar") == "Marko (@petar)"


def test_a_list_marks_the_people_whose_display_names_read_the_same():
    entries = [
        {"display_name": "Marko", "username": "marko"},
        {"display_name": "marko", "username": "petar"},
        {"display_name": "Nina", "username": "nina"},
    ]

    marked = display_names.named_apart(entries)

    assert [entry["named_apart"] for entry in marked] == [True, True, False]
