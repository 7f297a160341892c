"""Moderation through the admin: hidden cards, drawn as cards, for moderators with the
permission only, of a game over or one they are not seated at (never a running game
they play, not even a superuser), every look recorded; the move log is read-only;
state changes go through services."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from accounts.models import ModAction
from games.engine import DrawStock
from games.models import Deal, Game, ModerationAccess, Move
from games.play.resign import game_resign
from tests.gamekit import greedy_action

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(user_factory: Callable[..., Any]) -> Callable[..., Client]:
    """``staff(*codenames)``: a logged-in staff client with these games permissions."""

    def make(*codenames: str) -> Client:
        person = user_factory()
        person.is_staff = True
        person.save()
        person.user_permissions.add(
            *Permission.objects.filter(content_type__app_label="games", codename__in=codenames)
        )
        client = Client()
        client.force_login(person)
        client.user = person  # type: ignore[attr-defined]
        return client

    return make


VIEW_ALL = ("view_game", "view_deal", "view_move", "view_seat")


def a_game_with_a_draw(started: Callable[..., Any]) -> tuple[Game, Deal, Move]:
    """A started 2-player game in which the player to move has drawn from the stock."""
    from games.play.act import game_act

    game, users = started(players=2, preset="serbian")
    for _ in range(3):
        game.refresh_from_db()
        row = Deal.objects.get(game=game, number=game.deal_number)
        deal = row.restore(game.engine_ruleset())
        action = DrawStock() if not deal.drawn else greedy_action(deal)
        game_act(game=game, user=users[deal.to_move], action=action, expected_ply=game.ply)
        if isinstance(action, DrawStock):
            break
    game.refresh_from_db()
    row = Deal.objects.get(game=game, number=game.deal_number)
    move = Move.objects.filter(game=game, kind="draw").latest("ply")
    assert move.private is not None
    return game, row, move


def mentions(page: str, text: str) -> bool:
    """``text`` is on the page, as is or HTML-escaped."""
    return text in page or text.replace('"', "&quot;") in page


SUIT_SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}


def drawn(text: str, card_id: int) -> str:
    """A card as the admin draws it: rank and suit symbol (red or black), the joker a
    star; its id in the tooltip."""
    if text == "JK":
        return f'<span class="admin-card card-joker" title="JK #{card_id}">★</span>'
    colour = "red" if text[-1] in "HD" else "black"
    face = text[:-1] + SUIT_SYMBOLS[text[-1]]
    return f'<span class="admin-card card-{colour}" title="{text} #{card_id}">{face}</span>'


def hand_texts(row: Deal) -> list[str]:
    """Every hand of the deal, each as its cards drawn one after the other."""
    deal = row.restore(row.game.engine_ruleset())
    return [
        "".join(drawn(str(deal.card(card_id)), card_id) for card_id in deal.hand_ids(seat))
        for seat in range(deal.num_players)
    ]


def test_a_moderator_sees_every_hand_and_the_access_is_logged(
    started: Callable[..., Any], staff: Callable[..., Client], caplog: Any
) -> None:
    game, row, _ = a_game_with_a_draw(started)
    moderator = staff(*VIEW_ALL, "view_hidden_cards")
    caplog.set_level(logging.INFO, logger="games.read.moderation")

    response = moderator.get(f"/admin/games/deal/{row.pk}/change/")

    assert response.status_code == 200
    page = response.content.decode()
    assert "Hidden information" in page
    assert "css/admin_cards.css" in page  # the cards' faces: rank, suit symbol, colour
    for hand in hand_texts(row):
        assert hand in page
    access = ModerationAccess.objects.get()
    assert (access.user_id, access.game_id, access.deal_id, access.what) == (
        moderator.user.pk,  # type: ignore[attr-defined]
        game.pk,
        row.pk,
        "deal_state",
    )
    assert any(
        "saw deal_state" in record.getMessage() and game.public_id in record.getMessage()
        for record in caplog.records
    )


def test_staff_without_the_permission_see_no_hidden_cards(
    started: Callable[..., Any], staff: Callable[..., Client]
) -> None:
    game, row, move = a_game_with_a_draw(started)
    clerk = staff(*VIEW_ALL)

    deal_page = clerk.get(f"/admin/games/deal/{row.pk}/change/")
    move_page = clerk.get(f"/admin/games/move/{move.pk}/change/")
    game_page = clerk.get(f"/admin/games/game/{game.pk}/change/")
    lists = [clerk.get(f"/admin/games/{name}/") for name in ("game", "deal", "move")]

    for response in (deal_page, move_page, game_page, *lists):
        assert response.status_code == 200
        page = response.content.decode()
        assert "Hidden information" not in page
        for hand in hand_texts(row):
            assert hand not in page
        for key in ("stock", "hands", "deck", "card_ids", "private"):
            assert not mentions(page, f'"{key}"'), key
    card = move.private["card"]
    assert not mentions(move_page.content.decode(), f'"id": {card["id"]}')
    assert drawn(card["card"], card["id"]) not in move_page.content.decode()
    assert "cards in the stock" in deal_page.content.decode()  # the public view is there
    assert ModerationAccess.objects.count() == 0


def test_a_moderator_sees_a_private_draw_and_it_is_logged(
    started: Callable[..., Any], staff: Callable[..., Client]
) -> None:
    game, row, move = a_game_with_a_draw(started)
    moderator = staff(*VIEW_ALL, "view_hidden_cards")

    page = moderator.get(f"/admin/games/move/{move.pk}/change/").content.decode()

    card = move.private["card"]
    assert drawn(card["card"], card["id"]) in page
    access = ModerationAccess.objects.get()
    assert (access.what, access.game_id, access.deal_id) == ("move_private", game.pk, row.pk)


def test_the_move_log_is_append_only_in_the_admin(
    started: Callable[..., Any], admin_client: Client
) -> None:
    game, _, move = a_game_with_a_draw(started)
    before = Move.objects.count()

    assert admin_client.get("/admin/games/move/add/").status_code == 403
    assert admin_client.post(f"/admin/games/move/{move.pk}/delete/").status_code == 403
    changed = admin_client.post(
        f"/admin/games/move/{move.pk}/change/", {"kind": "discard", "ply": 99}
    )
    assert changed.status_code == 403
    bulk = admin_client.post(
        "/admin/games/move/", {"action": "delete_selected", "_selected_action": [move.pk]}
    )
    assert bulk.status_code in (200, 302)
    assert Move.objects.count() == before
    move.refresh_from_db()
    assert move.kind == "draw"
    assert admin_client.get("/admin/games/game/add/").status_code == 403
    assert admin_client.post(f"/admin/games/game/{game.pk}/delete/").status_code == 403


def test_aborting_a_game_from_the_admin_goes_through_the_service(
    started: Callable[..., Any], admin_client: Client
) -> None:
    game, _ = started(players=2, preset="serbian")
    over, _ = started(players=2, preset="serbian")
    Game.objects.filter(pk=over.pk).update(status=Game.Status.FINISHED)

    response = admin_client.post(
        "/admin/games/game/",
        {
            "action": "abort_games",
            "_selected_action": [game.pk, over.pk],
            "apply": "1",
            "reason": "stuck",
        },
        follow=True,
    )

    assert response.status_code == 200
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.end_reason == "aborted"
    assert game.deadline_at is None
    page = response.content.decode()
    assert "1 game aborted" in page and "The game is over." in page
    Game.objects.filter(pk=over.pk).update(status=Game.Status.ACTIVE)  # for the replay check


def test_every_admin_page_renders_for_a_superuser(
    started: Callable[..., Any], admin_client: Client
) -> None:
    game, row, move = a_game_with_a_draw(started)
    pages = [
        "/admin/games/game/",
        f"/admin/games/game/{game.pk}/change/",
        "/admin/games/deal/",
        f"/admin/games/deal/{row.pk}/change/",
        "/admin/games/move/",
        f"/admin/games/move/{move.pk}/change/",
        "/admin/games/playersettings/",
        "/admin/games/moderationaccess/",
        "/admin/accounts/apitoken/",
    ]
    for url in pages:
        assert admin_client.get(url).status_code == 200, url
    # A superuser has every permission: their looks are recorded too.
    assert ModerationAccess.objects.filter(what__in=["deal_state", "move_private"]).count() == 2


def seated_staff(user: Any, *, superuser: bool = False, codenames: tuple[str, ...] = ()) -> Client:
    """A player of the game made staff (a superuser, or with these games permissions)."""
    user.is_staff = True
    user.is_superuser = superuser
    user.save()
    user.user_permissions.add(
        *Permission.objects.filter(content_type__app_label="games", codename__in=codenames)
    )
    client = Client()
    client.force_login(user)
    return client


def test_staff_seated_at_a_running_game_never_see_its_hidden_cards_not_even_a_superuser(
    started: Callable[..., Any],
) -> None:
    game, row, move = a_game_with_a_draw(started)
    users = [seat.user for seat in game.seats.select_related("user").order_by("position")]
    superuser = seated_staff(users[0], superuser=True)
    moderator = seated_staff(users[1], codenames=(*VIEW_ALL, "view_hidden_cards"))

    for client in (superuser, moderator):
        deal_page = client.get(f"/admin/games/deal/{row.pk}/change/")
        move_page = client.get(f"/admin/games/move/{move.pk}/change/")
        for response in (deal_page, move_page):
            assert response.status_code == 200
            page = response.content.decode()
            assert "Hidden information" not in page
            for hand in hand_texts(row):
                assert hand not in page
        card = move.private["card"]
        assert drawn(card["card"], card["id"]) not in move_page.content.decode()

    assert ModerationAccess.objects.count() == 0
    assert not ModAction.objects.filter(action=ModAction.Action.LOOK_HIDDEN).exists()


def test_a_permission_holder_sees_the_hidden_cards_of_a_finished_game_they_played_logged(
    started: Callable[..., Any], caplog: Any
) -> None:
    game, row, move = a_game_with_a_draw(started)
    users = [seat.user for seat in game.seats.select_related("user").order_by("position")]
    game_resign(game=game, user=users[0])
    game.refresh_from_db()
    assert game.is_over
    moderator = seated_staff(users[1], codenames=(*VIEW_ALL, "view_hidden_cards"))
    caplog.set_level(logging.INFO, logger="games.read.moderation")

    deal_page = moderator.get(f"/admin/games/deal/{row.pk}/change/?reason=report+%2312")
    move_page = moderator.get(f"/admin/games/move/{move.pk}/change/")

    row.refresh_from_db()
    page = deal_page.content.decode()
    assert "Hidden information" in page
    for hand in hand_texts(row):
        assert hand in page
    card = move.private["card"]
    assert drawn(card["card"], card["id"]) in move_page.content.decode()
    looks = ModerationAccess.objects.filter(user=users[1], game=game)
    assert sorted(looks.values_list("what", flat=True)) == ["deal_state", "move_private"]
    logged = ModAction.objects.filter(action=ModAction.Action.LOOK_HIDDEN, moderator=users[1])
    assert sorted(logged.values_list("reason", flat=True))[-1] == "report #12"
    assert logged.count() == 2
    assert sum("saw deal_state" in record.getMessage() for record in caplog.records) == 1
