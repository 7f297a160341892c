"""``{{ preset|preset_name }}``: the one name a preset goes by on every page;
``{{ game|game_name }}``: what a page calls a game (its rules and when it began)."""

from __future__ import annotations

from django import template

from games.models import Game
from games.read.catalogue import game_name as _game_name
from games.read.catalogue import preset_name as _preset_name

register = template.Library()


@register.filter
def preset_name(preset: str) -> str:
    return _preset_name(preset)


@register.filter
def game_name(game: Game) -> str:
    return _game_name(game.preset, game.started_at or game.created_at)
