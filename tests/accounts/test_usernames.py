"""A new username is refused when another account's reads the same: in another case,
in a compatibility form Django stores as the same letters (fullwidth "ｍarko"), with
look-alike letters of another alphabet ("аna" with a Cyrillic "а"), or as the Latin
reading of a name in one alphabet ("асе"); names in one alphabet are welcome."""

from __future__ import annotations

import contextlib
import unicodedata
from typing import Any
from unittest import mock

import pytest
from confusable_homoglyphs import confusables
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts import services, usernames

pytestmark = pytest.mark.django_db

SIGNUP = "/api/v1/auth/signup"
PAGE = "/accounts/signup/"


def _usernames() -> list[str]:
    return list(get_user_model().objects.order_by("pk").values_list("username", flat=True))


@pytest.mark.parametrize(
    "spelling",
    [
        "Marko",  # another case
        "ｍarko",  # fullwidth: stored as "marko" (was a server error)
        "Ⅿarko",  # the Roman numeral one thousand: stored as "Marko"
        "маrко",  # Cyrillic "м", "а", "к" (all Cyrillic but "r" and "o": mixed)
    ],
)
def test_the_api_refuses_a_name_that_reads_as_anothers(
    api_client, user_factory, password, spelling
):
    user_factory("marko")

    response = api_client.post(SIGNUP, {"username": spelling, "password": password}, format="json")

    assert response.status_code == 400
    assert response.json()["error"]["code"] in {"username_taken", "invalid"}
    assert _usernames() == ["marko"]


def test_a_name_mixing_look_alike_alphabets_is_refused_with_its_reason(api_client, password):
    response = api_client.post(SIGNUP, {"username": "аna", "password": password}, format="json")

    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid"
    assert "one alphabet" in str(error["details"]["fields"]["username"])
    assert _usernames() == []


def test_a_name_in_one_alphabet_is_taken_if_its_latin_reading_is(
    api_client, user_factory, password
):
    user_factory("ace")

    response = api_client.post(SIGNUP, {"username": "асе", "password": password}, format="json")

    assert response.status_code == 400 and response.json()["error"]["code"] == "username_taken"


def test_a_latin_name_is_taken_if_an_account_in_another_alphabet_reads_as_it(
    api_client, user_factory, password
):
    user_factory("асе")

    response = api_client.post(SIGNUP, {"username": "ACE", "password": password}, format="json")

    assert response.status_code == 400 and response.json()["error"]["code"] == "username_taken"


def test_the_signs_a_username_may_hold_are_read_as_themselves(api_client, user_factory, password):
    """The pattern's brackets hold "." "+" "-" "@" as the characters, not as operators."""
    user_factory("a.b-c+d@e_f")

    taken = api_client.post(SIGNUP, {"username": "A.B-C+D@E_F", "password": password})
    other = api_client.post(SIGNUP, {"username": "aXb-c+d@e_f", "password": password})

    assert taken.status_code == 400 and taken.json()["error"]["code"] == "username_taken"
    assert other.status_code == 201


@pytest.mark.parametrize("name", ["Марко", "Јована", "Łukasz", "Đorđe", "ана", "marko_1"])
def test_names_in_one_alphabet_are_welcome(api_client, password, name):
    response = api_client.post(SIGNUP, {"username": name, "password": password}, format="json")

    assert response.status_code == 201, response.json()
    assert _usernames() == [name]


def test_the_page_says_why_a_name_is_refused(user_factory, password):
    user_factory("marko")
    client = Client()

    mixed = client.post(PAGE, {"username": "аna", "password1": password, "password2": password})
    fullwidth = client.post(
        PAGE, {"username": "ｍarko", "password1": password, "password2": password}
    )

    assert mixed.status_code == 200 and "one alphabet" in mixed.content.decode()
    assert fullwidth.status_code == 200 and "That username is taken." in fullwidth.content.decode()
    assert _usernames() == ["marko"]


def test_a_name_taken_between_the_check_and_the_write_is_refused_not_a_server_error(
    user_factory, password
):
    """Two sign-ups of one name at once: the second passes the check before the first
    is written; the database's unique username stops it, and the service says taken."""
    user_factory("marko")

    with mock.patch.object(usernames, "is_taken", return_value=False):
        with pytest.raises(services.UsernameTaken):
            services.user_signup(username="marko", password=password)
        page = Client().post(
            PAGE, {"username": "marko", "password1": password, "password2": password}
        )

    assert page.status_code == 200 and "That username is taken." in page.content.decode()
    assert _usernames() == ["marko"]


# Letters that look alike across alphabets, compatibility forms and case.
LOOK_ALIKES = "aаⓐａAАΑcсCСeеEЕoоοOОΟpрPРxхXХkкKКΚmмMМⅯｍnrs1lI"


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(names=st.lists(st.text(alphabet=LOOK_ALIKES, min_size=1, max_size=4), max_size=6))
def test_no_two_accounts_read_the_same_whatever_is_tried(names: list[str], password: str) -> None:
    """Any run of sign-ups: each is an account or a refusal (never an error), and the
    accounts made read differently and each keeps to one alphabet."""
    made: list[Any] = []
    with transaction.atomic():  # each example's accounts are rolled back
        for name in names:
            try:
                usernames.refuse_mixed_alphabets(name)  # the form's and the API's validator
            except ValidationError:
                continue
            with contextlib.suppress(services.UsernameTaken):
                made.append(services.user_signup(username=name, password=password))
        stored = [user.username for user in made]
        readings = [usernames.latin_reading(name).casefold() for name in stored]
        assert len(set(readings)) == len(readings), stored
        assert all(name == unicodedata.normalize("NFKC", name) for name in stored)
        assert not [name for name in stored if confusables.is_dangerous(name)]
        transaction.set_rollback(True)
