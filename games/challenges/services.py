"""Every write to challenges: make one, accept, decline, cancel, and the server's
cancellation of an account's pending challenges when the account is banned, deleted,
deactivated or playbanned (``challenges_cancel_for``, a handler of the account's
lifecycle). A closed or banned account is challenged by nobody and accepts nothing.

Each public function is one transaction that locks the challenge row (accepting an
open challenge twice at once is impossible: the second finds it accepted). Accepting
creates, fills and starts the game with the commands of ``games.play``
(``game_create``, ``game_join``, ``game_start``) in the same transaction, so a game
exists exactly when its challenge says accepted. The events go to the two accounts'
event streams through the outbox, after the commit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import is_builtin_bot
from games.challenges.pairing import rated_pairing_check
from games.errors import Conflict, GameNotFound, InvalidRequest, NotAllowed
from games.live import outbox
from games.models import Challenge, Game
from games.play import sanctions
from games.play.create import game_create
from games.play.lobby import game_join, game_start
from games.read.catalogue import bot_users
from games.read.challenges import challenge_entry
from games.stream_events import ChallengeEvent, challenge_event


class _DryRun(Exception):
    """Rolls back the trial game of ``_terms_check``."""


def challenge_create(
    *,
    challenger: User,
    destination: User | None,
    preset: str,
    overrides: Mapping[str, Any] | None = None,
    bots: Sequence[str] = (),
    visibility: str = Game.Visibility.PUBLIC,
    time_control: str = Game.TimeControl.CORRESPONDENCE,
    seconds_per_turn: int | None = None,
    days_per_move: int | None = None,
    time_bank_s: int | None = None,
    rated: bool = False,
    rematch_of: Game | None = None,
) -> Challenge:
    """Challenge ``destination`` (None: an open challenge, anyone may accept) to a game
    of ``2 + len(bots)`` seats: the challenger hosts it in seat 0, the ``bots`` (built-in
    bots, by username) take the next seats, the one who accepts the last.

    A built-in bot challenged accepts at once: the answer is the accepted challenge with
    its game started. ``InvalidRequest`` names terms no game could be created with
    (checked by ``game_create`` itself), ``NotAllowed`` a pairing the site refuses,
    ``Conflict`` a challenger with ``CHALLENGES_PER_USER`` challenges pending.
    ``rematch_of``: the finished game this offers again (``games.challenges.rematch``).
    """
    if destination is not None and destination.pk == challenger.pk:
        raise InvalidRequest(_("you cannot challenge yourself"), code="challenge_self")
    if len(set(bots)) != len(bots):
        raise InvalidRequest(_("each bot may sit once"), code="invalid_players")
    seated_bots = bot_users(usernames=bots)
    if destination is not None:
        if destination.username in bots:
            raise InvalidRequest(_("each bot may sit once"), code="invalid_players")
        rated_pairing_check(rated=rated, users=[challenger, destination])
    _players_check(challenger, destination, rated=rated, acting=challenger)
    terms: dict[str, Any] = {
        "preset": preset,
        "overrides": dict(overrides or {}),
        "players": 2 + len(bots),
        "visibility": visibility,
        "time_control": time_control,
        "seconds_per_turn": seconds_per_turn,
        "days_per_move": days_per_move,
        "time_bank_s": time_bank_s,
        "rated": rated,
    }
    with transaction.atomic():
        # The challenger's row is the lock: two challenges at once cannot both pass the cap.
        User.objects.select_for_update().filter(pk=challenger.pk).first()
        _limit_check(challenger)
        terms.update(_terms_check(challenger, destination, seated_bots, terms))
        challenge = Challenge.objects.create(
            challenger=challenger,
            destination=destination,
            bots=list(bots),
            rematch_of=rematch_of,
            **terms,
        )
        if destination is not None and is_builtin_bot(destination):
            # The server plays for a built-in bot, and it always says yes: the challenger's
            # stream shows the challenge made, then accepted.
            _tell(challenge, "challenge")
            _tell(challenge, "challenge_accepted", acceptor=destination)
            _accept(challenge, destination)
        else:
            _tell(challenge, "challenge")
    return challenge


def _players_check(challenger: User, other: User | None, *, rated: bool, acting: User) -> None:
    """Both accounts open and not banned, and for a rated game neither playbanned:
    ``NotAllowed`` ``account_unavailable`` or ``playban``, before anything is written."""
    for user in (challenger, other):
        if user is None:
            continue
        sanctions.account_check(user=user)
        if rated:
            sanctions.playban_check(user=user, acting=acting)


def _limit_check(challenger: User) -> None:
    limit = settings.CHALLENGES_PER_USER
    pending = Challenge.objects.filter(challenger=challenger, status=Challenge.Status.PENDING)
    if pending.count() >= limit:
        raise Conflict(
            ngettext(
                "you have %(limit)s challenge waiting for an answer, the most allowed:"
                " cancel it first",
                "you have %(limit)s challenges waiting for an answer, the most allowed:"
                " cancel one first",
                limit,
            )
            % {"limit": limit},
            code="too_many_challenges",
            details={"limit": limit},
        )


def _terms_check(
    challenger: User, destination: User | None, seated_bots: list[User], terms: dict[str, Any]
) -> dict[str, Any]:
    """The terms checked by the command that will run on acceptance, on a trial game
    rolled back at once: no rule of a game's creation is written twice. Returns the
    time control as that game settled it (defaults filled in, the other kind's field
    dropped), which is what the challenge stores."""
    bots = seated_bots
    if destination is not None and is_builtin_bot(destination):
        bots = [destination, *seated_bots]
    try:
        with transaction.atomic():
            trial = game_create(owner=challenger, bots=bots, **terms)
            raise _DryRun
    except _DryRun:
        pass
    return {
        "seconds_per_turn": trial.seconds_per_turn,
        "days_per_move": trial.days_per_move,
        "time_bank_s": trial.time_bank_s if trial.time_control == Game.TimeControl.LIVE else None,
    }


def _lock(public_id: str) -> Challenge:
    challenge = (
        Challenge.objects.select_for_update(of=("self",))
        .select_related("challenger__profile", "destination__profile")
        .filter(public_id=public_id)
        .first()
    )
    if challenge is None:
        raise GameNotFound(_("no such challenge"), code="not_found")
    return challenge


def _pending_check(challenge: Challenge) -> None:
    if challenge.status != Challenge.Status.PENDING:
        raise Conflict(
            _("the challenge is %(status)s, no longer waiting for an answer")
            % {"status": challenge.status},
            code="challenge_not_pending",
            details={"status": challenge.status},
        )


def challenge_accept(*, public_id: str, user: User) -> Challenge:
    """Accept a challenge made to ``user`` (or an open one): the game is created with the
    challenger as host, ``user`` takes the last seat, and it starts at once."""
    with transaction.atomic():
        challenge = _lock(public_id)
        if challenge.challenger_id == user.pk:
            raise NotAllowed(_("you cannot accept your own challenge"), code="own_challenge")
        if not challenge.is_open and challenge.destination_id != user.pk:
            raise GameNotFound(_("no such challenge"), code="not_found")
        _pending_check(challenge)
        rated_pairing_check(rated=challenge.rated, users=[challenge.challenger, user])
        _players_check(challenge.challenger, user, rated=challenge.rated, acting=user)
        _tell(challenge, "challenge_accepted", acceptor=user)
        _accept(challenge, user)
    return challenge


def _accept(challenge: Challenge, acceptor: User) -> None:
    """Create, fill and start the game of ``challenge`` (locked, or just made)."""
    host = challenge.challenger
    bots = bot_users(usernames=challenge.bots)
    if is_builtin_bot(acceptor):
        bots = [acceptor, *bots]
    game = game_create(
        owner=host,
        preset=challenge.preset,
        overrides=challenge.overrides,
        players=challenge.players,
        visibility=challenge.visibility,
        time_control=challenge.time_control,
        seconds_per_turn=challenge.seconds_per_turn,
        days_per_move=challenge.days_per_move,
        time_bank_s=challenge.time_bank_s,
        rated=challenge.rated,
        bots=bots,
    )
    if not is_builtin_bot(acceptor):
        game_join(game=game, user=acceptor, invite_code=game.invite_code)
    challenge.game = game_start(game=game, user=host)
    challenge.status = Challenge.Status.ACCEPTED
    challenge.accepted_by = acceptor
    challenge.save(update_fields=["game", "status", "accepted_by", "updated_at"])


def challenge_decline(
    *, public_id: str, user: User, reason: str = Challenge.DeclineReason.GENERIC
) -> Challenge:
    """The account challenged says no, with one of ``Challenge.DeclineReason``."""
    if reason not in Challenge.DeclineReason.values:
        raise InvalidRequest(
            _("unknown reason %(reason)s") % {"reason": repr(reason)}, code="invalid_reason"
        )
    with transaction.atomic():
        challenge = _lock(public_id)
        if challenge.destination_id != user.pk:
            if challenge.is_open or challenge.challenger_id == user.pk:
                raise NotAllowed(
                    _("only the account challenged may decline: cancel your own challenges"),
                    code="not_challenged",
                )
            raise GameNotFound(_("no such challenge"), code="not_found")
        _pending_check(challenge)
        challenge.status = Challenge.Status.DECLINED
        challenge.decline_reason = reason
        challenge.save(update_fields=["status", "decline_reason", "updated_at"])
        _tell(challenge, "challenge_declined")
    return challenge


def challenge_cancel(*, public_id: str, user: User) -> Challenge:
    """The challenger takes a pending challenge back."""
    with transaction.atomic():
        challenge = _lock(public_id)
        if challenge.challenger_id != user.pk:
            if challenge.is_open or challenge.destination_id == user.pk:
                raise NotAllowed(
                    _("only the challenger may cancel: decline a challenge made to you"),
                    code="not_challenger",
                )
            raise GameNotFound(_("no such challenge"), code="not_found")
        _pending_check(challenge)
        challenge.status = Challenge.Status.CANCELLED
        challenge.save(update_fields=["status", "updated_at"])
        _tell(challenge, "challenge_cancelled")
    return challenge


def challenges_cancel_for(*, user: User, reason: str, rated_only: bool = False) -> list[str]:
    """Cancel every pending challenge from or to ``user`` (only the rated ones with
    ``rated_only``: a playban) with ``reason`` (``Challenge.CancelReason``), which the
    other account reads in the answer and on its event stream. Returns their public
    ids. Idempotent: a second call finds none pending."""
    with transaction.atomic():
        pending = Challenge.objects.select_for_update(of=("self",)).filter(
            Q(challenger=user) | Q(destination=user), status=Challenge.Status.PENDING
        )
        if rated_only:
            pending = pending.filter(rated=True)
        cancelled = list(
            pending.select_related("challenger__profile", "destination__profile").order_by("pk")
        )
        now = timezone.now()  # ``bulk_update`` leaves ``auto_now`` fields alone
        for challenge in cancelled:
            challenge.status = Challenge.Status.CANCELLED
            challenge.cancel_reason = reason
            challenge.updated_at = now
        Challenge.objects.bulk_update(cancelled, ["status", "cancel_reason", "updated_at"])
        for challenge in cancelled:
            _tell(challenge, "challenge_cancelled")
    return [challenge.public_id for challenge in cancelled]


def _tell(challenge: Challenge, kind: ChallengeEvent, *, acceptor: User | None = None) -> None:
    """``kind`` to the event streams of the challenger (``out``) and of the account
    challenged or the one who accepted (``in``), after the commit, with the challenge
    as committed. Built-in bots have no stream."""
    other = acceptor if acceptor is not None else challenge.destination

    def frames() -> list[tuple[int, dict[str, Any]]]:
        entry = challenge_entry(challenge)
        out = [(challenge.challenger_id, challenge_event(kind, entry, direction="out"))]
        if other is not None and not is_builtin_bot(other):
            out.append((other.pk, challenge_event(kind, entry, direction="in")))
        return out

    outbox.stream_events_on_commit(frames)
