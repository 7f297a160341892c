"""What the API's fuzzing walks share (tests/api/test_schemathesis.py, the schema's
inputs; tests/api/test_hostile_headers.py, the headers beside them): a fuzzing user with
a token in use and a spare one, a rival, a running game between the two and a private
lobby of the rival's, for the path parameters that name real objects."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.models import Game
from games.play.create import game_create
from games.play.lobby import game_join, game_start


@dataclass(frozen=True)
class FuzzWorld:
    fuzzer: Any
    rival: Any
    authorization: str  # the fuzzer's "Bearer …" header
    token_in_use: int
    spare_token: int
    game: Game  # running, the fuzzer and the rival seated
    lobby: Game  # the rival's private lobby


def fuzz_world(
    user_factory: Callable[..., Any], token_factory: Callable[..., Any], **fuzzer: Any
) -> FuzzWorld:
    """The objects; ``fuzzer``: ``user_factory``'s options for the fuzzing user."""
    me, rival = user_factory(**fuzzer), user_factory()
    token, raw = token_factory(me, name="fuzzing")
    spare, _raw = token_factory(me, name="spare")
    game = game_create(owner=me, preset="serbian", players=2)
    game_join(game=game, user=rival)
    game = game_start(game=game, user=me)
    lobby = game_create(owner=rival, preset="serbian", players=3, visibility="private")
    return FuzzWorld(me, rival, f"Bearer {raw}", token.pk, spare.pk, game, lobby)
