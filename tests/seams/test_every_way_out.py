"""No way out of the site shows anyone a card hidden from them (ARCHITECTURE.md, "hidden
information"): a player sees their own hand and what the table showed; a spectator, a
visitor, staff without the hidden-card permission and the operators reading the logs
see no hand; nobody sees anything of the stock.

One public correspondence game of three in its first deal, played through the API while
a spectator follows it, is walked through every way out that the tests of the pieces
(tests/api/test_secrecy.py, the account-lifecycle machine, the spectators' frames) do not
read: every email sent (your turn, the daily digest, a reminder, a timeout's strike,
another game's end), every web push, each player's calendar feed and history exports,
the site's pages as each person sees them, the admin's pages of the game, its deals and
its moves, the API's other answers, the game's and the accounts' NDJSON streams, and
every log record at DEBUG. The review and the replay of a deal in play are walked as
what they are then: a refusal, or the table."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import httpx
import pytest
from django.contrib.auth.models import Permission
from django.core import mail
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from games import tasks
from games.engine import LayDown
from games.engine_words import card_short
from games.models import Deal, Game, Move
from games.notify import links, preferences, push, wording
from tests.gamekit import Table, current_engine_deal, greedy_action, table_create
from tests.seams.machine_sockets import push_keys
from tests.seams.way_out_kit import (
    OPERATORS,
    Stream,
    WayOut,
    WebPushes,
    answer_way,
    calendar_text,
    card_pattern,
    email_ways,
    hidden_codes,
    leaks,
    page_text,
    page_way,
)
from tests.user_kit import logged_in

PLAYERS = ("ana", "bojan", "cveta")
TURNS = 7
# A stream's line is awaited this long at most (its keep-alive comes every 7 s).
READ_S = 5.0
PUSH_ENDPOINT = "http://127.0.0.1:9/push/ana"
# The emails the walk must have read, by a word of their subject (English).
EMAILS = {
    "your turn": "Your turn against",
    "the daily digest": "waiting for your move",
    "a reminder": "left for your move",
    "a timeout's strike": "Your time ran out",
    "another game's end": "Game over against",
}


@dataclass
class Person:
    name: str
    user: Any  # None: a visitor without an account
    api: APIClient
    web: Client
    seat: int | None = None


def person(
    user_factory: Callable[..., Any], client_for: Callable[[Any], APIClient], name: str
) -> Person:
    user = user_factory(username=name, display_name=name.capitalize())
    user.email = f"{name}@example.com"
    user.save()
    return Person(name, user, client_for(user), logged_in(user))


def follow(stack: ExitStack, base: str, who: Person, path: str) -> Stream:
    token = getattr(who.api, "token", None)
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    client = stack.enter_context(httpx.Client(base_url=base, headers=headers, timeout=READ_S))
    return Stream(stack, client, path)


def feeds(players: list[Person], urls: dict[str, str]) -> list[WayOut]:
    ways = []
    for who in players:
        response = Client().get(urls[who.name])
        assert response.status_code == 200
        text = calendar_text(response.content.decode())
        ways.append(WayOut("calendar feed", who.name, who.seat, text))
    return ways


def play_turn(table: Table) -> None:
    """The player to move plays the rest of their turn (greedy) through the API."""
    game = table.game
    mover = game.to_move
    while game.to_move == mover:
        deal = current_engine_deal(game)
        moved = table.act(deal.to_move, greedy_action(deal), game.ply)
        assert moved.status_code == 200, moved.json()
        game = table.game


@pytest.mark.django_db(transaction=True)
def test_no_way_out_of_the_site_shows_anyone_a_hidden_card(
    asgi_server: str,
    user_factory: Callable[..., Any],
    client_for: Callable[[Any], APIClient],
    deals_seeded: Callable[[int], None],
    caplog: pytest.LogCaptureFixture,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    began = time.monotonic()
    caplog.set_level(logging.DEBUG)
    settings.PUSH_ALLOW_LOCAL_ENDPOINTS = True
    pushes = WebPushes()
    monkeypatch.setattr(push, "webpush", pushes)
    players = [person(user_factory, client_for, name) for name in PLAYERS]
    ana, bojan, _cveta = players
    watcher = person(user_factory, client_for, "watcher")
    clerk = person(user_factory, client_for, "clerk")
    clerk.user.is_staff = True
    clerk.user.save()
    views = ("view_game", "view_deal", "view_move", "view_seat")
    clerk.user.user_permissions.add(*Permission.objects.filter(codename__in=views))
    assert not clerk.user.has_perm("games.view_hidden_cards")
    visitor = Person("a visitor", None, APIClient(), Client())
    everyone = [*players, watcher, clerk, visitor]
    ways: list[WayOut] = []

    # Ana is told each turn by email and push, bojan once a day, cveta each turn.
    on = {"push_turns": True, "push_game_over": True}
    assert ana.api.patch("/api/v1/me/notifications", on, format="json").status_code == 200
    browser = {"endpoint": PUSH_ENDPOINT, "keys": push_keys()}
    subscribed = ana.api.post("/api/v1/me/push-subscriptions", browser, format="json")
    assert subscribed.status_code == 201, subscribed.json()
    daily = {"email_turns": "daily"}
    assert bojan.api.patch("/api/v1/me/notifications", daily, format="json").status_code == 200
    feed_urls = {
        who.name: who.api.get("/api/v1/me/notifications").json()["calendar_url"] for who in players
    }

    # Another game of ana's and bojan's ends at once: its end is mailed and pushed.
    other = table_create([ana.api, bojan.api], preset="serbian")
    assert bojan.api.post(other.url("/resign")).status_code == 200

    table = table_create([who.api for who in players], preset="serbian", spectator=watcher.api)
    for seat, client in enumerate(table.clients):
        next(who for who in players if who.api is client).seat = seat
    by_seat = sorted(players, key=lambda who: who.seat or 0)
    game = table.game
    gid = game.public_id
    assert game.time_control == Game.TimeControl.CORRESPONDENCE

    with ExitStack() as stack:
        streams = {}
        for who in [*players, watcher, visitor]:
            streams[who.name] = follow(stack, asgi_server, who, f"/api/v1/games/{gid}/stream")
            streams[who.name].read_until(lambda frame: frame["type"] == "game_full")
        digested = False
        for turn in range(TURNS):
            game = table.game
            mover = by_seat[game.to_move]
            ways += feeds(players, feed_urls)
            if turn == 1:
                # A draw alone through /turn: its answer shows the card drawn.
                body = {"actions": ["draw"], "ply": game.ply}
                drawn = mover.api.post(table.url("/turn"), body, format="json")
                assert drawn.status_code == 200, drawn.json()
                ways.append(answer_way("POST /turn", mover.name, mover.seat, drawn))
                # A meld of two of their cards is refused, the refusal naming them.
                pair = current_engine_deal(table.game).hand(mover.seat)[:2]
                refused = table.act(mover.seat, LayDown([pair]), table.game.ply)
                assert refused.status_code == 400, refused.json()
                ways.append(answer_way("POST /actions", mover.name, mover.seat, refused))
            elif turn == 2:
                # The next player queues a draw, which the server makes when their turn comes.
                after = by_seat[(game.to_move + 1) % game.players]
                queued = after.api.put(table.url("/premove"), {"unless": []}, format="json")
                ways.append(answer_way("PUT /premove", after.name, after.seat, queued))
            elif turn == 3:
                soon = timezone.now() + timedelta(hours=3)
                Game.objects.filter(pk=game.pk).update(deadline_at=soon)
                assert tasks.send_reminders() == 1
            elif turn == 5:
                # Time runs out: the server plays the turn and the player hears of it.
                gone = timezone.now() - timedelta(minutes=1)
                Game.objects.filter(pk=game.pk).update(deadline_at=gone)
                assert tasks.sweep_deadlines() == 1
                continue
            if mover is bojan and not digested:
                assert tasks.send_daily_digests() == 1
                digested = True
            play_turn(table)
        game = table.game
        assert game.status == Game.Status.ACTIVE and game.deal_number == 1, "no deal in play"

        # A line of chat comes after every frame of the last move: each stream is read
        # to it. Then each player's event stream, to the game's place in its first state.
        line = ana.api.post(table.url("/chat"), {"text": "good luck"}, format="json")
        assert line.status_code == 201, line.json()
        for who in [*players, watcher, visitor]:
            streams[who.name].read_until(lambda frame: frame["type"] == "chat")
            ways.append(streams[who.name].way("the game's NDJSON stream", who.name, who.seat))
        for who in players:
            events = follow(stack, asgi_server, who, "/api/v1/stream/events")
            events.read_until(lambda frame: frame["type"] == "game_start" and frame["game"] == gid)
            ways.append(events.way("the account's NDJSON stream", who.name, who.seat))
    assert digested
    ways += feeds(players, feed_urls)

    pages = [
        "/",
        "/play/",
        f"/games/{gid}/",
        f"/games/{gid}/replay/",
        f"/games/{gid}/deals/1/review/",
        "/games/",
        "/games/?status=my_turn",
        "/games/next/",
        "/history/",
        "/accounts/profile/",
        *(f"/accounts/players/{name}/" for name in PLAYERS),
        "/rules/",
        f"/rules/{game.preset}/",
    ]
    for who in everyone:
        ways += [page_way("page", who.name, who.seat, who.web, url) for url in pages]
    deals = Deal.objects.filter(game=game).values_list("pk", flat=True)
    moves = Move.objects.filter(game=game).values_list("pk", flat=True)
    admin = [
        "/admin/games/game/",
        f"/admin/games/game/{game.pk}/change/",
        "/admin/games/deal/",
        *(f"/admin/games/deal/{pk}/change/" for pk in deals),
        f"/admin/games/move/?game__id__exact={game.pk}",
        *(f"/admin/games/move/{pk}/change/" for pk in moves),
    ]
    ways += [page_way("admin", clerk.name, None, clerk.web, url) for url in admin]
    assert all("(200)" in way.way for way in ways if way.way.startswith("admin"))

    # The API's answers that tests/api/test_secrecy.py does not read.
    answers = [
        f"/api/v1/games/{gid}/chat",
        f"/api/v1/games/{gid}/replay",
        f"/api/v1/games/{gid}/note",
        f"/api/v1/games/{gid}/premove",
        f"/api/v1/games/{gid}/extra-time",
        "/api/v1/me/queue",
        "/api/v1/me/games/history",
        "/api/v1/me/games/export?format=csv",
        "/api/v1/me/games/export?format=json",
        "/api/v1/me/notifications",
        *(f"/api/v1/users/{name}" for name in PLAYERS),
    ]
    for who in everyone:
        for url in answers:
            ways.append(answer_way(f"GET {url}", who.name, who.seat, who.api.get(url)))

    receivers = {who.user.email: (who.name, who.seat) for who in everyone if who.user}
    ways += email_ways(mail.outbox, receivers)
    for endpoint, data in pushes.sent:
        assert endpoint == PUSH_ENDPOINT
        ways.append(WayOut("web push", ana.name, ana.seat, data, json.loads(data)))
    logged = [*caplog.get_records("setup"), *caplog.records]
    records = [f"{record.getMessage()}\n{record.exc_text or ''}" for record in logged]
    ways.append(WayOut("the logs at DEBUG", OPERATORS, None, "\n".join(records)))

    found = leaks(ways, table.game)
    assert not found, "hidden cards went out:\n" + "\n".join(found)
    # The walk read what it meant to: each kind of email, pushes, streams, the logs.
    subjects = [str(message.subject) for message in mail.outbox]
    missing = [kind for kind, words in EMAILS.items() if not any(words in s for s in subjects)]
    assert not missing, f"no email of {missing} among {subjects}"
    assert any('"turn"' in way.text for way in ways if way.way == "web push")
    assert any(way.data and way.data[-1]["type"] == "chat" for way in ways if "NDJSON" in way.way)
    assert len(records) > 50
    print(f"\n{len(ways)} ways out walked in {time.monotonic() - began:.1f} s")


@pytest.mark.django_db
def test_the_walk_finds_a_card_planted_in_a_way_out(
    started: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check is no walk that finds nothing: another player's card written into the
    calendar feed (as its code and drawn) is reported, named with its way and receiver."""
    game, users = started(players=3)
    reader = game.to_move
    deal = current_engine_deal(game)
    neighbour = (reader + 1) % game.players
    hidden = hidden_codes(game, reader)
    card = next(deal.card(i) for i in deal.hand_ids(neighbour) if str(deal.card(i)) in hidden)
    assert not card.is_joker
    real = wording.about

    def about(*args: Any, **kwargs: Any) -> dict[str, Any]:
        said = real(*args, **kwargs)
        return {**said, "opponents": f"{said['opponents']} ({card})", "preset": card_short(card)}

    monkeypatch.setattr(wording, "about", about)
    url = links.calendar_url(preferences.calendar_secret_for(users[reader]))
    feed = calendar_text(Client().get(url).content.decode())
    way = WayOut("calendar feed", users[reader].username, reader, feed)

    found = leaks([way], game)
    assert any(f"calendar feed to {users[reader].username}: {card} in" in f for f in found), found
    assert any(f": {card_short(card)} in" in f for f in found), found
    # Its holder may read it: only the others' and the stock's cards are hidden.
    assert not leaks([WayOut("calendar feed", "its holder", neighbour, feed)], game)


def test_a_page_is_searched_in_its_words_attributes_and_json_not_its_code_or_secrets() -> None:
    html = (
        '<p title="a 7H">words 8H</p><div data-hand=\'["9H"]\'></div><i data-card="3♥"></i>'
        '<script type="application/json">{"stock": ["10H"]}</script>'
        '<script nonce="JH">var card = "QH";</script><style>.KH {}</style>'
        '<input name="csrfmiddlewaretoken" value="AH"><a href="/unsubscribe/x-2H-y/">off</a>'
        '<input placeholder="e.g. 7♥ 10♠ (optional)">'
    )
    text, data = page_text(html)
    codes = ["7H", "8H", "9H", "10H", "3H", "JH", "QH", "KH", "AH", "2H", "10S"]
    assert set(card_pattern(codes).findall(text)) == {"7H", "8H", "9H", "10H", "3♥"}
    assert {"stock": ["10H"]} in data
