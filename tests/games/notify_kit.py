"""What the tests of the players' messages share: a correspondence game between two
people who have addresses and chose a time zone, the emails one of them got, the
links in an email and the time an email should show."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core.mail import EmailMessage
from django.test import Client
from django.utils import translation

from games.models import Game, PlayerSettings
from games.play.act import game_act
from games.play.create import game_create
from games.play.lobby import game_join, game_start
from games.read.catalogue import preset_name
from remi_site import formats

# The name the rules of the games in these tests go by.
SERBIAN = preset_name("serbian")

# Two zones on either side of UTC, so that a time shown in the wrong one shows.
ZONES = ("Europe/Belgrade", "America/New_York")
# How an English email names each (its place, not its IANA id).
PLACES = {"Europe/Belgrade": "Serbia", "America/New_York": "New York"}

URL = re.compile(r"https?://[^\s<>\"]+")


@dataclass
class Duel:
    """A running correspondence game between two people."""

    game_id: str
    users: list[Any]  # by seat

    @property
    def game(self) -> Game:
        return Game.objects.get(public_id=self.game_id)

    @property
    def mover(self) -> Any:
        """The player whose turn it is."""
        to_move = self.game.to_move
        assert to_move is not None
        return self.users[to_move]

    @property
    def waiting(self) -> Any:
        """The other player."""
        mover = self.mover
        return next(user for user in self.users if user.pk != mover.pk)


def person(user_factory: Callable[..., Any], name: str, *, zone: str = "") -> Any:
    """A person named ``name`` (display name capitalised) with an address and ``zone``
    as their time zone."""
    user = user_factory(username=name, display_name=name.capitalize())
    user.email = f"{name}@example.com"
    user.save()
    PlayerSettings.objects.create(user=user, time_zone=zone)
    return user


def duel(
    user_factory: Callable[..., Any],
    *,
    zone: str = "",
    days: int = 2,
    names: tuple[str, str] = ("ana", "marko"),
    users: list[Any] | None = None,
    **create: Any,
) -> Duel:
    """A started correspondence game of two people: ``users``, or two new ones named
    ``names`` (see ``person``); the first is the host."""
    players = users or [person(user_factory, name, zone=zone) for name in names]
    game = game_create(owner=players[0], preset="serbian", players=2, days_per_move=days, **create)
    game_join(game=game, user=players[1])
    game = game_start(game=game, user=players[0])
    by_seat = sorted(players, key=lambda user: game.seats.get(user=user).position)
    return Duel(game.public_id, by_seat)


def mails_to(outbox: list[EmailMessage], user: Any) -> list[EmailMessage]:
    return [message for message in outbox if message.to == [user.email]]


def links_in(message: EmailMessage) -> list[str]:
    return URL.findall(str(message.body))


def site_path(url: str) -> str:
    """The path of a link on this site (it must start with ``SITE_URL``)."""
    assert url.startswith(str(settings.SITE_URL).rstrip("/") + "/"), url
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def shown(moment: datetime, zone: str, form: formats.DateForm = "long") -> str:
    """``moment`` as the emails to an English reader write a deadline (CLDR's
    ``form``), in ``zone``, whatever language the test's thread has active."""
    with translation.override("en"):
        return formats.moment(moment, form, zone=ZoneInfo(zone))


def web_client(user: Any = None) -> Client:
    """A browser: logged in as ``user``, or anonymous."""
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def unsubscribe_link(message: EmailMessage) -> str:
    """The message's one-click unsubscribe link, as its header gives it (the body must
    carry the same link)."""
    header = str(message.extra_headers["List-Unsubscribe"])
    assert header.startswith("<") and header.endswith(">"), header
    link = header[1:-1]
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert link in links_in(message)
    return link


def play_turn(game_id: str, user: Any) -> None:
    """``user`` plays their whole turn (the greedy policy) through the services."""
    from tests.gamekit import current_engine_deal, greedy_action

    game = Game.objects.get(public_id=game_id)
    seat = game.seats.get(user=user).position
    assert game.to_move == seat
    while game.status == Game.Status.ACTIVE and game.to_move == seat:
        deal = current_engine_deal(game)
        game_act(game=game, user=user, action=greedy_action(deal), expected_ply=game.ply)
        game.refresh_from_db()
