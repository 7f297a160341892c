"""A new game in the lobby: its ruleset (a preset with house rules), time control,
timeout policy, bots and stake, checked before the game and its first seats are
created."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext, ngettext

from accounts.models import is_builtin_bot
from games.chips import services as chips
from games.engine import PRESETS, Ruleset
from games.engine import Deal as EngineDeal
from games.engine_words import preset_display_name
from games.errors import InvalidRequest
from games.models import Game, Seat, new_invite_code
from games.play import sanctions

# Default time controls (the live-play part enforces them).
DEFAULT_SECONDS_PER_TURN = 60
DEFAULT_DAYS_PER_MOVE = 3
MAX_SECONDS_PER_TURN = 3600
MAX_DAYS_PER_MOVE = 14
MAX_STRIKE_LIMIT = 10
MAX_ABSENT_WAIT_S = 1800
MAX_TIME_BANK_S = 600

# Ruleset fields a house rule may not change: the preset's identity.
_FIXED_RULESET_FIELDS = frozenset({"name"})


def game_create(
    *,
    owner: User,
    preset: str,
    overrides: Mapping[str, Any] | None = None,
    players: int,
    visibility: str = Game.Visibility.PUBLIC,
    time_control: str = Game.TimeControl.CORRESPONDENCE,
    seconds_per_turn: int | None = None,
    days_per_move: int | None = None,
    rated: bool = False,
    bots: Sequence[User] = (),
    strike_limit: int | None = None,
    absent_wait_s: int | None = None,
    time_bank_s: int | None = None,
    stake: int = 0,
) -> Game:
    """A new game in the lobby with ``owner`` in seat 0 (and ``bots`` in the next seats).

    The ruleset is the preset with the house-rule ``overrides`` (JSON values, as
    ``Ruleset.to_dict`` writes them), stored whole: editing a preset later never
    changes this game. ``stake``: the chips each player puts into the pot when the
    game starts (``games.chips``); everyone seated must be able to cover it.
    """
    ruleset = ruleset_build(preset=preset, overrides=overrides or {})
    if not ruleset.min_players <= players <= ruleset.max_players:
        raise InvalidRequest(
            ngettext(
                "%(preset)s is played by %(min_players)s to %(max_players)s player",
                "%(preset)s is played by %(min_players)s to %(max_players)s players",
                ruleset.max_players,
            )
            % {
                "preset": preset_display_name(preset),
                "min_players": ruleset.min_players,
                "max_players": ruleset.max_players,
            },
            code="invalid_players",
        )
    if visibility not in Game.Visibility.values:
        raise InvalidRequest(
            gettext("unknown visibility %(visibility)s") % {"visibility": repr(visibility)},
            code="invalid_visibility",
        )
    seconds_per_turn, days_per_move = _time_control_check(
        time_control, seconds_per_turn, days_per_move
    )
    _timeout_policy_check(time_control, strike_limit, absent_wait_s)
    _time_bank_check(time_control, time_bank_s)
    if len(bots) > players - 1:
        raise InvalidRequest(gettext("more bots than free seats"), code="too_many_bots")
    for bot in bots:
        if not is_builtin_bot(bot):
            raise InvalidRequest(gettext("%(bot)s is not a bot") % {"bot": bot}, code="not_a_bot")
    if len({bot.pk for bot in bots}) != len(bots):
        # Else the unique (game, user) of the seats refuses the second seat: a server error.
        raise InvalidRequest(gettext("each bot may sit once"), code="invalid_players")
    if rated and bots:
        # The server plays for built-in bots: a rated game is between players only.
        raise InvalidRequest(
            gettext("a rated game cannot seat built-in bots; make it casual (rated: false)"),
            code="rated_with_bots",
        )
    if rated:
        sanctions.playban_check(user=owner)
    chips.stake_check(stake)

    with transaction.atomic():
        chips.stake_affordable(users=[owner, *bots], stake=stake)
        game = Game.objects.create(
            preset=preset,
            ruleset=ruleset.to_dict(),
            players=players,
            visibility=visibility,
            invite_code=new_invite_code() if visibility == Game.Visibility.PRIVATE else "",
            owner=owner,
            time_control=time_control,
            seconds_per_turn=seconds_per_turn,
            days_per_move=days_per_move,
            rated=rated,
            strike_limit=strike_limit,
            absent_wait_s=absent_wait_s,
            time_bank_s=time_bank_s or 0,
            stake=stake,
        )
        Seat.objects.bulk_create(
            Seat(game=game, user=user, position=position)
            for position, user in enumerate([owner, *bots])
        )
    return game


def ruleset_build(*, preset: str, overrides: Mapping[str, Any]) -> Ruleset:
    """The preset with house-rule overrides; ``InvalidRequest`` names what is wrong."""
    if preset not in PRESETS:
        raise InvalidRequest(
            gettext("unknown preset %(preset)s (one of %(value)s)")
            % {"preset": repr(preset), "value": ", ".join(PRESETS)},
            code="unknown_preset",
        )
    fixed = _FIXED_RULESET_FIELDS & set(overrides)
    if fixed:
        raise InvalidRequest(
            gettext("a house rule cannot change %(value)s") % {"value": ", ".join(sorted(fixed))},
            code="invalid_ruleset",
        )
    data = {**PRESETS[preset].to_dict(), **overrides}
    try:
        ruleset = Ruleset.from_dict(data)
        # A trial deal proves the switches fit together (enough cards for the hands...).
        EngineDeal.new(ruleset, ruleset.max_players, dealer=0, rng=secrets.SystemRandom())
        EngineDeal.new(ruleset, ruleset.min_players, dealer=0, rng=secrets.SystemRandom())
        ruleset.deals_in_match(ruleset.min_players)
        if min(ruleset.match_deals) < 1:
            raise ValueError("a match has at least one deal")
    except (ValueError, TypeError, IndexError) as error:
        raise InvalidRequest(
            gettext("invalid house rules: %(error)s") % {"error": error}, code="invalid_ruleset"
        ) from None
    return ruleset


def _time_control_check(
    kind: str, seconds_per_turn: int | None, days_per_move: int | None
) -> tuple[int | None, int | None]:
    if kind == Game.TimeControl.LIVE:
        seconds = DEFAULT_SECONDS_PER_TURN if seconds_per_turn is None else seconds_per_turn
        if not 10 <= seconds <= MAX_SECONDS_PER_TURN:
            raise InvalidRequest(
                gettext("seconds_per_turn must be from 10 to %(max_seconds_per_turn)s")
                % {"max_seconds_per_turn": MAX_SECONDS_PER_TURN},
                code="invalid_time_control",
            )
        return seconds, None
    if kind == Game.TimeControl.CORRESPONDENCE:
        days = DEFAULT_DAYS_PER_MOVE if days_per_move is None else days_per_move
        if not 1 <= days <= MAX_DAYS_PER_MOVE:
            raise InvalidRequest(
                gettext("days_per_move must be from 1 to %(max_days_per_move)s")
                % {"max_days_per_move": MAX_DAYS_PER_MOVE},
                code="invalid_time_control",
            )
        return None, days
    raise InvalidRequest(
        gettext("unknown time control %(kind)s") % {"kind": repr(kind)}, code="invalid_time_control"
    )


def _timeout_policy_check(kind: str, strike_limit: int | None, absent_wait_s: int | None) -> None:
    if strike_limit is not None and not 1 <= strike_limit <= MAX_STRIKE_LIMIT:
        raise InvalidRequest(
            gettext("strike_limit must be from 1 to %(max_strike_limit)s")
            % {"max_strike_limit": MAX_STRIKE_LIMIT},
            code="invalid_time_control",
        )
    if absent_wait_s is not None:
        if kind != Game.TimeControl.LIVE:
            raise InvalidRequest(
                gettext("absent_wait_s is for live games"), code="invalid_time_control"
            )
        if not 10 <= absent_wait_s <= MAX_ABSENT_WAIT_S:
            raise InvalidRequest(
                gettext("absent_wait_s must be from 10 to %(max_absent_wait_s)s")
                % {"max_absent_wait_s": MAX_ABSENT_WAIT_S},
                code="invalid_time_control",
            )


def _time_bank_check(kind: str, time_bank_s: int | None) -> None:
    if time_bank_s is None:
        return
    if kind != Game.TimeControl.LIVE:
        raise InvalidRequest(
            gettext("time_bank_s is for live games (correspondence games have no time bank)"),
            code="invalid_time_control",
        )
    if not 0 <= time_bank_s <= MAX_TIME_BANK_S:
        raise InvalidRequest(
            ngettext(
                "time_bank_s must be from 0 to %(max_time_bank_s)s second",
                "time_bank_s must be from 0 to %(max_time_bank_s)s seconds",
                MAX_TIME_BANK_S,
            )
            % {"max_time_bank_s": MAX_TIME_BANK_S},
            code="invalid_time_control",
        )
