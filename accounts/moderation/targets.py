"""What a player's report names (an account, a game, a line of chat), found from what
they sent and checked against what they may see: a game they may see
(``games.read.selectors.game_get``: public, or one they sit in), a line of it that is
not hidden. Shared by the report page and the API."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from accounts.moderation.errors import InvalidRequest, NotFound
from accounts.selectors import public_user
from games.errors import GameNotFound
from games.models import ChatMessage, Game
from games.read.selectors import game_get


@dataclass(frozen=True)
class ReportTarget:
    reported: User
    game: Game | None = None
    chat_message: ChatMessage | None = None


def report_target(
    *,
    reporter: User,
    username: str | None = None,
    game_id: str | None = None,
    message_id: int | None = None,
) -> ReportTarget:
    """The account (``username``, or the author of chat line ``message_id``), and the
    game and line the report is about. ``NotFound`` for anything the reporter may not
    see; ``InvalidRequest`` when the parts do not fit together."""
    if message_id is not None:
        line = (
            ChatMessage.objects.select_related("game", "user")
            .filter(pk=message_id, hidden_at__isnull=True)
            .first()
        )
        if line is None or not _may_see(reporter, line.game.public_id):
            raise NotFound(_("no such chat line"), code="not_found")
        if game_id is not None and game_id != line.game.public_id:
            raise InvalidRequest(_("that line is from another game"), code="report_game")
        if username is not None and username.lower() != line.user.get_username().lower():
            raise InvalidRequest(_("that line was written by someone else"), code="report_author")
        return ReportTarget(reported=line.user, game=line.game, chat_message=line)
    if not username:
        raise InvalidRequest(
            _("name the account reported (username), or the chat line (message)"),
            code="report_target",
        )
    reported = public_user(username=username)
    if reported is None:
        raise NotFound(_("no such player"), code="not_found")
    if game_id is None:
        return ReportTarget(reported=reported)
    try:
        game = game_get(public_id=game_id, user=reporter)
    except GameNotFound:
        raise NotFound(_("no such game"), code="not_found") from None
    return ReportTarget(reported=reported, game=game)


def _may_see(reporter: User, public_id: str) -> bool:
    try:
        game_get(public_id=public_id, user=reporter)
    except GameNotFound:
        return False
    return True
