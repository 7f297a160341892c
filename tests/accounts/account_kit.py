"""Helpers of the account tests: a signed-in web client, links out of emails, and
games finished through the games' own commands."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from django.core import mail
from django.test import Client

from games.models import Game
from games.play.create import game_create
from games.play.lobby import game_join, game_start
from games.play.resign import game_resign
from tests.gamekit import everyone_moves

# Named explicitly: force_login would otherwise take the first backend with get_user.
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
LINK = re.compile(r"https?://\S+")


def web_client(user: Any) -> Client:
    """A browser-like client signed in as ``user`` (a session, with CSRF not enforced)."""
    client = Client()
    client.force_login(user, backend=MODEL_BACKEND)
    return client


def mails_to(address: str) -> list[mail.EmailMessage]:
    return [message for message in mail.outbox if address in message.to]


def link_path(message: mail.EmailMessage) -> str:
    """The path (and query) of the only link in an email's body."""
    links = LINK.findall(message.body)
    assert len(links) == 1, links
    parts = urlsplit(links[0])
    return parts.path + (f"?{parts.query}" if parts.query else "")


def finished_game(started: Any, *, players: int = 2, winner: int = 0, **create: Any) -> Game:
    """A game everyone moved in, ended by the resignations of all but ``winner``.
    With ``rated=True`` it is rated. Returns the game with ``.users`` by seat."""
    game, users = started(players=players, **create)
    everyone_moves(game, users)
    for position, user in enumerate(users):
        game.refresh_from_db()
        if position != winner and game.status == Game.Status.ACTIVE:
            game_resign(game=game, user=user)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winners == [winner]
    game.users = users  # type: ignore[attr-defined]
    return game


def played_game(
    users: list[Any], *, winner: int | None = 0, preset: str = "serbian", **create: Any
) -> Game:
    """A game of ``users`` (seated in that order, hosted by the first) in which everyone
    moved; then all but ``winner`` resign (``winner=None``: it goes on running)."""
    game = game_create(owner=users[0], preset=preset, players=len(users), **create)
    for user in users[1:]:
        game_join(game=game, user=user)
    game = everyone_moves(game_start(game=game, user=users[0]), users)
    for position, user in enumerate(users):
        game.refresh_from_db()
        if winner is not None and position != winner and game.status == Game.Status.ACTIVE:
            game_resign(game=game, user=user)
    game.refresh_from_db()
    return game
