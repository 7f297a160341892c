"""Table chat over REST: who may write and read, what a line may hold, the
moderator's hide, and the answers against the OpenAPI schema."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from rest_framework.throttling import ScopedRateThrottle

from games.models import ChatMessage
from games.play import chat
from tests.gamekit import SchemaChecker, error_of

pytestmark = pytest.mark.django_db

CHAT = "/api/v1/games/{game_id}/chat"


def chat_url(game) -> str:
    return f"/api/v1/games/{game.public_id}/chat"


def test_a_player_says_something_and_everyone_who_may_see_the_game_reads_it(
    started, client_for, spectator
):
    game, users = started(players=2)
    alice, bob = (client_for(user) for user in users)

    posted = alice.post(chat_url(game), {"text": "  good luck!  "}, format="json")

    assert posted.status_code == 201, posted.json()
    line = posted.json()
    assert line["text"] == "good luck!"
    assert line["ply"] == game.ply
    assert line["user"]["username"] == users[0].username
    SchemaChecker(alice).check("POST", CHAT, 201, line)
    for reader in (alice, bob, spectator):
        body = reader.get(chat_url(game)).json()
        assert [m["text"] for m in body["results"]] == ["good luck!"]
    SchemaChecker(bob).check("GET", CHAT, 200, bob.get(chat_url(game)).json())


def test_a_reader_asks_only_for_the_lines_after_the_last_it_saw(started, client_for):
    game, users = started(players=2)
    alice = client_for(users[0])
    first = alice.post(chat_url(game), {"text": "one"}, format="json").json()
    alice.post(chat_url(game), {"text": "two"}, format="json")

    body = alice.get(chat_url(game), {"after": first["id"]}).json()

    assert [m["text"] for m in body["results"]] == ["two"]


def test_a_spectator_may_read_but_not_write(started, spectator):
    game, _users = started(players=2)

    response = spectator.post(chat_url(game), {"text": "hello"}, format="json")

    assert response.status_code == 403
    assert error_of(response)["code"] == "not_allowed"
    assert "spectators read" in error_of(response)["message"]
    assert not ChatMessage.objects.exists()


def test_a_private_games_chat_is_not_found_for_strangers(started, spectator):
    game, _users = started(players=2, visibility="private")

    assert spectator.get(chat_url(game)).status_code == 404
    assert spectator.post(chat_url(game), {"text": "hi"}, format="json").status_code == 404


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("   ", "chat_empty"),
        ("x" * 301, "chat_too_long"),
        ("two\nlines", "chat_control_characters"),
        ("bell\x07", "chat_control_characters"),
    ],
)
def test_a_bad_line_is_refused_with_a_code_that_names_the_problem(started, client_for, text, code):
    game, users = started(players=2)
    client = client_for(users[0])

    response = client.post(chat_url(game), {"text": text}, format="json")

    assert response.status_code == 400
    assert error_of(response)["code"] == code
    SchemaChecker(client).check("POST", CHAT, 400, response.json())
    assert not ChatMessage.objects.exists()


def test_a_request_without_text_is_refused(started, client_for):
    game, users = started(players=2)

    response = client_for(users[0]).post(chat_url(game), {}, format="json")

    assert response.status_code == 400
    assert "text" in str(response.json()["error"])


def test_a_line_of_exactly_the_maximum_length_is_accepted(started, client_for):
    game, users = started(players=2)

    response = client_for(users[0]).post(chat_url(game), {"text": "é" * 300}, format="json")

    assert response.status_code == 201


def test_an_aborted_games_chat_is_closed(lobby, client_for):
    from games.play.lobby import game_abort

    game, users = lobby(players=2)
    game_abort(game=game, user=users[0])

    response = client_for(users[0]).post(chat_url(game), {"text": "bye"}, format="json")

    assert response.status_code == 409
    assert error_of(response)["code"] == "chat_closed"


def test_writing_is_rate_limited_but_reading_is_not(started, client_for, monkeypatch):
    # The test settings lift every rate; put the production default back for chat.
    rates = {**ScopedRateThrottle.THROTTLE_RATES, "chat": "20/min"}
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", rates)
    game, users = started(players=2)
    client = client_for(users[0])
    for index in range(20):
        assert client.post(chat_url(game), {"text": f"{index}"}, format="json").status_code == 201

    refused = client.post(chat_url(game), {"text": "one too many"}, format="json")

    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert client.get(chat_url(game)).status_code == 200


def test_a_hidden_line_disappears_for_everyone(started, client_for, user_factory):
    game, users = started(players=2)
    alice, bob = (client_for(user) for user in users)
    rude = alice.post(chat_url(game), {"text": "rude"}, format="json").json()
    alice.post(chat_url(game), {"text": "sorry"}, format="json")
    moderator = user_factory(username="mod")

    assert chat.hide_message(message=ChatMessage.objects.get(pk=rude["id"]), moderator=moderator)
    assert not chat.hide_message(
        message=ChatMessage.objects.get(pk=rude["id"]), moderator=moderator
    )

    assert [m["text"] for m in bob.get(chat_url(game)).json()["results"]] == ["sorry"]
    row = ChatMessage.objects.get(pk=rude["id"])
    assert row.text == "rude" and row.hidden_by == moderator  # kept for the record


def test_a_moderator_hides_lines_from_the_admin(started, client_for, user_factory):
    game, users = started(players=2)
    line = client_for(users[0]).post(chat_url(game), {"text": "spam"}, format="json").json()
    moderator = user_factory(username="mod")
    moderator.is_staff = True
    moderator.save()
    for codename in ("view_chatmessage", "change_chatmessage"):
        moderator.user_permissions.add(Permission.objects.get(codename=codename))
    browser = Client()
    browser.force_login(moderator)

    response = browser.post(
        "/admin/games/chatmessage/",
        {
            "action": "hide_messages",
            "_selected_action": [line["id"]],
            "apply": "1",
            "reason": "spam",
        },
        follow=True,
    )

    assert response.status_code == 200
    assert b"1 line hidden." in response.content
    assert ChatMessage.objects.get(pk=line["id"]).hidden_at is not None
