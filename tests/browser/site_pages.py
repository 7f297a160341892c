"""Every page a person reaches, with the data that fills it: what the accessibility
checks and the screenshots walk through."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from playwright.sync_api import Page, Request

from accounts import services as account_services
from accounts.models import Rating
from games.models import Game
from games.play.act import game_act
from games.play.create import game_create
from games.play.lobby import game_join, game_start
from tests.browser.conftest import TIMEOUT_MS
from tests.browser.test_player_pages import emil_resigns
from tests.browser.test_table import PASSWORD
from tests.gamekit import current_engine_deal, greedy_action

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 640}
SIZES = {"desktop": DESKTOP, "phone": PHONE}


@dataclass(frozen=True)
class SitePage:
    name: str
    signed_in: bool
    # A path, or a format string over the ``SiteData`` fields.
    path: str
    # A selector whose element shows once the page's own script has drawn it.
    ready: str = "main"

    def url(self, data: SiteData) -> str:
        return self.path.format(
            finished=data.finished.public_id,
            playing=data.playing.public_id,
            reviewed=data.reviewed.public_id,
            player="emil",
        )


@dataclass(frozen=True)
class SiteData:
    """dana beat emil in a rated game (finished) and is to move in another (playing);
    dana and fern played a deal of a third (reviewed: its first deal's review)."""

    finished: Game
    playing: Game
    reviewed: Game


PAGES = [
    SitePage("home", signed_in=False, path="/"),
    SitePage("home-signed-in", signed_in=True, path="/"),
    SitePage("lobby", signed_in=True, path="/play/", ready="#presets .choice"),
    SitePage("table", signed_in=True, path="/games/{playing}/", ready="#hand .pcard"),
    SitePage("table-finished", signed_in=True, path="/games/{finished}/", ready="#waiting"),
    SitePage(
        "replay",
        signed_in=True,
        path="/games/{finished}/replay/",
        ready='#replay[data-state="ready"]',
    ),
    SitePage("profile", signed_in=True, path="/accounts/profile/"),
    SitePage("player", signed_in=False, path="/accounts/players/{player}/"),
    SitePage("leaderboard", signed_in=False, path="/accounts/leaderboard/?rules=polish51"),
    SitePage("bots", signed_in=False, path="/bots/", ready="#bots tbody tr"),
    SitePage("bot-player", signed_in=False, path="/accounts/players/expert-emil/"),
    SitePage(
        "deal-review", signed_in=True, path="/games/{reviewed}/deals/1/review/", ready="#review"
    ),
    SitePage("signup", signed_in=False, path="/accounts/signup/"),
    SitePage("login", signed_in=False, path="/accounts/login/"),
    SitePage("settings", signed_in=True, path="/settings/"),
    # A player's side of moderation: the outcomes of their reports, their sanctions.
    SitePage("my-reports", signed_in=True, path="/moderation/reports/"),
    SitePage("my-sanctions", signed_in=True, path="/moderation/sanctions/"),
]
SIGNED_IN_AS = "dana"


def make_site_data() -> SiteData:
    """Made before the browser starts: the services publish their events from this
    thread."""
    finished, users = emil_resigns(after_moves=True)
    Rating.objects.filter(user=users[0]).update(sigma=3)  # established, so listed
    fern = get_user_model().objects.create_user(username="fern", password=PASSWORD)
    playing = game_create(owner=users[0], preset="serbian", players=2)
    game_join(game=playing, user=fern)
    playing = game_start(game=playing, user=users[0])
    # The bots page: the built-in bots and a bot account.
    account_services.bots_ensure()
    robo = get_user_model().objects.create_user(username="robo", password=PASSWORD)
    account_services.account_upgrade_to_bot(user=robo)
    reviewed = game_create(owner=users[0], preset="serbian", players=2)
    game_join(game=reviewed, user=fern)
    reviewed = game_start(game=reviewed, user=users[0])
    first_deal_played(reviewed)
    return SiteData(finished=finished, playing=playing, reviewed=reviewed)


def first_deal_played(game: Game) -> None:
    """The players of ``game`` play its first deal to its end (``greedy_action``); its
    review is made after the commit, as on the site."""
    by_seat = {seat.position: seat.user for seat in game.seats.select_related("user")}
    for _ in range(3000):
        game.refresh_from_db()
        if game.deal_number > 1 or game.status != Game.Status.ACTIVE:
            return
        deal = current_engine_deal(game)
        action = greedy_action(deal)
        game_act(game=game, user=by_seat[deal.to_move], action=action, expected_ply=game.ply)
    raise AssertionError("the first deal did not end")


# Playwright's "networkidle" waits for half a second without a request, on every page
# of every crawl. The pages' scripts start their fetches on load or when one answers;
# no timer of theirs is shorter than the lobby's five-second poll. So a page has
# settled once its requests are answered and none has started for this long.
QUIET_SECONDS = 0.1


def open_page(page: Page, base_url: str, site_page: SitePage, data: SiteData) -> Any:
    """Go to the page and wait until it has drawn itself and its requests are answered;
    the response."""
    with requests_watched(page) as network:
        response = page.goto(base_url + site_page.url(data))
        page.locator(site_page.ready).first.wait_for(state="attached")
        network.wait_until_quiet()
    return response


class _Network:
    def __init__(self, page: Page) -> None:
        self.page = page
        self.in_flight: set[Request] = set()
        self.last_change = time.monotonic()

    def started(self, request: Request) -> None:
        self.in_flight.add(request)
        self.last_change = time.monotonic()

    def ended(self, request: Request) -> None:
        self.in_flight.discard(request)
        self.last_change = time.monotonic()

    def wait_until_quiet(self) -> None:
        deadline = time.monotonic() + TIMEOUT_MS / 1000
        while self.in_flight or time.monotonic() - self.last_change < QUIET_SECONDS:
            if time.monotonic() > deadline:
                urls = sorted(request.url for request in self.in_flight)
                raise AssertionError(f"the page's requests did not settle: {urls}")
            # Playwright delivers the page's events while it waits.
            self.page.wait_for_timeout(20)


@contextmanager
def requests_watched(page: Page) -> Iterator[_Network]:
    network = _Network(page)
    page.on("request", network.started)
    page.on("requestfinished", network.ended)
    page.on("requestfailed", network.ended)
    try:
        yield network
    finally:
        page.remove_listener("request", network.started)
        page.remove_listener("requestfinished", network.ended)
        page.remove_listener("requestfailed", network.ended)
