"""Template games for ``bench/scale.py``, played through the site's own services.

A template is a real game: created, joined and started with the ``games.play`` commands,
its moves played with ``game_act`` (the greedy bot's choices for people, the bot task's
own code, ``bot_turns.bot_play``, for a built-in bot), so its Game, Seat, Deal (deck, card
ids, state snapshot, result), Move and RatingChange rows are exactly what the site
writes. ``bench/atscale/clones.py`` copies them in bulk.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

# A template game is never longer than this (a safety net against a deal that never ends).
MAX_TEMPLATE_MOVES = 5000


@dataclass(frozen=True)
class TemplateSpec:
    """What to play: ``players`` seats (``bot`` takes seat 1), up to ``ply`` moves
    (None: to the end of the match), stopping when it is ``stop_on`` to move."""

    players: int
    ply: int | None
    bot: bool = False
    stop_on: str = "person"  # "person" or "bot": whose turn the game is left at
    rated: bool = False


@dataclass(frozen=True)
class Template:
    game_id: int
    players: int
    bot_positions: dict[int, int]  # position -> bot user id (kept in every clone)
    status: str
    ply: int
    deals: int
    bot_to_move: bool
    turn_started_at: datetime | None
    finished_at: datetime | None


@dataclass(frozen=True)
class Clone:
    """One game to make from ``template``: ``users`` by position (bots included)."""

    template: Template
    users: Sequence[int]
    shift: timedelta
    visibility: str = "public"


def people_create(count: int, prefix: str) -> list[int]:
    """``count`` players (users with a profile, no password), inserted in bulk."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from accounts.models import Profile

    user_model = get_user_model()
    unusable = make_password(None)  # nobody logs in as these players
    ids: list[int] = []
    for start in range(0, count, 5000):
        batch = [
            user_model(username=f"{prefix}{index}", password=unusable)
            for index in range(start, min(count, start + 5000))
        ]
        created = user_model.objects.bulk_create(batch)
        Profile.objects.bulk_create(
            Profile(user_id=user.pk, display_name=user.username) for user in created
        )
        ids += [user.pk for user in created]
    return ids


def player_create(username: str) -> Any:
    """A player created as signup does (the profile comes from the signal)."""
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(username=username, password=None)


def template_play(spec: TemplateSpec, people: Sequence[Any], bot: Any | None, seed: int) -> int:
    """Play one template game through the services; returns its pk."""
    from games.models import Game
    from games.play.create import game_create
    from games.play.lobby import game_join, game_start

    seated = [people[0], bot, *people[1 : spec.players - 1]] if spec.bot else people[: spec.players]
    game = game_create(
        owner=seated[0],
        preset="serbian",
        players=spec.players,
        time_control=Game.TimeControl.CORRESPONDENCE,
        rated=spec.rated,
        bots=[bot] if spec.bot else [],
    )
    for person in seated[1:]:
        if person is not bot:
            game_join(game=game, user=person)
    game_start(game=game, user=seated[0])
    _play_until(game.pk, seated, _stop_rule(spec), random.Random(seed))
    return int(game.pk)


def _stop_rule(spec: TemplateSpec) -> Callable[[Any, bool], bool]:
    def stop(game: Any, bot_to_move: bool) -> bool:
        if spec.ply is None or game.ply < spec.ply:
            return False
        return bot_to_move == (spec.stop_on == "bot")

    return stop


def _play_until(
    game_pk: int, seated: Sequence[Any], stop: Callable[[Any, bool], bool], rng: random.Random
) -> None:
    """Play ``game_pk`` until ``stop(game, bot_to_move)`` or the end of the match: a
    person's turn is the greedy bot's choice sent through ``game_act`` (with an
    idempotency key, as the site's own client sends), a built-in bot's turn is the
    bot task's code."""
    from accounts.models import is_builtin_bot
    from games import bots
    from games.engine import Deal as EngineDeal
    from games.models import Deal, Game
    from games.play.act import game_act
    from games.play.bot_turns import bot_play

    for _ in range(MAX_TEMPLATE_MOVES):
        game = Game.objects.get(pk=game_pk)
        if game.status != Game.Status.ACTIVE:
            return
        state = Deal.objects.values_list("state", flat=True).get(game=game, number=game.deal_number)
        deal = EngineDeal.from_dict(state, ruleset=game.engine_ruleset())
        mover = seated[deal.to_move]
        if stop(game, is_builtin_bot(mover)):
            return
        if is_builtin_bot(mover):
            bot_play(game_pk=game.pk, ply=game.ply)
            continue
        ply = game.ply
        for action in bots.decide(2, deal.view(deal.to_move), None, deal.ruleset, rng):
            result = game_act(
                game=game.public_id,
                user=mover,
                action=action,
                expected_ply=ply,
                idempotency_key=secrets.token_hex(8),
            )
            ply = result.game.ply
            if (
                result.game.status != Game.Status.ACTIVE
                or result.game.deal_number != game.deal_number
            ):
                break
    raise RuntimeError(f"template game {game_pk} did not stop within {MAX_TEMPLATE_MOVES} moves")


def template_load(game_pk: int) -> Template:
    from accounts.models import is_builtin_bot
    from games.models import Game

    game = Game.objects.get(pk=game_pk)
    seats = list(game.seats.select_related("user__profile").order_by("position"))
    if seats[0].user_id != game.owner_id:
        raise RuntimeError("a template's host must sit in seat 0")
    return Template(
        game_id=game.pk,
        players=game.players,
        bot_positions={s.position: s.user_id for s in seats if is_builtin_bot(s.user)},
        status=game.status,
        ply=game.ply,
        deals=game.deal_number,
        bot_to_move=game.bot_to_move,
        turn_started_at=game.turn_started_at,
        finished_at=game.finished_at,
    )


def clone_users(template: Template, people: Sequence[int]) -> list[int]:
    """The seats' users of a clone: ``people`` for the people's seats in order, the
    template's bots in theirs."""
    found = iter(people)
    return [
        template.bot_positions[p] if p in template.bot_positions else next(found)
        for p in range(template.players)
    ]
