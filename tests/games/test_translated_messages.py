"""What the games and the accounts say is said in the language of the request: the
engine's refusals over the API (with the same stable code), a form's errors on a page,
and the presets' names on a page and in the API."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.gamekit import current_engine_deal, error_of, table_create

pytestmark = pytest.mark.django_db

CYRILLIC = re.compile(r"[\u0400-\u04ff]")


@pytest.fixture
def table(players, deals_seeded):
    return table_create(players(2), preset="polish51")


def discard_before_drawing(table, language: str):
    game = table.game
    seat = current_engine_deal(game).to_move
    return table.clients[seat].post(
        table.url("/actions"),
        {"action": {"type": "discard", "card": "7H"}, "ply": game.ply},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "draw a card first (stock or discard pile)"),
        ("mk", "прво влечи карта (од шпилот или од купот исфрлени карти)"),
        ("sr-latn", "prvo vuci kartu (sa gomile za vučenje ili sa gomile za odbacivanje)"),
        ("sr-cyrl", "прво вуци карту (са гомиле за вучење или са гомиле за одбацивање)"),
        ("pl", "najpierw dobierz kartę (ze stosu zakrytego albo ze stosu odkrytego)"),
    ],
)
def test_an_illegal_move_is_refused_in_the_language_asked_for_with_the_same_code(
    table, language, message
):
    response = discard_before_drawing(table, language)

    assert response.status_code == 400
    assert error_of(response) == {"code": "must_draw_first", "message": message, "details": {}}


def test_a_refusal_in_serbian_cyrillic_is_written_in_cyrillic(table):
    response = discard_before_drawing(table, "sr-cyrl")

    message = error_of(response)["message"]
    assert CYRILLIC.search(message) and not re.search(r"[a-z]", message)


def test_a_refusal_with_values_keeps_them_in_another_language(table):
    game = table.game
    seat = current_engine_deal(game).to_move
    client = table.clients[seat]
    drawn = client.post(
        table.url("/actions"), {"action": {"type": "draw"}, "ply": game.ply}, format="json"
    )
    assert drawn.status_code == 200
    hand = {pair["card"] for pair in drawn.json()["game"]["deal"]["hand"]}
    missing = next(card for card in ("AS", "AH", "AD", "AC", "KS", "KH") if card not in hand)

    response = client.post(
        table.url("/actions"),
        {"action": {"type": "discard", "card": missing}, "ply": game.ply + 1},
        format="json",
        HTTP_ACCEPT_LANGUAGE="pl",
    )

    assert error_of(response)["code"] == "card_not_in_hand"
    assert error_of(response)["message"] == f"nie masz {missing} w ręce"


def test_a_service_refusal_is_translated_too(players):
    host, other = players(2)
    created = host.post("/api/v1/games", {"preset": "serbian", "players": 2}, format="json")
    game_id = created.json()["id"]

    response = other.post(f"/api/v1/games/{game_id}/start", HTTP_ACCEPT_LANGUAGE="mk")

    assert response.status_code == 403
    assert error_of(response)["code"] == "not_host"
    assert error_of(response)["message"] == "само домаќинот може да ја започне партијата"


def test_a_form_error_on_a_page_is_in_polish(user_factory):
    user_factory(username="zofia")

    response = Client().post(
        "/accounts/signup/",
        {"username": "zofia", "password1": "a-long-pass-123", "password2": "a-long-pass-123"},
        HTTP_ACCEPT_LANGUAGE="pl",
    )

    assert response.status_code == 200
    assert "Ta nazwa użytkownika jest zajęta." in response.content.decode()


def test_the_presets_are_named_in_the_language_of_the_page():
    page = Client().get("/rules/", HTTP_ACCEPT_LANGUAGE="mk").content.decode()

    assert "Македонско реми" in page and "Полско реми 51" in page
    assert "Macedonian Remi" not in page


def test_the_api_names_and_describes_the_presets_in_the_language_asked_for(players):
    (client,) = players(1)

    response = client.get("/api/v1/rulesets", HTTP_ACCEPT_LANGUAGE="pl")

    rulesets = {item["name"]: item["ruleset"] for item in response.json()["results"]}
    assert rulesets["macedonian"]["display_name"] == "Remik macedoński"
    assert rulesets["polish51"]["description"].startswith("Remik 51 w wersji z polskich")


def test_a_games_rules_are_named_in_the_language_asked_for(table):
    seat = current_engine_deal(table.game).to_move

    response = table.clients[seat].get(table.url(), HTTP_ACCEPT_LANGUAGE="sr-latn")

    assert response.json()["ruleset"]["display_name"] == "Poljski remi 51"
    assert response.json()["preset"] == "polish51"
