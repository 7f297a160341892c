"""Game fixtures for the account tests that play (bot accounts, ratings), and the
replay check that every game a test plays gets."""

from tests.gamekit_fixtures import (  # noqa: F401
    deals_seeded,
    every_game_replays,
    lobby,
    players,
    started,
)
