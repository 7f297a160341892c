"""What a move's request gives (``move_input``) and what its answer holds
(``game_after``, ``answer_headers``): shared by ``POST /actions`` and ``POST /turn``."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.http import QueryDict

from games.api import progress_serializers as progress
from games.api.serializers import ActSerializer
from games.play.act import ActResult
from games.play.turn import TurnResult
from games.read import selectors
from games.read.progress import game_progress


def move_input(data: Any) -> tuple[Any, int]:
    """The action and the ply of a move's body. The body every client sends (an object
    with an action and a whole ``ply`` of 0 or more) is taken as it is: building and
    running ``ActSerializer`` for it was a tenth of a move's own CPU. Anything else goes
    through the serializer, whose refusal is the API's 400."""
    if isinstance(data, dict) and not isinstance(data, QueryDict):
        action, ply = data.get("action"), data.get("ply")
        if action is not None and type(ply) is int and ply >= 0:
            return action, ply
    checked = ActSerializer(data=data)
    checked.is_valid(raise_exception=True)
    return checked.validated_data["action"], checked.validated_data["ply"]


def game_after(result: ActResult | TurnResult, user: User, *, minimal: bool) -> dict[str, Any]:
    """The game after a play command's ``result``: where it stands when the client
    asked for ``return=minimal``, else the whole game as ``user`` sees it."""
    if minimal:
        return game_progress(result.game, result.deal)
    return selectors.game_view_for(
        game=result.game,
        user=user,
        deal=result.deal,
        seats=result.seats or None,
        views=result.views,
    )


def answer_headers(*, replayed: bool, minimal: bool) -> dict[str, str]:
    """A move's answer's headers: a retry's mark, the preference applied, and that the
    answer depends on ``Prefer`` (for a cache on the way)."""
    headers = {"Vary": "Prefer"}
    if replayed:
        headers["Idempotent-Replayed"] = "true"
    if minimal:
        headers.update(progress.MINIMAL_APPLIED)
    return headers
