"""Every page a person reaches, with the data that fills it: what the screenshots' walk
(layout, ids, accessibility) and the walks in each language go through."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.utils import timezone
from playwright.sync_api import Page, Request

from accounts import services as account_services
from accounts.models import Rating, RatingChange
from accounts.moderation import appeals
from accounts.moderation import services as moderation
from accounts.moderation.appeals import appeal_token
from accounts.moderation.roles import MODERATOR_GROUP, moderator_group_ensure
from accounts.verification import email_change_request, verification_token
from games.challenges.services import challenge_create
from games.models import ChatMessage, Game
from games.notify.tokens import Kind, Unsubscribe, unsubscribe_token
from games.play import chat
from games.play.act import game_act
from games.play.create import game_create
from games.play.lobby import game_join, game_start
from tests.browser.deal_end import PASSWORD
from tests.browser.player_kit import TIMEOUT_MS
from tests.browser.table_kit import emil_resigns
from tests.gamekit import current_engine_deal, greedy_action

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 640}
SIZES = {"desktop": DESKTOP, "phone": PHONE}


# Who visits a page: a visitor, a player (dana), a moderator (mona, of the moderator
# group), or a sanctioned player (hugo, with a warning to read and a mute he appealed).
VISITOR, PLAYER, MODERATOR, SANCTIONED = "visitor", "player", "moderator", "sanctioned"
USER_OF_ROLE = {PLAYER: "dana", MODERATOR: "mona", SANCTIONED: "hugo"}
BANNED = "ivan"  # banned: signing in shows him his ban

# A step on a page before it is looked at: ("open", selector) opens a <details>,
# ("select", selector, value), ("fill", selector, value), and ("submit", selector)
# clicks a button that loads the next page (the page looked at).
Step = tuple[str, ...]


@dataclass(frozen=True)
class SitePage:
    name: str
    signed_in: bool
    # A path, or a format string over the ``SiteData`` fields.
    path: str
    # A selector whose element shows once the page's own script has drawn it.
    ready: str = "main"
    # MODERATOR or SANCTIONED; otherwise PLAYER when signed in, else VISITOR.
    role: str = ""
    steps: tuple[Step, ...] = ()
    # The page's status, and the status of a visit after the first where it differs (a
    # form sent again).
    status: int = 200
    again_status: int | None = None

    def expected_status(self, visit: int) -> int:
        """The status of the page's ``visit``-th visit (0 the first) in one browser."""
        return (visit and self.again_status) or self.status

    @property
    def who(self) -> str:
        return self.role or (PLAYER if self.signed_in else VISITOR)

    def url(self, data: SiteData) -> str:
        return self.path.format(
            finished=data.finished.public_id,
            playing=data.playing.public_id,
            player="emil",
            reviewed=data.reviewed.public_id,
            report=data.report,
            warning=data.warning,
            **data.links,
        )


@dataclass(frozen=True)
class SiteData:
    """dana beat emil in a rated game (finished) and is to move in another (playing),
    where fern's chat line is reported by dana (``report``) and another is hidden;
    hugo, reported twice and in a suspicious pair with gale, has a mute he appealed
    and a warning to read (``warning``); dana and fern played a deal of a third
    (reviewed: its first deal's review); ``links``: the signed parts of the links the
    site mails or shows (``signed_links``)."""

    finished: Game
    playing: Game
    reviewed: Game
    report: int = 0
    warning: int = 0
    links: Mapping[str, str] = field(default_factory=dict)


PAGES = [
    SitePage("home", signed_in=False, path="/"),
    SitePage("home-signed-in", signed_in=True, path="/"),
    SitePage("lobby", signed_in=True, path="/play/", ready="#presets .choice"),
    SitePage("table", signed_in=True, path="/games/{playing}/", ready="#hand .pcard"),
    SitePage("table-finished", signed_in=True, path="/games/{finished}/", ready="#waiting"),
    # The review of the ended first deal beside the score sheet, the second being played.
    SitePage(
        "table-reviewed",
        signed_in=True,
        path="/games/{reviewed}/",
        ready='#review-body[data-state="ready"] .review-turn',
    ),
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
    # A moderator's pages: the queue with open reports and an appeal, a player's record,
    # a ban's confirmation (with the running game it forfeits), the table seen by a
    # moderator (its chat lines with their controls, the seats' menus).
    SitePage("moderation-queue", True, "/moderation/queue/", role=MODERATOR),
    SitePage("moderation-record", True, "/moderation/players/hugo/", role=MODERATOR),
    SitePage(
        "moderation-ban-confirm",
        True,
        "/moderation/players/fern/",
        ready="#ban-confirm",
        role=MODERATOR,
        steps=(
            ("open", "#action-ban"),
            ("select", "#id_ban-preset", "abuse"),
            ("fill", "#id_ban-length", "2"),
            ("select", "#id_ban-unit", "days"),
            ("submit", "#action-ban button[type=submit]"),
        ),
    ),
    SitePage(
        "table-moderated",
        True,
        "/games/{playing}/?report={report}",
        ready="#chat-log li .chat-mod",
        role=MODERATOR,
    ),
    # The sanctioned player's: the warning shown at his next page, and his appeal of it.
    SitePage("warning", True, "/moderation/warning/", role=SANCTIONED),
    SitePage("appeal", True, "/moderation/sanctions/{warning}/appeal/", role=SANCTIONED),
]

# Beyond PAGES, each visited by the screenshots and the pseudo-locale: the rules, the
# settings, the history, the password reset, the links the site mails (an address to
# verify, mails to turn off), a ban and its appeal, a report sent, the errors.
MORE_PAGES = [
    SitePage("rules", signed_in=False, path="/rules/"),
    SitePage("rules-polish51", signed_in=False, path="/rules/polish51/"),
    SitePage("password-reset", signed_in=False, path="/accounts/password-reset/"),
    SitePage("password-reset-sent", signed_in=False, path="/accounts/password-reset/sent/"),
    SitePage("password-reset-bad-link", signed_in=False, path="/accounts/reset/MQ/bad-token/"),
    SitePage("password-reset-done", signed_in=False, path="/accounts/reset/done/"),
    SitePage("verify-email", signed_in=False, path="/accounts/verify-email/{verify}/"),
    SitePage(
        "verify-email-bad-link",
        signed_in=False,
        path="/accounts/verify-email/bad-token/",
        status=400,
    ),
    SitePage("unsubscribe", signed_in=False, path="/unsubscribe/{unsubscribe}/"),
    SitePage(
        "banned",
        signed_in=False,
        path="/accounts/login/",
        status=403,
        steps=(
            ("fill", "#id_username", BANNED),
            ("fill", "#id_password", PASSWORD),
            ("submit", "main form button[type=submit]"),
        ),
    ),
    SitePage("appeal-by-link", signed_in=False, path="/moderation/appeal/{appeal}/"),
    SitePage("not-found", signed_in=False, path="/no-such-page/", status=404),
    SitePage("my-games", signed_in=True, path="/games/", ready="#challenges-in li"),
    SitePage("my-games-lobby", signed_in=True, path="/games/?status=lobby"),
    SitePage("my-games-finished", signed_in=True, path="/games/?status=finished"),
    SitePage("history", signed_in=True, path="/history/"),
    SitePage("notifications", signed_in=True, path="/settings/notifications/"),
    SitePage("vacation", signed_in=True, path="/settings/vacation/"),
    SitePage("password-change", signed_in=True, path="/settings/password/"),
    SitePage("account-delete", signed_in=True, path="/settings/delete/"),
    SitePage("report", signed_in=True, path="/moderation/report/?user=emil"),
    SitePage(
        "report-sent",
        signed_in=True,
        path="/moderation/report/?user=gale",
        steps=(("select", "#id_reason", "name"), ("submit", "main form button[type=submit]")),
        again_status=409,  # the same report while the first is open
    ),
    SitePage("report-refused", signed_in=True, path="/moderation/report/?user=nobody", status=404),
    SitePage("forbidden", signed_in=True, path="/moderation/queue/", status=403),
]

# Pages the walk does not reach, each with why.
NOT_WALKED = {
    "403_csrf.html": "only a form posted without its CSRF token gets it (a forged request)",
    "accounts/locked_out.html": (
        "only after AXES_FAILURE_LIMIT failed logins in a row, and then at every try:"
        " tests/accounts/test_pages.py::test_login_page_locks_out_after_repeated_failures"
    ),
}
SIGNED_IN_AS = "dana"


def log_in_as(person: Any, site_page: SitePage) -> None:
    """Sign ``person`` (made by ``player_factory`` as ``person_name(site_page)``) in
    as the page's visitor needs."""
    if site_page.who == SANCTIONED:
        # Signed in, he is taken to his warning first (not back to a page of the site).
        person.goto("/accounts/login/")
        person.page.fill("#id_username", USER_OF_ROLE[SANCTIONED])
        person.page.fill("#id_password", PASSWORD)
        person.page.click("form button[type=submit]")
        person.page.wait_for_url(re.compile(r".*/moderation/warning/"))
    elif site_page.who != VISITOR:
        person.log_in(USER_OF_ROLE[site_page.who], PASSWORD)


def person_name(site_page: SitePage) -> str:
    return USER_OF_ROLE.get(site_page.who, "visitor")


class People:
    """One signed-in browser per role, made when a page first needs it."""

    def __init__(self, player_factory: Callable[..., Any], **options: Any) -> None:
        self.player_factory = player_factory
        self.options = options
        self.made: dict[str, Any] = {}

    def __getitem__(self, site_page: SitePage) -> Any:
        who = site_page.who
        if who not in self.made:
            person = self.player_factory(person_name(site_page), **self.options)
            log_in_as(person, site_page)
            self.made[who] = person
        return self.made[who]


def make_site_data() -> SiteData:
    """The site's data, made through its services (their events reach the browsers:
    tests/browser/conftest.py's ``browser`` sends them from a thread of their own)."""
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
    report, warning = moderation_data(playing, dana=users[0], fern=fern)
    links = signed_links(dana=users[0])
    reviewed = game_create(owner=users[0], preset="serbian", players=2)
    game_join(game=reviewed, user=fern)
    reviewed = game_start(game=reviewed, user=users[0])
    first_deal_played(reviewed)
    challenges_made()
    return SiteData(
        finished=finished,
        playing=playing,
        reviewed=reviewed,
        report=report,
        warning=warning,
        links=links,
    )


def challenges_made() -> None:
    """dana is challenged by emil, and challenges fern: My games lists both."""
    users = get_user_model().objects.in_bulk(["dana", "emil", "fern"], field_name="username")
    challenge_create(
        challenger=users["emil"], destination=users["dana"], preset="polish51", days_per_move=2
    )
    challenge_create(
        challenger=users["dana"],
        destination=users["fern"],
        preset="polish51",
        time_control=Game.TimeControl.LIVE,
        seconds_per_turn=60,
        rated=True,
    )


def signed_links(*, dana: Any) -> dict[str, str]:
    """The signed parts of the links the site sends: dana's new address to verify, her
    turn mails to turn off, and the appeal of ivan's ban (ivan is banned)."""
    users = get_user_model().objects
    email_change_request(user=dana, email="dana@example.org")
    ivan = users.create_user(username=BANNED, password=PASSWORD)
    ban = moderation.ban_create(
        user=ivan,
        moderator=users.get(username="mona"),
        reason=WRITTEN["ban"],
        ends_at=timezone.now() + timedelta(days=2),
    )
    return {
        "verify": verification_token(user=dana, email="dana@example.org"),
        "unsubscribe": unsubscribe_token(Unsubscribe(user_id=dana.pk, kind=Kind.TURN)),
        "appeal": appeal_token(ban),
    }


# What people wrote in ``moderation_data`` (chat, reports, moderators' words, an
# appeal): no catalogue translates it.
WRITTEN = {
    "rude": "what a slow donkey you are",
    "reply": "take your time",
    "hidden": "hidden insult",
    "report": "rude",
    "report-hugo": "boosting",
    "mute": "insults",
    "appeal": "I was provoked.",
    "note": "Watch his games with gale.",
    "warning": "spam",
    "ban": "stalling every game",
}


def moderation_data(playing: Game, *, dana: Any, fern: Any) -> tuple[int, int]:
    """What the moderator's pages show (see ``SiteData``): the report of fern's line
    and hugo's warning, by id."""
    users = get_user_model().objects
    moderator_group_ensure()
    mona = users.create_user(username="mona", password=PASSWORD)
    mona.groups.add(Group.objects.get(name=MODERATOR_GROUP))
    rude = chat.post_message(game=playing, user=fern, text=WRITTEN["rude"])
    chat.post_message(game=playing, user=dana, text=WRITTEN["reply"])
    hidden = chat.post_message(game=playing, user=fern, text=WRITTEN["hidden"])
    chat.hide_message(message=hidden, moderator=mona)
    report = moderation.report_create(
        reporter=dana, reported=fern, reason="abuse", chat_message=rude, text=WRITTEN["report"]
    )
    hugo, gale = (users.create_user(username=name, password=PASSWORD) for name in ("hugo", "gale"))
    suspicious_pair(hugo, gale)
    moderation.report_create(
        reporter=dana, reported=hugo, reason="cheating", text=WRITTEN["report-hugo"]
    )
    moderation.report_create(reporter=fern, reported=hugo, reason="name")
    mute = moderation.mute_create(
        user=hugo,
        moderator=mona,
        reason=WRITTEN["mute"],
        preset="abuse",
        ends_at=timezone.now() + timedelta(hours=2),
    )
    appeals.appeal_create(sanction=mute, text=WRITTEN["appeal"])
    moderation.note_create(user=hugo, moderator=mona, text=WRITTEN["note"])
    warning = moderation.warning_create(
        user=hugo, moderator=mona, reason=WRITTEN["warning"], preset="spam"
    )
    assert ChatMessage.objects.filter(game=playing).count() == 3
    return report.pk, warning.pk


def suspicious_pair(first: Any, second: Any, games: int = 5) -> None:
    """``first`` ahead of ``second`` in ``games`` rated results of their own (private
    tables: no other page lists them), the pattern ``suspicious_pairs`` flags."""
    for _ in range(games):
        game = game_create(
            owner=first, preset="serbian", players=2, visibility=Game.Visibility.PRIVATE
        )
        for position, (user, rank) in enumerate(((first, 1), (second, 2))):
            RatingChange.objects.create(
                game=game,
                user=user,
                rules="serbian",
                position=position,
                rank=rank,
                mu_before=25,
                sigma_before=8,
                mu_after=25,
                sigma_after=8,
                rating_before=1500,
                rating_after=1500,
            )


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
        for step in site_page.steps:
            response = _step(page, step) or response
        page.locator(site_page.ready).first.wait_for(state="attached")
        network.wait_until_quiet()
    return response


def _step(page: Page, step: Step) -> Any:
    """One of a page's ``steps``; the response of the page a ``submit`` loads."""
    kind, selector, *value = step
    if kind == "open":
        page.locator(selector).evaluate("(node) => { node.open = true; }")
    elif kind == "select":
        page.select_option(selector, value[0])
    elif kind == "fill":
        page.fill(selector, value[0])
    elif kind == "submit":
        with page.expect_navigation() as loaded:
            page.click(selector)
        return loaded.value
    return None


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
