"""A player's statistics and play history, per rule family (the game's preset).

The figures are counters kept as games are played, one ``PlayerStats`` row per
player and family, so that reading them costs one indexed query however many games
a player has finished:

- ``record``: the writes, one function per event (a game starts, a deal ends, a
  game ends, a game is aborted), called by the commands of ``games.play`` in the transaction of
  the event; the database adds (``INSERT ... ON CONFLICT DO UPDATE``), so concurrent
  games of a player never lose an increment;
- ``read``: the statistics and the recent games, as the pages and the API show them;
- ``rebuild``: the reference computation from every seat and deal result of a
  player, and the recount that rewrites rows that differ from it
  (``manage.py rebuild_stats``; the migration that added the rows ran it too).

Hidden information plays no part: a deal's result (winner, finish, scores) is public
once the deal is over.
"""

from games.stats.family import COUNTERS, FamilyStats
from games.stats.read import RECENT_GAMES, player_stats, recent_games
from games.stats.record import deal_finished, game_aborted, game_finished, game_started

__all__ = [
    "COUNTERS",
    "RECENT_GAMES",
    "FamilyStats",
    "deal_finished",
    "game_aborted",
    "game_finished",
    "game_started",
    "player_stats",
    "recent_games",
]
