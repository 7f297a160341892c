"""Moderators' commands on games, through their service and the admin: abort,
adjudicate, hide a chat line, look at hidden cards; each leaves its modlog row with
the moderator's reason, and a refused one leaves none."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from accounts.models import ModAction, RatingChange
from games.errors import Conflict
from games.models import ChatMessage, Deal, Game, Move, Seat
from games.play import chat
from games.play import moderation as game_moderation

pytestmark = pytest.mark.django_db


def test_aborting_a_game_is_logged_with_its_reason(
    started: Callable[..., Any], moderator: Any
) -> None:
    game, _ = started(players=2)

    game_moderation.game_abort_moderated(game=game, moderator=moderator, reason="stuck table")
    with pytest.raises(Conflict):
        game_moderation.game_abort_moderated(game=game, moderator=moderator, reason="again")

    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    logged = ModAction.objects.get()
    assert (logged.action, logged.game, logged.moderator, logged.reason) == (
        "abort",
        game,
        moderator,
        "stuck table",
    )


def test_a_moderator_aborts_a_game_from_its_admin_page(
    started: Callable[..., Any], moderator_client: Client
) -> None:
    game, _ = started(players=2)

    page = moderator_client.get(f"/admin/games/game/{game.pk}/change/")
    response = moderator_client.post(
        f"/admin/games/game/{game.pk}/act/abort/", {"reason": "reported as stuck"}, follow=True
    )

    assert f"/admin/games/game/{game.pk}/act/abort/".encode() in page.content
    assert b"aborted." in response.content
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert ModAction.objects.get().reason == "reported as stuck"


def test_adjudicating_a_rated_game_ends_it_against_the_named_player(
    rated_game: Callable[..., Any], moderator: Any, moderator_client: Client
) -> None:
    game, (first, second) = rated_game(2)

    response = moderator_client.post(
        f"/admin/games/game/{game.pk}/act/adjudicate/",
        {"loser": "0", "reason": "stalled on purpose for an hour"},
    )

    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.status, game.end_reason, game.winners) == (
        Game.Status.FINISHED,
        "adjudicated",
        [1],
    )
    ranks = dict(RatingChange.objects.filter(game=game).values_list("user_id", "rank"))
    assert ranks == {first.pk: 2, second.pk: 1}
    assert Move.objects.filter(game=game, kind="resign").get().payload == {
        "type": "resign",
        "reason": "adjudicated",
    }
    logged = ModAction.objects.get()
    assert (logged.action, logged.target, logged.game) == ("adjudicate", first, game)
    assert logged.details == {"loser": 0, "winners": [1]}


def test_adjudicating_a_three_player_game_ends_the_match_for_everyone(
    started: Callable[..., Any], moderator: Any
) -> None:
    game, users = started(players=3)

    ended = game_moderation.game_adjudicate(
        game=game, position=0, moderator=moderator, reason="colluding"
    )

    assert ended.status == Game.Status.FINISHED
    assert ended.winners == [1, 2]  # the lowest total among the others (none scored yet)
    assert Seat.objects.get(game=game, position=0).status == Seat.Status.OUT
    with pytest.raises(Conflict):
        game_moderation.game_adjudicate(game=game, position=1, moderator=moderator, reason="x")
    assert ModAction.objects.count() == 1


def test_hiding_a_line_is_logged_once_against_its_author(
    started: Callable[..., Any], moderator: Any
) -> None:
    game, (alice, bob) = started(players=2)
    line = chat.post_message(game=game, user=bob, text="idiot")

    assert game_moderation.chat_hide(message=line, moderator=moderator, reason="insult")
    assert not game_moderation.chat_hide(message=line, moderator=moderator, reason="insult")

    line.refresh_from_db()
    assert line.hidden_by == moderator
    logged = ModAction.objects.get()
    assert (logged.action, logged.target, logged.game) == ("hide_chat", bob, game)
    assert logged.details == {"message": line.pk, "text": "idiot"}


def test_hiding_lines_from_the_admin_asks_for_a_reason_first(
    started: Callable[..., Any], moderator_client: Client
) -> None:
    game, (alice, bob) = started(players=2)
    line = chat.post_message(game=game, user=bob, text="spam spam")
    selected = {"action": "hide_messages", "_selected_action": [line.pk]}

    asked = moderator_client.post("/admin/games/chatmessage/", selected)
    empty = moderator_client.post("/admin/games/chatmessage/", {**selected, "apply": "1"})

    assert asked.status_code == 200 and b"spam spam" in asked.content
    assert empty.status_code == 200 and b"This field is required" in empty.content
    assert ChatMessage.objects.get().hidden_at is None
    assert not ModAction.objects.exists()


def test_a_look_at_hidden_cards_is_in_the_modlog_with_the_links_reason(
    started: Callable[..., Any], moderator: Any, moderator_client: Client
) -> None:
    game, _ = started(players=2)
    deal = Deal.objects.get(game=game)

    plain = moderator_client.get(f"/admin/games/deal/{deal.pk}/change/")
    from_report = moderator_client.get(
        f"/admin/games/deal/{deal.pk}/change/", {"reason": "report #12"}
    )

    assert b"Hidden information" in plain.content and b"Hidden information" in from_report.content
    looks = list(
        ModAction.objects.order_by("id").values_list("action", "moderator", "game", "reason")
    )
    assert looks == [
        ("look_hidden", moderator.pk, game.pk, f"looked at the hidden cards of {deal}"),
        ("look_hidden", moderator.pk, game.pk, "report #12"),
    ]
