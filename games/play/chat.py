"""Table chat: the only writer of ``ChatMessage`` rows (reads: ``games.read.chat``).

Seated players (people and bot accounts alike) write, unless muted
(``games.play.sanctions``); anyone who may see the game reads, spectators of a
public game included. A line is published to the game's websocket group as a
public ``chat`` event after it commits. Chat never changes the game: its events
carry the game's current ply but do not advance it, so a client must not take a
chat event for a gap in the move log.

Moderators hide lines at the table or from the admin (``hide_message``, through
``games.play.moderation.chat_hide`` for the modlog); a hidden line is left
in the table for the record and disappears for everyone, live too
(``chat_hidden`` event). Shown again (``show_message``), it comes back as a
``chat`` event, in its place by its id.
"""

from __future__ import annotations

import unicodedata

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.errors import Conflict, InvalidRequest, NotAllowed
from games.live.publisher import publish_game_event
from games.models import CHAT_MAX_LENGTH, ChatMessage, Game
from games.play import sanctions
from games.read.chat import message_entry
from games.read.selectors import seat_of


def clean_text(text: str) -> str:
    """The line as it will be stored: trimmed, control characters refused, not empty."""
    text = unicodedata.normalize("NFC", text).strip()
    if not text:
        raise InvalidRequest(_("a chat message cannot be empty"), code="chat_empty")
    if len(text) > CHAT_MAX_LENGTH:
        raise InvalidRequest(
            ngettext(
                "a chat message is at most %(chat_max_length)s character (this one has %(count)s)",
                "a chat message is at most %(chat_max_length)s characters (this one has %(count)s)",
                CHAT_MAX_LENGTH,
            )
            % {"chat_max_length": CHAT_MAX_LENGTH, "count": len(text)},
            code="chat_too_long",
            details={"max_length": CHAT_MAX_LENGTH},
        )
    if any(unicodedata.category(char) == "Cc" for char in text):
        raise InvalidRequest(
            _("a chat message cannot hold control characters (line breaks included)"),
            code="chat_control_characters",
        )
    return text


@transaction.atomic
def post_message(*, game: Game, user: User, text: str) -> ChatMessage:
    """Write one line in ``game``'s chat as ``user`` (who must sit at the table)."""
    if seat_of(game, user) is None:
        raise NotAllowed(_("only the players at the table can chat; spectators read"))
    if game.status == Game.Status.ABORTED:
        raise Conflict(_("the game was aborted: its chat is closed"), code="chat_closed")
    sanctions.chat_check(user=user)  # a muted player's line is refused, whatever the interface
    message = ChatMessage.objects.create(game=game, user=user, ply=game.ply, text=clean_text(text))
    event = {"type": "chat", "message": message_entry(message)}
    public_id, ply = game.public_id, game.ply
    transaction.on_commit(lambda: publish_game_event(public_id, ply, event))
    return message


@transaction.atomic
def hide_message(*, message: ChatMessage, moderator: User) -> bool:
    """Hide a line for everyone; ``False`` when it was hidden already."""
    locked = ChatMessage.objects.select_for_update().select_related("game").get(pk=message.pk)
    if locked.hidden_at is not None:
        return False
    locked.hidden_at = timezone.now()
    locked.hidden_by = moderator
    locked.save(update_fields=["hidden_at", "hidden_by"])
    game = locked.game
    event = {"type": "chat_hidden", "id": locked.pk}
    transaction.on_commit(lambda: publish_game_event(game.public_id, game.ply, event))
    return True


@transaction.atomic
def show_message(*, message: ChatMessage) -> bool:
    """Show a hidden line again, for everyone; ``False`` when it was not hidden."""
    locked = ChatMessage.objects.select_for_update().select_related("game").get(pk=message.pk)
    if locked.hidden_at is None:
        return False
    locked.hidden_at = None
    locked.hidden_by = None
    locked.save(update_fields=["hidden_at", "hidden_by"])
    game = locked.game
    shown = ChatMessage.objects.select_related("user__profile").get(pk=locked.pk)
    event = {"type": "chat", "message": message_entry(shown)}
    transaction.on_commit(lambda: publish_game_event(game.public_id, game.ply, event))
    return True
