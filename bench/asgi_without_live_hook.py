"""Diagnostics for ``bench/api.py --without-live-hook``: the site's ASGI application
with the live-play part's after-commit work (private hands, turn events, task
scheduling) switched off, to measure what that work costs per move. Never serves."""

# isort: off
from remi_site.asgi import application  # first: it sets Django up
from games.live import outbox, publisher
# isort: on

outbox._game_committed = lambda game_id, batch, state: publisher.publish_game_events(  # type: ignore[assignment]
    game_id, batch
)

__all__ = ["application"]
