"""Game fixtures: seeded deals, lobbies and started games, players with API clients,
and the replay check that every game a test plays gets."""

from tests.gamekit_fixtures import (  # noqa: F401
    deals_seeded,
    every_game_replays,
    lobby,
    players,
    quick_deals,
    spectator,
    started,
)
