"""The rules pages: the list of presets, and each preset's rules from its ruleset.

``/rules/<preset>/?game=<id>`` also shows that game's house rules (the fields of its
ruleset that differ from the preset's), for a game the viewer may see.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from games.errors import GameNotFound
from games.read import rules, selectors


@require_safe
def rules_index(request: HttpRequest) -> HttpResponse:
    return render(request, "games/rules_index.html", {"presets": rules.presets_index()})


@require_safe
def rules_detail(request: HttpRequest, preset: str) -> HttpResponse:
    found = rules.preset_rules(preset)
    if found is None:
        raise Http404(_("no such preset"))
    context: dict[str, Any] = {"rules": found, "game_id": None, "house_rules": None}
    game_id = request.GET.get("game", "").strip()[:32]
    if game_id:
        try:
            game = selectors.game_get(public_id=game_id, user=request.user)
        except GameNotFound:
            game = None
        # Another preset's game, or one the viewer may not see: the preset's page alone.
        if game is not None and game.preset == preset:
            context["game_id"] = game.public_id
            context["house_rules"] = rules.house_rules(game)
    return render(request, "games/rules.html", context)
