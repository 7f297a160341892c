"""A player's private note on a game: the write. Only the note's author ever reads it
(``games.read.queue.note_for``); it is in no game answer and no event."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.utils.translation import gettext, ngettext

from games.errors import InvalidRequest, NotAllowed
from games.models import NOTE_MAX_LENGTH, Game, Note, Seat


def note_check(text: str) -> None:
    """Refuse what no note may hold: NUL characters (PostgreSQL's text cannot store
    them) and more than ``NOTE_MAX_LENGTH`` characters."""
    if "\x00" in text:
        raise InvalidRequest(gettext("a note cannot contain NUL characters"), code="invalid_text")
    if len(text) > NOTE_MAX_LENGTH:
        raise InvalidRequest(
            ngettext(
                "a note has at most %(note_max_length)s character",
                "a note has at most %(note_max_length)s characters",
                NOTE_MAX_LENGTH,
            )
            % {"note_max_length": NOTE_MAX_LENGTH},
            code="note_too_long",
            details={"max_length": NOTE_MAX_LENGTH},
        )


def note_save(*, game: Game, user: User, text: str) -> Note | None:
    """Keep ``text`` as ``user``'s note on ``game`` (a player of it, in any state of the
    game: a finished game's note stays with it). Blank text deletes the note."""
    note_check(text)
    if not Seat.objects.filter(game=game, user_id=user.pk).exists():
        raise NotAllowed(
            gettext("only the players of this game keep notes on it"), code="not_a_player"
        )
    if not text.strip():
        Note.objects.filter(game=game, user_id=user.pk).delete()
        return None
    note, _ = Note.objects.update_or_create(game=game, user=user, defaults={"text": text})
    return note
