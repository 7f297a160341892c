"""A moderator's chat controls at a table, as JSON for the table's script: every line
with the hidden ones marked, and a line hidden or shown again (each logged in the
modlog with the game, and the report the moderator came from).

Site endpoints, not the public API: a moderator works from the site's session (an API
token never moderates). They answer in the API's one error shape, 403
``not_moderator`` to everyone without the moderator's powers; the role is read on
every request, so a moderator who loses the group (or is banned, which ends the
session) loses them at once."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.models import User
from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _

from accounts.models import Report
from accounts.moderation import roles
from accounts.moderation.errors import ModerationError
from games.errors import GameError
from games.models import ChatMessage, Game
from games.play import moderation as game_moderation
from games.read.chat import lines_for_moderator, message_entry
from remi_site.api_errors import error_json_response
from remi_site.whole_numbers import whole_number


class _Refused(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message

    def response(self) -> JsonResponse:
        return error_json_response(self.code, self.message, status=self.status)


def _moderator(request: HttpRequest, permission: str) -> User:
    user = request.user
    if not isinstance(user, User) or not user.has_perm(permission):
        raise _Refused(403, "not_moderator", _("Only moderators may do this."))
    return user


def _game(game_id: str) -> Game:
    found = Game.objects.filter(public_id=game_id).first()
    if found is None:
        raise _Refused(404, "not_found", _("No such game."))
    return found


def _line(game: Game, message_id: int) -> ChatMessage:
    found = (
        ChatMessage.objects.select_related("game", "user__profile")
        .filter(pk=message_id, game=game)
        .first()
    )
    if found is None:
        raise _Refused(404, "not_found", _("No such chat line."))
    return found


def _body(request: HttpRequest) -> dict[str, Any]:
    """JSON (the table's script), or a form's fields."""
    if request.content_type != "application/json":
        return request.POST.dict()
    if not request.body:
        return {}
    try:
        body = json.loads(request.body)
    except ValueError:
        raise _Refused(400, "invalid_json", _("The body is not JSON.")) from None
    if not isinstance(body, dict):
        raise _Refused(400, "invalid", _("The body is a JSON object."))
    return body


def _report(body: dict[str, Any], line: ChatMessage) -> Report | None:
    """The report the moderator came from: one about this line's author in this game."""
    found = body.get("report")
    if found in (None, ""):
        return None
    # JSON's number or the text of one; never a bool (an int to Python).
    number = None if isinstance(found, bool) else whole_number(str(found))
    if number is None or not isinstance(found, (int, str)):
        raise _Refused(400, "invalid", _("report is a report's id."))
    report = Report.objects.filter(
        pk=number, game_id=line.game_id, reported_id=line.user_id
    ).first()
    if report is None:
        raise _Refused(404, "not_found", _("No such report about this line's author here."))
    return report


def _reason(body: dict[str, Any], default: str) -> str:
    reason = body.get("reason", "")
    if not isinstance(reason, str):
        raise _Refused(400, "invalid", _("reason is text."))
    return reason.strip() or default


def _method(request: HttpRequest, allowed: str) -> None:
    if request.method != allowed:
        raise _Refused(405, "method_not_allowed", _("Use %(method)s here.") % {"method": allowed})


def chat_lines(request: HttpRequest, game_id: str) -> JsonResponse:
    """The table's chat as a moderator reads it: every line, the hidden ones marked."""
    try:
        _method(request, "GET")
        _moderator(request, roles.HIDE_CHAT)
        game = _game(game_id)
    except _Refused as refused:
        return refused.response()
    lines = lines_for_moderator(game=game)
    return JsonResponse({"next": None, "previous": None, "results": lines})


def _change(request: HttpRequest, game_id: str, message_id: int, *, hide: bool) -> JsonResponse:
    try:
        _method(request, "POST")
        moderator = _moderator(request, roles.HIDE_CHAT)
        line = _line(_game(game_id), message_id)
        body = _body(request)
        report = _report(body, line)
        if hide:
            reason = _reason(body, _("Hidden at the table"))
            game_moderation.chat_hide(
                message=line, moderator=moderator, reason=reason, report=report
            )
        else:
            reason = _reason(body, _("Shown again at the table"))
            game_moderation.chat_show(
                message=line, moderator=moderator, reason=reason, report=report
            )
    except _Refused as refused:
        return refused.response()
    except (ModerationError, GameError) as error:
        status = getattr(error, "status", 400)
        return error_json_response(error.code, error.message, status=status)
    line.refresh_from_db(fields=["hidden_at"])
    return JsonResponse({**message_entry(line), "hidden": line.hidden_at is not None})


def chat_hide(request: HttpRequest, game_id: str, message_id: int) -> JsonResponse:
    return _change(request, game_id, message_id, hide=True)


def chat_show(request: HttpRequest, game_id: str, message_id: int) -> JsonResponse:
    return _change(request, game_id, message_id, hide=False)
