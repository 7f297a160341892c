"""``{{ preset|preset_name }}``: the one name a preset goes by on every page."""

from __future__ import annotations

from django import template

from games.read.catalogue import preset_name as _preset_name

register = template.Library()


@register.filter
def preset_name(preset: str) -> str:
    return _preset_name(preset)
