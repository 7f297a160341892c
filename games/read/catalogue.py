"""The catalogues a client reads first: the rule presets and the built-in bots."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User as AuthUser
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from accounts.models import BUILTIN_BOTS
from games.engine import (
    PRESETS,
)
from games.engine.rulesets import SCORING_BY_AGREEMENT
from games.engine_words import engine_text, preset_description, preset_display_name
from games.errors import InvalidRequest
from remi_site import formats


def preset_name(preset: str) -> str:
    """The one name a preset goes by on every page (its ruleset's display name), in the
    active language."""
    return preset_display_name(preset)


def game_name(preset: str, began: datetime) -> str:
    """What a page calls a game: its rules and when it began ("Macedonian Remi, 6 Dec
    2026, 19:40"), in the active language and time zone. The public id is for links and
    clients, not for people to read."""
    return pgettext("a game's name", "%(rules)s, %(when)s") % {
        "rules": preset_name(preset),
        "when": formats.moment(began),
    }


def ruleset_shown(ruleset: Mapping[str, Any]) -> dict[str, Any]:
    """A stored ruleset with the words players read in the active language (a preset's
    name and description; a name of the host's own stays as written)."""
    shown = dict(ruleset)
    for key in ("display_name", "description"):
        if isinstance(shown.get(key), str):
            shown[key] = engine_text(shown[key])
    return shown


def ruleset_presets() -> list[dict[str, Any]]:
    """Every preset with every field (``Ruleset.to_dict``), its name and description in
    the active language."""
    return [
        {
            "name": name,
            "ruleset": {
                **ruleset.to_dict(),
                "display_name": preset_display_name(name),
                "description": preset_description(name),
            },
            "scoring_by_agreement": name in SCORING_BY_AGREEMENT,
        }
        for name, ruleset in PRESETS.items()
    ]


def bot_users(*, usernames: Sequence[str]) -> list[AuthUser]:
    """The bot accounts with these usernames, in order; ``InvalidRequest`` names one
    that is not a bot."""
    found = {
        user.username: user
        for user in AuthUser.objects.select_related("profile").filter(
            BUILTIN_BOTS, username__in=usernames
        )
    }
    missing = [name for name in usernames if name not in found]
    if missing:
        raise InvalidRequest(
            _("no bot named %(value)s") % {"value": repr(missing[0])}, code="unknown_bot"
        )
    return [found[name] for name in usernames]
