"""Messages about a game's news: the player's turn, a timeout strike, the game's end,
and a challenge. Called by the tasks that the publisher queues after a
commit; each reads the committed state again, follows ``recipients``' rules and the
player's choices, and claims its message so that a task run twice sends it once."""

from __future__ import annotations

import logging
from enum import Enum
from typing import Any

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.utils import timezone
from django.utils.translation import gettext

from accounts import display_names
from games import clock
from games.models import Game, Move, PlayerSettings, Seat
from games.notify import links, push, recipients, wording
from games.notify.messages import email_send, recipient_locale
from games.notify.preferences import is_muted, preferences_of
from games.notify.tokens import Kind

logger = logging.getLogger(__name__)

# How long a sent message is remembered (a task retried later than this is unlikely).
_CLAIM_S = 15 * 86400
# One challenge message per challenger and player in this time (``challenge_notice``).
CHALLENGE_NOTICE_GAP_S = 10 * 60


def _claim(key: str, timeout: int = _CLAIM_S) -> bool:
    """Whether this caller is the first to send the message ``key`` within ``timeout``
    seconds (a lost cache claims again: a message twice is better than none)."""
    try:
        return bool(cache.add(key, 1, timeout=timeout))
    except Exception:
        logger.warning("cache unavailable: sending %s without a claim", key)
        return True


def _seats(game: Game) -> list[Seat]:
    """The game's seats by position, with their players and their settings."""
    seats = Seat.objects.filter(game=game).select_related("user__profile", "user__play_settings")
    return list(seats.order_by("position"))


def _tell(
    user: Any,
    prefs: PlayerSettings,
    *,
    email: dict[str, Any] | None,
    payload: dict[str, Any] | None,
) -> bool:
    """Send the email (``email_build``'s arguments) and the push payload asked for;
    True when either reached the player."""
    sent = bool(email) and email_send(user=user, prefs=prefs, **(email or {}))
    if payload is not None:
        sent = push.push_send(user_id=user.pk, payload=payload) > 0 or sent
    return sent


# ------------------------------------------------------------------ your turn


class Turn(Enum):
    """What became of a "your turn" notice."""

    SENT = "sent"
    NOT_SENT = "not sent"
    # The table is seen now: ask again in ``TURN_NOTICE_UNSEEN_S``, and tell the player
    # then if the turn is still unseen.
    LATER = "later"


def turn_notice(*, game_pk: int, ply: int, user_id: int, again: bool = False) -> Turn:
    """Tell the player it is their turn at ``ply`` (an email if they want one each
    move, a push if they opted in), unless the game has moved on, they saw the turn
    at the table, the game is muted or they play bots only. While the table is seen
    the notice waits (``LATER``); asked ``again`` after that wait, it goes unless the
    turn was seen meanwhile."""
    game = Game.objects.filter(pk=game_pk, ply=ply, status=Game.Status.ACTIVE).first()
    if game is None:
        return Turn.NOT_SENT
    seats = _seats(game)
    seat = next((s for s in seats if s.user_id == user_id and s.position == game.to_move), None)
    if seat is None:
        return Turn.NOT_SENT
    user = seat.user
    if recipients.is_bot_account(user) or recipients.others_are_bots(seats, user_id):
        return Turn.NOT_SENT
    prefs = preferences_of(user)
    by_email = prefs.email_turns == PlayerSettings.EmailTurns.EACH_MOVE and bool(user.email)
    if not (by_email or prefs.push_turns) or is_muted(user_id=user_id, game=game):
        return Turn.NOT_SENT
    if recipients.turn_seen(user_id, game.public_id, game.turn_started_at):
        return Turn.NOT_SENT
    if not again and recipients.table_seen_now(user_id, game.public_id):
        return Turn.LATER
    if not _claim(_turn_key(game, user_id)):
        return Turn.NOT_SENT
    sent = _tell_turn(game, seats, user, prefs, by_email=by_email)
    return Turn.SENT if sent else Turn.NOT_SENT


def _tell_turn(
    game: Game, seats: list[Seat], user: Any, prefs: PlayerSettings, *, by_email: bool
) -> bool:
    with recipient_locale(user, prefs):
        context = {
            **wording.about(game, seats, user.pk),
            "deadline": game.deadline_at,
            "left": _left(game),
        }
        email = dict(template="turn", kind=Kind.TURN, context=context, game_id=game.public_id)
        payload = {
            "kind": "turn",
            "title": gettext("Your turn"),
            "body": gettext("Your turn against %(opponents)s (%(preset)s).") % context,
            "url": links.game_url(game.public_id),
            "tag": f"turn-{game.public_id}",
        }
        return _tell(
            user,
            prefs,
            email=email if by_email else None,
            payload=payload if prefs.push_turns else None,
        )


def _turn_key(game: Game, user_id: int) -> str:
    """One "your turn" per turn of a person: a turn is known by when it started, which
    the server's queued draw for the player (a move of its own, at a new ply) leaves
    as it was."""
    started = game.turn_started_at
    turn = f"{started.timestamp():.6f}" if started is not None else f"ply{game.ply}"
    return f"remi:notice:turn:{game.public_id}:{user_id}:{turn}"


def _left(game: Game) -> str:
    left = clock.time_left(game, timezone.now())
    return "" if left is None else wording.time_left(left)


# ------------------------------------------------------------------ timeouts


def strike_notice(*, game_id: str, ply: int, position: int, strikes: int, out: bool) -> bool:
    """Tell the player in ``position`` that their time ran out at ``ply`` and the
    server played their turn (``strikes`` in a row; ``out``: their seat is out)."""
    game = Game.objects.filter(public_id=game_id).first()
    if game is None:
        return False
    seats = _seats(game)
    seat = next((s for s in seats if s.position == position), None)
    if seat is None or recipients.is_bot_account(seat.user):
        return False
    user = seat.user
    prefs = preferences_of(user)
    if not (prefs.email_strikes and user.email):
        return False
    if is_muted(user_id=user.pk, game=game) or user.pk in recipients.watching(game_id):
        return False
    if not _claim(f"remi:notice:strike:{game_id}:{ply}:{position}"):
        return False
    with recipient_locale(user, prefs):
        still_to_move = game.status == Game.Status.ACTIVE and game.to_move == position
        context = {
            **wording.about(game, seats, user.pk),
            "strikes": strikes,
            "limit": clock.strike_limit(game),
            "out": out,
            "over": game.status != Game.Status.ACTIVE,
            "deadline": game.deadline_at if still_to_move else None,
            "left": _left(game) if still_to_move else "",
        }
        return email_send(
            user=user,
            prefs=prefs,
            template="strike",
            kind=Kind.STRIKE,
            context=context,
            game_id=game_id,
        )


# ------------------------------------------------------------------ the end


def game_over_notice(*, game_id: str) -> int:
    """Tell every player of the finished game its result (an email and, if they opted
    in, a push), but those at the table, who saw it; returns how many were told."""
    game = Game.objects.filter(public_id=game_id, status=Game.Status.FINISHED).first()
    if game is None:
        return 0
    seats = _seats(game)
    at_table = recipients.watching(game_id)
    loser = _last_out(game, seats)
    told = 0
    for seat in seats:
        user = seat.user
        if recipients.is_bot_account(user) or recipients.others_are_bots(seats, user.pk):
            continue
        prefs = preferences_of(user)
        by_email = prefs.email_game_over and bool(user.email)
        if not (by_email or prefs.push_game_over) or user.pk in at_table:
            continue
        if is_muted(user_id=user.pk, game=game):
            continue
        if not _claim(f"remi:notice:over:{game_id}:{user.pk}"):
            continue
        if _tell_result(game, seats, seat, prefs, by_email=by_email, loser=loser):
            told += 1
    return told


def _tell_result(
    game: Game,
    seats: list[Seat],
    seat: Seat,
    prefs: PlayerSettings,
    *,
    by_email: bool,
    loser: Seat | None,
) -> bool:
    user = seat.user
    with recipient_locale(user, prefs):
        context = {
            **wording.about(game, seats, user.pk),
            "result": wording.result(seats, game.winners, seat.position),
            "won": seat.position in game.winners,
            "reason": wording.end_reason(game.end_reason, loser, user.pk),
            "totals": [
                {"name": wording.display_name(s.user), "total": s.total, "you": s.pk == seat.pk}
                for s in seats
            ],
        }
        email = dict(
            template="game_over", kind=Kind.GAME_OVER, context=context, game_id=game.public_id
        )
        payload = {
            "kind": "game_over",
            "title": gettext("Game over against %(opponents)s") % context,
            "body": context["result"],
            "url": links.game_url(game.public_id),
            "tag": f"over-{game.public_id}",
        }
        return _tell(
            user,
            prefs,
            email=email if by_email else None,
            payload=payload if prefs.push_game_over else None,
        )


def _last_out(game: Game, seats: list[Seat]) -> Seat | None:
    """The seat whose going out ended the game (a ban, a moderator's decision: the last
    ``resign`` of the move log), if it ended so."""
    if game.end_reason not in wording.NAMED_END_REASONS:
        return None
    last = Move.objects.filter(game=game, kind="resign").order_by("-ply").values("seat_id").first()
    return next((seat for seat in seats if last and seat.pk == last["seat_id"]), None)


# ------------------------------------------------------------------ challenges


def challenge_notice(
    *,
    user_id: int,
    challenger: str,
    url: str,
    preset: str = "",
    challenge_id: str = "",
    from_username: str = "",
) -> int:
    """Tell a player that ``challenger`` challenges them: an email if their settings
    ask for one ("challenges by email", on by default) and a push if they opted in,
    both pointing to ``url`` (the page listing the challenge, absolute or a path on
    the site). Returns how many messages went; call it after the challenge commits.

    One message per challenger (``from_username``) and player in
    ``CHALLENGE_NOTICE_GAP_S``: a challenge cancelled and made again frees its place
    among the challenger's pending ones, and each would otherwise mail the player
    again (a flood anyone could aim at anyone). The challenges themselves still show
    on the player's list and event stream."""
    user = get_user_model().objects.select_related("profile").filter(pk=user_id).first()
    if user is None or recipients.is_bot_account(user):
        return 0
    prefs = preferences_of(user)
    by_email = bool(user.email) and bool(getattr(user.profile, "email_challenges", False))
    if not (by_email or prefs.push_challenges):
        return 0
    if challenge_id and not _claim(f"remi:notice:challenge:{challenge_id}:{user_id}"):
        return 0
    pair = f"remi:notice:challenge-from:{from_username}:{user_id}"
    if from_username and not _claim(pair, timeout=CHALLENGE_NOTICE_GAP_S):
        return 0
    target = url if url.startswith(("http://", "https://")) else links.absolute(url)
    sent = 0
    with recipient_locale(user, prefs):
        if from_username:
            challenger = display_names.named_alone(challenger, from_username)
        preset_label = wording.preset_label(preset) if preset else ""
        if by_email:
            context = {"challenger": challenger, "preset": preset_label, "challenges_url": target}
            sent += email_send(
                user=user, prefs=prefs, template="challenge", kind=Kind.CHALLENGE, context=context
            )
        if prefs.push_challenges:
            title = gettext("%(name)s challenges you") % {"name": challenger}
            sent += push.push_send(
                user_id=user_id,
                payload={
                    "kind": "challenge",
                    "title": title,
                    "body": preset_label,
                    "url": target,
                    "tag": "",
                },
            )
    return sent
