"""A moderator at a table: the chat's lines with "hide line" and "show again" (logged
with the game and the report, gone from every way the players read the chat), a menu
for each person seated that leads to the player's page with the game and the report
linked in the modlog; nobody else sees or may use any of it. And the suspicious pairs
an account is in, on its record."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.test import Client

from accounts.models import ModAction, Sanction
from accounts.moderation import services
from accounts.moderation.roles import MODERATOR_GROUP
from games.models import ChatMessage, Game
from games.play import chat
from games.play.create import game_create
from games.play.lobby import game_join, game_start
from games.play.resign import game_resign
from tests.gamekit import SERVER_ONLY_KEYS, card_pairs, current_engine_deal, keys_in
from tests.user_kit import logged_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(user_factory: Callable[..., Any]) -> tuple[Game, Any, Any, ChatMessage]:
    """A public game of ana and ben, ben's rude line in its chat, reported by ana."""
    ana, ben = user_factory(username="ana"), user_factory(username="ben")
    game = game_create(owner=ana, preset="serbian", players=2)
    game_join(game=game, user=ben)
    game = game_start(game=game, user=ana)
    line = chat.post_message(game=game, user=ben, text="you absolute donkey")
    return game, ana, ben, line


def chat_url(game: Game, line: ChatMessage | None = None, verb: str = "") -> str:
    base = f"/moderation/games/{game.public_id}/chat/"
    return base if line is None else f"{base}{line.pk}/{verb}/"


def visible_texts(client: Client, game: Game) -> list[str]:
    body = client.get(f"/api/v1/games/{game.public_id}/chat").json()
    return [line["text"] for line in body["results"]]


def test_a_moderator_hides_a_line_for_everyone_and_shows_it_again(
    table: tuple[Game, Any, Any, ChatMessage],
    moderator_client: Client,
    user_factory: Callable[..., Any],
) -> None:
    game, ana, ben, line = table
    report = services.report_create(reporter=ana, reported=ben, reason="abuse", chat_message=line)

    hidden = moderator_client.post(
        chat_url(game, line, "hide"), {"report": report.pk}, content_type="application/json"
    )

    assert hidden.status_code == 200 and hidden.json()["hidden"] is True
    row = ModAction.objects.get(action="hide_chat")
    assert (row.game, row.report, row.target) == (game, report, ben)
    spectator = logged_in(user_factory(username="spectator"))
    for viewer in (logged_in(ana), logged_in(ben), spectator):
        assert visible_texts(viewer, game) == []
    lines = moderator_client.get(chat_url(game)).json()["results"]
    assert [(entry["text"], entry["hidden"]) for entry in lines] == [("you absolute donkey", True)]

    shown = moderator_client.post(chat_url(game, line, "show"), content_type="application/json")

    assert shown.status_code == 200 and shown.json()["hidden"] is False
    assert ModAction.objects.filter(action="show_chat", game=game, target=ben).count() == 1
    assert visible_texts(logged_in(ana), game) == ["you absolute donkey"]


def test_hiding_a_hidden_line_again_writes_no_second_modlog_row(
    table: tuple[Game, Any, Any, ChatMessage], moderator_client: Client
) -> None:
    game, _ana, _ben, line = table
    for _ in range(2):
        assert moderator_client.post(chat_url(game, line, "hide")).status_code == 200
    assert ModAction.objects.filter(action="hide_chat").count() == 1


def test_only_moderators_read_or_change_the_tables_chat_controls(
    table: tuple[Game, Any, Any, ChatMessage],
    staff_factory: Callable[..., Any],
    moderator: Any,
    moderator_client: Client,
) -> None:
    game, ana, _ben, line = table
    outsiders = [Client(), logged_in(ana), logged_in(staff_factory(moderator=False))]
    for client in outsiders:
        for answer in (
            client.get(chat_url(game)),
            client.post(chat_url(game, line, "hide")),
            client.post(chat_url(game, line, "show")),
        ):
            assert answer.status_code == 403
            assert answer.json()["error"]["code"] == "not_moderator"
    assert ChatMessage.objects.get().hidden_at is None

    # A moderator who leaves the group loses them at once.
    moderator.groups.remove(Group.objects.get(name=MODERATOR_GROUP))
    assert moderator_client.post(chat_url(game, line, "hide")).status_code == 403
    assert moderator_client.get(f"/games/{game.public_id}/").content.count(b"mod-table") == 0


def test_bad_input_to_the_chat_controls_is_a_clear_4xx(
    table: tuple[Game, Any, Any, ChatMessage], moderator_client: Client
) -> None:
    game, _ana, _ben, line = table
    assert moderator_client.get("/moderation/games/nosuch/chat/").status_code == 404
    assert moderator_client.post(f"{chat_url(game)}999999/hide/").status_code == 404
    bad_json = moderator_client.post(
        chat_url(game, line, "hide"), "{", content_type="application/json"
    )
    assert bad_json.status_code == 400 and bad_json.json()["error"]["code"] == "invalid_json"
    for body in ({"report": "x"}, {"report": 999999}, {"reason": 5}, {"reason": "x" * 5000}):
        answer = moderator_client.post(
            chat_url(game, line, "hide"), body, content_type="application/json"
        )
        assert answer.status_code in (400, 404), body
        assert "error" in answer.json()
    wrong = moderator_client.get(chat_url(game, line, "hide"))
    assert wrong.status_code == 405 and wrong.json()["error"]["code"] == "method_not_allowed"
    assert ChatMessage.objects.get().hidden_at is None


def test_a_banned_moderator_loses_the_controls_at_once(
    table: tuple[Game, Any, Any, ChatMessage], moderator: Any, user_factory: Callable[..., Any]
) -> None:
    game, _ana, _ben, line = table
    client = logged_in(moderator)
    admin = user_factory(username="root")
    admin.is_superuser = admin.is_staff = True
    admin.save()
    services.ban_create(user=moderator, moderator=admin, reason="rogue", permanent=True)

    assert client.post(chat_url(game, line, "hide")).status_code == 403
    assert ChatMessage.objects.get().hidden_at is None


def test_the_table_shows_a_moderator_a_menu_for_each_person_seated_and_nobody_else_sees_it(
    bots: list[Any],
    user_factory: Callable[..., Any],
    staff_factory: Callable[..., Any],
    moderator_client: Client,
) -> None:
    ana, colleague = user_factory(username="ana"), staff_factory(username="colleague")
    game = game_create(owner=ana, preset="serbian", players=3, bots=[bots[0]])
    game_join(game=game, user=colleague)
    game = game_start(game=game, user=ana)

    page = moderator_client.get(f"/games/{game.public_id}/").content.decode()

    panel = page.split('id="mod-seats"')[1].split("</section>")[0]
    assert 'data-account="ana"' in panel
    assert bots[0].username not in panel  # a built-in bot is never sanctioned
    assert "colleague" not in panel  # staff: a superuser's matter
    warn = f"/moderation/players/ana/?game={game.public_id}&amp;action=warn#action-warn"
    assert warn in panel
    assert f'data-mod-chat="/moderation/games/{game.public_id}/chat/"' in page
    for viewer in (logged_in(ana), Client(), logged_in(user_factory(username="watcher"))):
        body = viewer.get(f"/games/{game.public_id}/").content.decode()
        assert "mod-table" not in body and "data-mod-chat" not in body


def test_an_action_taken_from_the_table_links_the_game_and_the_report_in_the_modlog(
    table: tuple[Game, Any, Any, ChatMessage], moderator_client: Client
) -> None:
    game, ana, ben, line = table
    report = services.report_create(reporter=ana, reported=ben, reason="abuse", chat_message=line)
    menu = moderator_client.get(f"/games/{game.public_id}/?report={report.pk}").content.decode()
    link = f"/moderation/players/ben/?game={game.public_id}&amp;report={report.pk}&amp;action=warn"
    assert link in menu

    page = moderator_client.get(link.replace("&amp;", "&")).content.decode()
    assert 'id="action-warn" open' in page
    assert f'name="report" value="{report.pk}"' in page

    for action, fields in (
        ("warn", {"warn-preset": "abuse"}),
        ("mute", {"mute-preset": "abuse", "mute-length": "2", "mute-unit": "hours"}),
        ("note", {"note-text": "rude at the table"}),
    ):
        done = moderator_client.post(
            f"/moderation/players/ben/act/{action}/",
            {**fields, "game": game.public_id, "report": report.pk},
        )
        assert done.status_code == 302, action
        row = ModAction.objects.filter(action=action).get()
        assert (row.game, row.report, row.target) == (game, report, ben)
    assert Sanction.objects.filter(user=ben).count() == 2


def test_a_ban_from_the_table_is_confirmed_with_the_game_and_report_carried(
    table: tuple[Game, Any, Any, ChatMessage], moderator_client: Client
) -> None:
    game, ana, ben, line = table
    report = services.report_create(reporter=ana, reported=ben, reason="abuse", chat_message=line)
    fields = {"ban-preset": "abuse", "ban-length": "1", "ban-unit": "days"}
    origin = {"game": game.public_id, "report": report.pk}

    preview = moderator_client.post("/moderation/players/ben/act/ban/", {**fields, **origin})

    body = preview.content.decode()
    assert game.public_id in body.split('id="forfeited"')[1].split("</ul>")[0]
    assert f'name="report" value="{report.pk}"' in body
    done = moderator_client.post(
        "/moderation/players/ben/act/ban/", {**fields, **origin, "confirm": "1"}
    )
    assert done.status_code == 302
    row = ModAction.objects.get(action="ban")
    assert (row.game, row.report) == (game, report)


def test_unknown_origins_on_the_player_page_are_not_found(
    table: tuple[Game, Any, Any, ChatMessage], moderator_client: Client
) -> None:
    game, _ana, _ben, _line = table
    for query in ("game=nosuch", "report=abc", "report=999999"):
        assert moderator_client.get(f"/moderation/players/ben/?{query}").status_code == 404


def finished(rated_game: Callable[..., Any], winner: Any, loser: Any) -> Any:
    game, _ = rated_game(2, users=[winner, loser])
    return game_resign(game=game, user=loser)


def test_the_record_shows_the_suspicious_pairs_the_account_is_in(
    rated_game: Callable[..., Any], user_factory: Callable[..., Any], moderator_client: Client
) -> None:
    booster, farm = user_factory(username="booster"), user_factory(username="farm")
    honest = user_factory(username="honest")
    for _ in range(5):
        finished(rated_game, booster, farm)
    finished(rated_game, honest, farm)

    for name, other, ahead in (
        ("booster", "farm", "ahead 5, behind 0"),
        ("farm", "booster", "ahead 0, behind 5"),
    ):
        page = moderator_client.get(f"/moderation/players/{name}/").content.decode()
        pairs = page.split('id="pairs"')[1].split("</ul>")[0]
        assert f'href="/moderation/players/{other}/"' in pairs
        assert "5 rated games together" in pairs and ahead in pairs
        assert "finished ahead in 100.0%" in pairs
        assert "honest" not in pairs
    honest_page = moderator_client.get("/moderation/players/honest/").content.decode()
    assert "None" in honest_page.split('id="pairs"')[1].split("</ul>")[0]


def test_the_moderators_chat_read_and_table_page_carry_no_card_of_any_hand(
    table: tuple[Game, Any, Any, ChatMessage], moderator_client: Client
) -> None:
    game, _ana, _ben, _line = table
    lines = moderator_client.get(chat_url(game)).json()
    assert keys_in(lines) <= {"next", "previous", "results", "id", "ply", "user", "text"} | {
        "sent_at",
        "hidden",
        *keys_in(lines["results"][0]["user"]),
    }
    assert not SERVER_ONLY_KEYS & keys_in(lines) and not list(card_pairs(lines))
    page = moderator_client.get(f"/games/{game.public_id}/").content.decode()
    deal = current_engine_deal(game)
    for hand in deal.hands:
        for card in hand:
            assert f'"{card}"' not in page and f">{card}<" not in page


def test_a_moderator_opens_a_reported_private_table_as_a_spectator_and_nobody_else_finds_it(
    user_factory: Callable[..., Any],
    staff_factory: Callable[..., Any],
    moderator_client: Client,
) -> None:
    ana, ben = user_factory(username="ana"), user_factory(username="ben")
    game = game_create(owner=ana, preset="serbian", players=2, visibility=Game.Visibility.PRIVATE)
    game_join(game=game, user=ben, invite_code=game.invite_code)
    game = game_start(game=game, user=ana)
    line = chat.post_message(game=game, user=ben, text="you absolute donkey")
    report = services.report_create(reporter=ana, reported=ben, reason="abuse", chat_message=line)

    page = moderator_client.get(f"/games/{game.public_id}/?report={report.pk}")
    assert page.status_code == 200
    assert f'data-mod-chat="/moderation/games/{game.public_id}/chat/"' in page.content.decode()
    view = moderator_client.get(f"/api/v1/games/{game.public_id}").json()
    assert view["you"] is None  # a spectator: no seat, no hand
    assert not list(card_pairs(view.get("hand") or []))
    deal = current_engine_deal(game)
    body = page.content.decode()
    for hand in deal.hands:
        for card in hand:
            assert f'"{card}"' not in body and f">{card}<" not in body

    outsiders = (
        logged_in(user_factory(username="watcher")),
        logged_in(staff_factory(moderator=False, username="colleague")),
        Client(),
    )
    for outsider in outsiders:
        # As for a game that does not exist (a visitor is sent to log in for either).
        unknown = outsider.get("/games/nosuchgame00/").status_code
        assert outsider.get(f"/games/{game.public_id}/").status_code == unknown
        assert unknown in (302, 404)
        assert outsider.get(f"/api/v1/games/{game.public_id}").status_code == 404
