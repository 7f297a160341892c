"""Web pages of the games app: thin shells around the public REST API.

The lobby and the table are rendered by the browser from what ``/api/v1/`` returns
(``static/js/lobby.js``, ``static/js/table/``), so a page never shows more than
the API gives its viewer. Pages only find the game (404 for unknown and others'
private games, as the API does) and list the viewer's games.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.authentication import request_user
from accounts.models import BUILTIN_BOTS
from games.errors import GameNotFound
from games.read import selectors

# The tabs of "my games": API status filter -> label.
LIST_TABS = {"active": "Playing", "lobby": "Waiting to start", "finished": "Finished"}
LIST_LIMIT = 50
PRESET_LABELS = {"macedonian": "Macedonian", "serbian": "Serbian", "polish51": "Polish Remik 51"}


def _bots() -> list[dict[str, Any]]:
    """The bot accounts one may seat in a new game (``bots`` of the create call)."""
    users = (
        get_user_model()
        .objects.filter(BUILTIN_BOTS, is_active=True)
        .select_related("profile")
        .order_by("profile__bot_level", "username")
    )
    return [
        selectors.user_card(user) | {"avatar": user.profile.avatar, "bio": user.profile.bio}
        for user in users
    ]


@login_required
def play(request: HttpRequest) -> HttpResponse:
    """The lobby: create a game (or play bots at once), join an open one or an invite."""
    return render(request, "games/play.html", {"bots": _bots()})


@login_required
def game_list(request: HttpRequest) -> HttpResponse:
    """The viewer's games, by status."""
    user = request_user(request)
    tab = request.GET.get("status", "active")
    if tab not in LIST_TABS:
        tab = "active"
    games = selectors.game_list(user=user, filters={"mine": True, "status": tab})
    summaries = [selectors.game_summary(game, user) for game in games[:LIST_LIMIT]]
    for summary in summaries:
        you = summary["you"]
        summary["others"] = [seat for seat in summary["seats"] if seat["position"] != you]
        summary["mine"] = next((s for s in summary["seats"] if s["position"] == you), None)
        summary["won"] = summary["winners"] is not None and you in summary["winners"]
        summary["preset_label"] = PRESET_LABELS.get(summary["preset"], summary["preset"])
    context = {"tabs": LIST_TABS, "tab": tab, "games": summaries, "limit": LIST_LIMIT}
    return render(request, "games/list.html", context)


@login_required
def detail(request: HttpRequest, game_id: str) -> HttpResponse:
    """The table. A private game is found by its players, or by anyone holding its
    invite link (``?invite=<code>``; the join call checks the code)."""
    user = request_user(request)
    invite = request.GET.get("invite", "").strip()[:32]
    try:
        if invite:
            game = selectors.game_get_for_join(public_id=game_id, user=user, invite_code=invite)
        else:
            game = selectors.game_get(public_id=game_id, user=user)
    except GameNotFound:
        raise Http404("no such game") from None
    context = {"game_id": game.public_id, "invite": invite, "preset": game.preset}
    return render(request, "games/table.html", context)
