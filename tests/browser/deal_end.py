"""The end of a live deal, for the browser tests of what a table shows then (the deal's
summary, the score sheet, the pause, the review): a live serbian game whose starter
holds a dry hand and goes out with it in one turn, and the players' pages open on it.

The ``dry_deal`` fixture (conftest.py) starts such a game; ``DryDeal.seat_players``
opens the table in each player's browser and ``go_out`` plays the deal to its end.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.models import Game
from games.play.create import game_create
from games.play.lobby import game_join, game_start
from tests.browser.player_kit import Player
from tests.gamekit import current_engine_deal

PASSWORD = "correct-horse-battery-staple"
# serbian, 15 cards: four melds worth 108 and the 9♣ to discard: a dry hand.
DRY_HAND = "7H 8H 9H 10H QS QD QC KS KD KC 2D 3D 4D 5D 9C"
DRY_MELDS = ("7H 8H 9H 10H", "QS QD QC", "KS KD KC", "2D 3D 4D 5D")
LAST_CARD = "9C"
# The players of ``dry_deal``, in seat order (mila hosts).
NAMES = ("mila", "goran")


def live_game(names: Sequence[str]) -> Game:
    """A live serbian game of new users named ``names`` (the first hosts), started."""
    users = [get_user_model().objects.create_user(username=n, password=PASSWORD) for n in names]
    return start_live_game(users)


def start_live_game(users: Sequence[Any]) -> Game:
    """A live serbian game of ``users`` (the first hosts), 600 s a turn, started."""
    game = game_create(
        owner=users[0],
        preset="serbian",
        players=len(users),
        time_control="live",
        seconds_per_turn=600,
    )
    for user in users[1:]:
        game_join(game=game, user=user)
    return game_start(game=game, user=users[0])


@dataclass(frozen=True)
class DryDeal:
    """A started live game of ``names`` (in seat order) whose seat ``starter`` is to move
    holding DRY_HAND."""

    game: Game
    names: tuple[str, ...]
    starter: int

    @property
    def other(self) -> int:
        """The seat of the player who does not start (the game is of two)."""
        return 1 - self.starter

    def seat_players(
        self,
        factory: Callable[..., Player],
        *,
        before_the_table: Callable[[Player], None] | None = None,
        **options: Any,
    ) -> tuple[Player, Player]:
        """Each player in a browser of their own (``factory(name, **options)``), opened
        in seat order, signed in, at the table with the hand shown: (the starter, the
        other). ``before_the_table(player)`` runs once the player is signed in, before
        the table opens (a fake clock installed, say)."""
        players = [factory(name, **options) for name in self.names]
        for player in players:
            player.log_in(player.name, PASSWORD)
            if before_the_table is not None:
                before_the_table(player)
            player.goto(f"/games/{self.game.public_id}/")
            expect(player.page.locator("#hand .pcard").first).to_be_visible()
        return players[self.starter], players[self.other]


def start_dry_deal(names: Sequence[str] = NAMES) -> DryDeal:
    """A live game of new users ``names``, started; the starter_hand fixture must have
    scripted DRY_HAND first."""
    game = live_game(names)
    return DryDeal(game, tuple(names), current_engine_deal(game).to_move)


def stage_the_dry_hand(mover: Player) -> None:
    """The starter stages the four melds of DRY_HAND (not laid down yet)."""
    for meld in DRY_MELDS:
        mover.select(*meld.split())
        mover.page.click("#lay-group")


def go_out(mover: Player) -> None:
    """The starter lays their whole dry hand and throws the last card: the deal is over."""
    stage_the_dry_hand(mover)
    mover.open_with_the_staged_melds()
    mover.select(LAST_CARD)
    mover.page.click("#discard")
