"""No page of the site and no list of the admin answers hostile input with a server error.

The API is fuzzed from its schema (tests/api/test_schemathesis.py); the pages have no
schema, so this walk takes every route of the site's pages from the URL resolver (a new
route is walked without being listed here) and, for a visitor, a player, a moderator and
a sanctioned player (muted, with a warning to read, to which each page he navigates to
sends him, the hostile path and query in its ``next``):

- fills each route's parameters with real objects and with hostile ones (a NUL byte, a
  number past any column's range, text far past any field's length, a path climbing out);
- on the real path, sends every query parameter a view reads and every field of the
  page's own forms each hostile value, by GET and by POST, and the page once with odd
  headers (a malformed Accept-Language, a forged X-Forwarded-For, a junk cookie);
- and, for a superuser, every admin list with its filters, its order and its search given
  the same values, every action of each list on a selection of ids that are none, and
  every field of every add and change form.

Each answer must be below 500; the failures are listed with the request that made them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from accounts import services as account_services
from games.models import ChatMessage
from games.notify import preferences
from tests.browser.site_pages import USER_OF_ROLE, SiteData, make_site_data

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

# One value of each kind that has broken a parser somewhere: empty, a NUL byte, signs and
# magnitudes no column holds, a float's overflow, markup, unpaired quotes and percents,
# JSON, an impossible date, text far past any field, and a non-Latin script.
HOSTILE = [
    "",
    "\x00",
    "-1",
    "99999999999999999999",
    "1e309",
    "<b>'\"",
    "%",
    '{"a": [1]}',
    "2026-13-45",
    "x" * 5000,
    "ђ♠🃏",
    "²",  # a digit to str.isdigit(), not to int()
    "٣",  # a digit to both: an Arabic-Indic three
]
# What a path's parameter may be besides a real object: the same, less what a URL
# cannot carry in a path segment (an empty segment, a slash).
HOSTILE_IN_PATH = ["%00", "99999999999999999999", "x" * 300, "..%2F..%2Fetc", "%C2%B2"]
# The values that break a type (text, number, length, script) rather than a parser:
# what each field and each of an admin list's parameters gets on its own.
BREAKERS = ["\x00", "-1", "99999999999999999999", "x" * 5000, "ђ♠🃏", "²"]
# The query parameters the site's views read (request.GET in accounts/ and games/), and
# the admin's own (order, page, search, popups).
QUERY_NAMES = [
    "page",
    "next",
    "game",
    "user",
    "time_control",
    "status",
    "rules",
    "report",
    "reason",
    "message",
    "invite",
    "page_size",
]
ADMIN_QUERY_NAMES = ["o", "p", "q", "e", "all", "_to_field", "_popup", "_changelist_filters"]
# Of those, the ones each admin reads its own way (its search fields, its orderings):
# sent on their own to every list, the others together.
OWN_WAY = ["o", "q"]
ODD_HEADERS = {
    "HTTP_ACCEPT_LANGUAGE": "xx-YY;q=abc, *;q=-1, \x7f",
    "HTTP_X_FORWARDED_FOR": "not-an-address, 999.1.1.1, ::ffff:zz",
    "HTTP_X_FORWARDED_PROTO": "gopher",
    "HTTP_REFERER": "javascript:alert(1)",
    "HTTP_COOKIE": "django_language=%00; remi_theme=\x01",
}
# Routes whose POST ends the visitor's session or account, or leaves for another site:
# walked by GET (their POST is tested where they live: tests/accounts/).
NOT_POSTED = {"logout", "delete"}
# Server errors a route answers by design: the health check's 503 says a service is
# down (here: no worker or beat beats), whatever the request.
BY_DESIGN = {"healthz": {503}}
# The API and the admin are walked their own way; static files are the web server's.
OWN_WALKS = ("api/", "admin/", "static/")


@dataclass(frozen=True)
class Route:
    name: str
    pattern: str  # e.g. "games/<str:game_id>/deals/<int:number>/review/"


def site_routes() -> list[Route]:
    """Every route of the site's pages, as the resolver holds them."""

    def walk(resolver: URLResolver, prefix: str) -> Iterator[Route]:
        for entry in resolver.url_patterns:
            if isinstance(entry, URLResolver):
                yield from walk(entry, prefix + str(entry.pattern))
            elif isinstance(entry, URLPattern):
                yield Route(entry.name or "", prefix + str(entry.pattern))

    return [r for r in walk(get_resolver(), "") if not r.pattern.startswith(OWN_WALKS)]


PARAMETER = re.compile(r"<(?:(\w+):)?(\w+)>")


def real_values(data: SiteData) -> dict[str, str]:
    """A real object for each route parameter's name."""
    users = get_user_model().objects
    dana = users.get(username=USER_OF_ROLE["player"])
    token, _raw = account_services.token_create(user=dana, name="hostile walk")
    message = ChatMessage.objects.filter(game=data.playing).order_by("pk").first()
    assert message is not None
    return {
        "username": "fern",
        "game_id": data.playing.public_id,
        "number": "1",
        "token_id": str(token.pk),
        "token": data.links["appeal"],
        "pk": str(data.warning),
        "message_id": str(message.pk),
        "action": "warn",
        "preset": "serbian",
        "secret": preferences.calendar_secret_for(dana),
        "uidb64": "MQ",
    }


def concrete(route: Route, values: dict[str, str]) -> str:
    return "/" + PARAMETER.sub(lambda m: values.get(m.group(2), "1"), route.pattern)


def paths(route: Route, real: dict[str, str]) -> tuple[str, list[str]]:
    """The route with real objects, and with each parameter in turn made hostile."""
    names = [m.group(2) for m in PARAMETER.finditer(route.pattern)]
    hostile = [
        concrete(route, {**real, name: value}) for name in names for value in HOSTILE_IN_PATH
    ]
    return concrete(route, real), hostile


class _Fields(HTMLParser):
    """The names of the fields of a page's forms."""

    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        name = dict(attrs).get("name")
        if tag in ("input", "select", "textarea", "button") and name:
            self.names.add(name)


def form_fields(html: str) -> list[str]:
    parser = _Fields()
    parser.feed(html)
    return sorted(parser.names - {"csrfmiddlewaretoken"})


class Walk:
    """Requests sent by one client, and every one that was answered with a 5xx or raised."""

    def __init__(self, client: Client, who: str) -> None:
        self.client = client
        self.who = who
        self.sent = 0
        self.failures: list[str] = []
        self.by_design: set[int] = set()

    def send(self, method: str, path: str, data: Any = None, **headers: Any) -> Any:
        self.sent += 1
        shown = f"{self.who}: {method.upper()} {path[:120]!r} {str(data)[:160]}"
        try:
            response = getattr(self.client, method)(path, data or {}, **headers)
        except Exception as error:  # noqa: BLE001 -- every failure is reported, not the first
            self.failures.append(f"{shown} raised {type(error).__name__}: {str(error)[:200]}")
            return None
        if response.status_code >= 500 and response.status_code not in self.by_design:
            self.failures.append(f"{shown} answered {response.status_code}")
        return response

    def route(self, real: str, hostile: list[str], post: bool) -> None:
        page = self.send("get", real)
        fields = form_fields(page.content.decode(errors="replace")) if _html(page) else []
        for value in HOSTILE:
            self.send("get", real, dict.fromkeys(QUERY_NAMES, value))
        for value in BREAKERS if post else ():
            self.send("post", real, dict.fromkeys([*fields, *QUERY_NAMES], value))
        self.send("get", real, **ODD_HEADERS)
        if post and fields:
            # Every field given several values at once (a list where one is read).
            self.send("post", real, {name: HOSTILE[:3] for name in fields})
        for path in hostile:
            self.send("get", path)
            if post:
                self.send("post", path)


def _html(response: Any) -> bool:
    return response is not None and response.get("Content-Type", "").startswith("text/html")


def client_of(username: str | None, *, navigating: bool = False) -> Client:
    """A client signed in as ``username``; ``navigating``: its GETs load pages as a
    browser's navigations do (``Sec-Fetch-Dest: document``), which the middleware that
    shows a player an unread warning answers."""
    client = Client(headers={"Sec-Fetch-Dest": "document"} if navigating else None)
    if username:
        client.force_login(get_user_model().objects.get(username=username))
    return client


@pytest.fixture
def site_data() -> SiteData:
    return make_site_data()


@pytest.mark.parametrize("who", ["visitor", "player", "moderator", "sanctioned"])
def test_no_page_answers_hostile_input_with_a_server_error(site_data: SiteData, who: str) -> None:
    real = real_values(site_data)
    # The sanctioned player's GETs navigate: each is sent to his warning, with the
    # hostile path and query in its ``next`` (the other roles' walks reach the views).
    navigating = who == "sanctioned"
    walk = Walk(client_of(USER_OF_ROLE.get(who), navigating=navigating), who)
    routes = site_routes()
    for route in routes:
        if who != "visitor":
            # A POST may have signed the client out (a session ended by a changed
            # password): every route starts signed in as its walker.
            walk.client = client_of(USER_OF_ROLE[who], navigating=navigating)
        real_path, hostile = paths(route, real)
        walk.by_design = BY_DESIGN.get(route.name, set())
        walk.route(real_path, hostile, post=route.name not in NOT_POSTED)

    assert len(routes) >= 50, routes  # the resolver's routes were found
    if navigating:
        assert walk.client.get("/").url.startswith("/moderation/warning/?next=")
    assert not walk.failures, f"{len(walk.failures)} of {walk.sent}:\n" + "\n".join(walk.failures)


def admin_lists() -> Iterator[str]:
    for model in admin.site._registry:
        meta = model._meta
        yield reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")


ACTION = re.compile(r'<option value="(\w+)">')


def filter_names(html: str) -> set[str]:
    """The query parameters the list's own links use (its filters' and the date
    hierarchy's)."""
    names = set()
    for href in re.findall(r'href="(\?[^"]*)"', html):
        names |= {name for name, _ in parse_qsl(urlsplit(href.replace("&amp;", "&")).query)}
    return names


def test_no_admin_list_answers_hostile_input_with_a_server_error(site_data: SiteData) -> None:
    get_user_model().objects.create_superuser("root", "root@example.org", "pw-root-1")
    walk = Walk(client_of("root"), "superuser")
    lists = list(admin_lists())
    for path in lists:
        page = walk.send("get", path)
        filters = sorted(filter_names(page.content.decode()) - set(ADMIN_QUERY_NAMES))
        for value in HOSTILE:
            walk.send("get", path, dict.fromkeys([*ADMIN_QUERY_NAMES, *filters], value))
        for value in BREAKERS:
            for name in [*OWN_WAY, *filters]:
                walk.send("get", path, {name: value})
        # Each action on a selection of no row ("-1") and of ids that are none.
        for action in ACTION.findall(page.content.decode()):
            for value in ["-1", "abc", "", *BREAKERS]:
                walk.send("post", path, {"action": action, "_selected_action": value, "index": 0})

    assert len(lists) >= 20, lists
    assert not walk.failures, f"{len(walk.failures)} of {walk.sent}:\n" + "\n".join(walk.failures)


def admin_forms() -> Iterator[str]:
    """Every admin's add page, and the change page of its first row where it has one."""
    for model in admin.site._registry:
        meta = model._meta
        yield reverse(f"admin:{meta.app_label}_{meta.model_name}_add")
        first = model._default_manager.order_by("pk").first()
        if first is not None:
            yield reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[first.pk])


def test_no_admin_form_answers_hostile_input_with_a_server_error(site_data: SiteData) -> None:
    """Each field of each add and change form posted every breaking value, and several
    values at once; the forms that may not be opened (no add permission) answer 403."""
    get_user_model().objects.create_superuser("root", "root@example.org", "pw-root-1")
    walk = Walk(client_of("root"), "superuser")
    forms = list(admin_forms())
    for path in forms:
        walk.client = client_of("root")  # a change of the root's own row may sign it out
        page = walk.send("get", path)
        if not _html(page) or page.status_code != 200:
            continue
        fields = form_fields(page.content.decode(errors="replace"))
        for value in BREAKERS:
            walk.send("post", path, dict.fromkeys(fields, value))
        walk.send("post", path, {name: HOSTILE[:3] for name in fields})

    assert len(forms) >= 30, forms
    assert not walk.failures, f"{len(walk.failures)} of {walk.sent}:\n" + "\n".join(walk.failures)
