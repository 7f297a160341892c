"""Fixtures of the browser tests: Debian's chromium driven by Playwright (sync API)
against pytest-django's ``live_server``, scripted deals, and with ``REMI_SCREENSHOTS=1``
a screenshot of each step of the scenarios in var/screens/.

Playwright's own browser download is not used: the system chromium is launched
(``REMI_CHROMIUM`` names another binary). Without one the tests are skipped.
"""

from __future__ import annotations

import asyncio
import importlib
import os
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth import get_user_model
from django.db import connections
from playwright.sync_api import Browser, Page, Playwright, sync_playwright

from games.engine import parse_cards
from games.models import Game
from games.play import shuffle
from games.play.act import game_act
from games.play.create import game_create
from games.play.lobby import game_join, game_start
from games.read.selectors import current_deal
from tests.browser.axe import blocking_violations
from tests.browser.deal_end import DRY_HAND, PASSWORD, DryDeal, start_dry_deal
from tests.browser.live_clock_kit import to_move
from tests.browser.player_kit import TIMEOUT_MS, Player
from tests.browser.table_kit import SERBIAN_HAND, started_game
from tests.gamekit import (
    deck_with_starter_hand,
    greedy_action,
    scripted_deal_source,
    seeded_deal_source,
)

CHROMIUM = os.environ.get("REMI_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# The browsers ask for reduced motion, as some people's systems do: the pages then run
# no endless animation for chromium to paint, and a click need not wait for a
# transition to settle. (test_motion.py checks both kinds of page.)
QUIET_PAGES: dict[str, Any] = {"reduced_motion": "reduce"}


@dataclass
class _Chromium:
    playwright: Playwright
    browser: Browser
    loop: asyncio.AbstractEventLoop


def _launch(playwright: Playwright) -> Browser:
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


@pytest.fixture(scope="session")
def _chromium() -> Iterator[_Chromium]:
    """One Playwright driver and one chromium for the test process (starting them is a
    second or two; each test makes new browser contexts, which share nothing)."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no chromium at {CHROMIUM} (set REMI_CHROMIUM)")
    manager = sync_playwright()
    playwright = manager.start()
    chromium = _Chromium(playwright, _launch(playwright), _set_aside_playwrights_loop())
    try:
        yield chromium
    finally:
        asyncio._set_running_loop(chromium.loop)
        if chromium.browser.is_connected():
            chromium.browser.close()
        manager.__exit__()


def _set_aside_playwrights_loop() -> asyncio.AbstractEventLoop:
    """Between two calls of its sync API, Playwright leaves its event loop marked as
    running in this thread. Other tests of the process must not see it: Django would
    take their ORM calls for async code, and pytest-asyncio could not run a loop."""
    loop = asyncio._get_running_loop()
    assert loop is not None
    asyncio._set_running_loop(None)
    return loop


# The modules that send events with asgiref's async_to_sync.
PUBLISHERS = ("games.live.publisher", "games.play.moderation")


def _beside_playwrights_loop(function: Callable[..., Any]) -> Callable[..., Any]:
    """``async_to_sync(function)``, run in a thread of its own when the calling thread
    has Playwright's loop marked as running: asgiref refuses to run there, and the events
    of a service the test itself calls (a move for the other side, a ban) were lost."""
    in_loop_free_thread = async_to_sync(function)

    def call(*args: Any, **kwargs: Any) -> Any:
        if asyncio._get_running_loop() is None:
            return in_loop_free_thread(*args, **kwargs)
        with ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(in_loop_free_thread, *args, **kwargs).result()

    return call


@pytest.fixture
def browser(_chromium: _Chromium, monkeypatch: pytest.MonkeyPatch) -> Iterator[Browser]:
    """The headless chromium, for one test: the contexts it opens are closed after it.
    A chromium that died in an earlier test is started again, so that one crash fails
    one test only."""
    # Playwright's sync API runs an event loop in this thread; the test's own ORM calls
    # are still plain synchronous code (the live server answers in threads of its own).
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    for module in PUBLISHERS:
        monkeypatch.setattr(
            importlib.import_module(module), "async_to_sync", _beside_playwrights_loop
        )
    asyncio._set_running_loop(_chromium.loop)
    try:
        if not _chromium.browser.is_connected():
            _chromium.browser = _launch(_chromium.playwright)
        yield _chromium.browser
    finally:
        if _chromium.browser.is_connected():
            for context in _chromium.browser.contexts:
                context.close()
        # The test's ORM calls ran in Playwright's context, with a connection of
        # their own: close it while that context is current, or the test database
        # cannot be dropped.
        connections.close_all()
        _set_aside_playwrights_loop()


@pytest.fixture
def player_factory(
    browser: Browser, live_server: Any, settings: Any
) -> Iterator[Callable[..., Player]]:
    """``player_factory(name, width=1400, height=900, **context_options)``: a new browser
    context and page (``has_touch=True, is_mobile=True`` for a phone). The links the
    site sends (emails, pushes) lead to the test server."""
    settings.SITE_URL = live_server.url
    players: list[Player] = []

    def make(name: str, width: int = 1400, height: int = 900, **options: Any) -> Player:
        context = browser.new_context(
            viewport={"width": width, "height": height}, **{**QUIET_PAGES, **options}
        )
        context.set_default_timeout(TIMEOUT_MS)
        player = Player(context.new_page(), live_server.url, name)
        players.append(player)
        return player

    yield make
    for player in players:
        assert not player.errors, f"{player.name}'s page logged errors: {player.errors}"


@pytest.fixture
def axe_violations() -> Callable[[Page], list[dict[str, Any]]]:
    """``axe_violations(page)``: axe-core's serious and critical findings in the page
    (``tests.browser.axe.describe`` makes them a failure message)."""
    return blocking_violations


@pytest.fixture(autouse=True)
def seeded_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every deal of a browser test comes from a fixed seed: with a shuffled pack a bot
    could go out in its first turn now and then (one did, ending a six-seat game before
    the person whose turn the test awaited had one). ``starter_hand`` scripts a deal."""
    monkeypatch.setattr(shuffle, "deal_source", seeded_deal_source(1))


@pytest.fixture
def starter_hand(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """``starter_hand("7H 8H ...")``: every deal from now on gives the player who starts
    it these cards (the rest of the pack shuffled from a fixed seed)."""

    def script(cards: str) -> None:
        hand = list(parse_cards(cards))

        def decks(ruleset: Any, players: int, dealer: int) -> list[Any]:
            return deck_with_starter_hand(ruleset, players, dealer, hand, seed=7)

        monkeypatch.setattr(shuffle, "deal_source", scripted_deal_source(decks, 3))

    return script


@pytest.fixture
def dry_deal(starter_hand: Callable[[str], None], settings: Any) -> DryDeal:
    """A live serbian game of mila and goran, started, whose starter goes out in one turn
    (``deal_end.go_out``); the next deal then waits for the players' "Ready", not the
    clock. ``dry_deal.seat_players(player_factory)`` opens their tables."""
    settings.REMI_DEAL_PAUSE_SECONDS = 600
    starter_hand(DRY_HAND)
    return start_dry_deal()


@pytest.fixture
def asgi_player_factory(
    asgi_server: str, browser: Browser, settings: Any
) -> Iterator[Callable[..., Player]]:
    """``player_factory`` against the ASGI server (websocket pushes instead of polling).
    The browser closes before the server stops, so no socket holds the shutdown up."""
    settings.SITE_URL = asgi_server
    players: list[Player] = []

    def make(name: str, width: int = 1400, height: int = 900) -> Player:
        context = browser.new_context(viewport={"width": width, "height": height}, **QUIET_PAGES)
        context.set_default_timeout(TIMEOUT_MS)
        player = Player(context.new_page(), asgi_server, name)
        players.append(player)
        return player

    yield make
    for player in players:
        assert not player.errors, f"{player.name}'s page logged errors: {player.errors}"


@pytest.fixture
def serbian_game(starter_hand: Callable[[str], None]) -> tuple[Game, list[Any]]:
    """A started 2-player serbian game of two new users, the starter holding
    ``SERBIAN_HAND``."""
    starter_hand(SERBIAN_HAND)
    return started_game("serbian", ("mila", "nina"))


@pytest.fixture
def live_table(deals_seeded: Callable[[int], None]) -> tuple[Game, Any, Any, Any]:
    """A started 3-player live game (30 s a turn, 1 min bank) in which a guest is to
    move: (game, host, absent guest, other guest)."""
    deals_seeded(11)
    users = [
        get_user_model().objects.create_user(username=name, password=PASSWORD)
        for name in ("hana", "ivo", "jana")
    ]
    game = game_create(
        owner=users[0],
        preset="serbian",
        players=3,
        time_control="live",
        seconds_per_turn=30,
        time_bank_s=60,
    )
    for user in users[1:]:
        game_join(game=game, user=user)
    game = game_start(game=game, user=users[0])
    for _ in range(10):
        seat = to_move(game)
        if seat.user_id != game.owner_id:
            break
        deal = current_deal(game)
        assert deal is not None
        game_act(game=game, user=seat.user, action=greedy_action(deal), expected_ply=game.ply)
    absent = to_move(game).user
    other = next(u for u in users[1:] if u.pk != absent.pk)
    return game, users[0], absent, other
