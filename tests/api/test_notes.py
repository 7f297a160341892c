"""A player's private note on a game: kept with the game, read by its author alone."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import NOTE_MAX_LENGTH
from tests.gamekit import error_of, keys_in, table_create

pytestmark = pytest.mark.django_db

SECRET = "bluffing about the hearts: keep the 7H"


def test_a_player_writes_and_reads_their_note(players: Any, deals_seeded: Any) -> None:
    table = table_create(players(2), preset="serbian")

    saved = table.clients[0].put(table.url("/note"), {"text": SECRET})
    read = table.clients[0].get(table.url("/note"))

    assert saved.status_code == 200 and read.status_code == 200
    assert read.json()["text"] == SECRET and read.json()["updated_at"] is not None


def test_no_other_player_or_spectator_ever_receives_the_note(
    players: Any, spectator: Any, deals_seeded: Any
) -> None:
    table = table_create(players(2), preset="serbian", spectator=spectator)
    table.clients[0].put(table.url("/note"), {"text": SECRET})

    other, watcher = table.clients[1], spectator
    assert other.get(table.url("/note")).json()["text"] == ""
    assert error_of(watcher.get(table.url("/note")))["code"] == "not_a_player"
    for client in (other, watcher, table.clients[0]):
        for url in (table.url(), table.url("/moves"), "/api/v1/games", "/api/v1/games?mine=true"):
            body = client.get(url)
            assert SECRET not in body.content.decode()
            assert "note" not in keys_in(body.json())


def test_the_note_stays_with_a_finished_game(players: Any, deals_seeded: Any) -> None:
    table = table_create(players(2), preset="serbian")
    table.clients[1].put(table.url("/note"), {"text": SECRET})

    table.clients[0].post(table.url("/resign"))

    assert table.game.status == "finished"
    assert table.clients[1].get(table.url("/note")).json()["text"] == SECRET


def test_blank_text_deletes_the_note(players: Any, deals_seeded: Any) -> None:
    table = table_create(players(2), preset="serbian")
    table.clients[0].put(table.url("/note"), {"text": SECRET})

    table.clients[0].put(table.url("/note"), {"text": "  "})

    assert table.clients[0].get(table.url("/note")).json() == {"text": "", "updated_at": None}


@pytest.mark.parametrize(
    ("text", "code"),
    [("a\x00b", "invalid"), ("x" * (NOTE_MAX_LENGTH + 1), "note_too_long"), (7, "invalid")],
)
def test_bad_notes_are_refused_with_a_400(
    players: Any, deals_seeded: Any, text: Any, code: str
) -> None:
    table = table_create(players(2), preset="serbian")

    response = table.clients[0].put(table.url("/note"), {"text": text})

    assert response.status_code == 400
    assert error_of(response)["code"] == code
    assert table.clients[0].get(table.url("/note")).json()["text"] == ""


def test_a_private_game_has_no_note_for_strangers(
    players: Any, spectator: Any, user_factory: Any, client_for: Any
) -> None:
    host = players(1)[0]
    game_id = host.post(
        "/api/v1/games", {"preset": "serbian", "players": 2, "visibility": "private"}
    ).json()["id"]

    response = spectator.put(f"/api/v1/games/{game_id}/note", {"text": "hi"})

    assert response.status_code == 404
