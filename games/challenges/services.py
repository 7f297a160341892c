"""Every write to challenges: make one, accept, decline, cancel, the server's
cancellation of an account's pending challenges when the account is banned, deleted,
deactivated or playbanned (``challenges_cancel_for``, a handler of the account's
lifecycle), and the end of those whose ``expires_at`` passed (``challenges_expire``, a
beat sweep). A closed or banned account is challenged by nobody and accepts nothing.

A challenge names one account (``destination``), or several (``invitees``: a rematch
of a bigger table, ``games.challenges.invitees``), each of whom answers; its game
starts when the last of them accepts, and one decline ends it for all.

Each public function is one transaction that locks the challenge row (accepting an
open challenge twice at once is impossible: the second finds it accepted). Accepting
creates, fills and starts the game with the commands of ``games.play``
(``game_create``, ``game_join``, ``game_start``) in the same transaction, so a game
exists exactly when its challenge says accepted. The events go to the two accounts'
event streams through the outbox, after the commit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import is_builtin_bot
from games.challenges.invitees import (
    Answer,
    all_accepted,
    answer_record,
    invitee_of,
    invitees_create,
    invitees_of,
    unavailable_mark,
)
from games.challenges.pairing import rated_pairing_check
from games.errors import Conflict, GameNotFound, InvalidRequest, NotAllowed
from games.live import outbox
from games.models import Challenge, ChallengeInvitee, Game
from games.play import sanctions
from games.play.create import game_create
from games.play.lobby import game_join, game_start
from games.read.catalogue import bot_users
from games.read.challenges import challenge_entry, invited_to
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
    invitees: Sequence[User] = (),
    expires_at: datetime | None = None,
) -> Challenge:
    """Challenge ``destination`` (None: an open challenge, anyone may accept) to a game
    of ``2 + len(bots)`` seats: the challenger hosts it in seat 0, the ``bots`` (built-in
    bots, by username) take the next seats, the one who accepts the last.

    ``invitees`` (people or bot accounts, ``destination`` the first of them): a game of
    ``1 + len(bots) + len(invitees)`` seats that starts once each has accepted, the
    invitees seated in this order after the bots. ``expires_at``: when it ends unanswered.

    A built-in bot challenged accepts at once: the answer is the accepted challenge with
    its game started. ``InvalidRequest`` names terms no game could be created with
    (checked by ``game_create`` itself), ``NotAllowed`` a pairing the site refuses,
    ``Conflict`` a challenger with ``CHALLENGES_PER_USER`` challenges pending.
    ``rematch_of``: the finished game this offers again (``games.challenges.rematch``).
    """
    invited = list(invitees) or ([destination] if destination is not None else [])
    if invitees and destination is not invitees[0]:
        raise ValueError("the destination of a challenge to several accounts is its first")
    if challenger.pk in {user.pk for user in invited}:
        raise InvalidRequest(_("you cannot challenge yourself"), code="challenge_self")
    seated_bots = bot_users(usernames=bots)
    if invited:
        if {user.username for user in invited} & set(bots):
            raise InvalidRequest(_("each bot may sit once"), code="invalid_players")
        rated_pairing_check(rated=rated, users=[challenger, *invited])
    _players_check([challenger, *invited], rated=rated, acting=challenger)
    terms: dict[str, Any] = {
        "preset": preset,
        "overrides": dict(overrides or {}),
        "players": 1 + len(bots) + max(len(invitees), 1),
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
            expires_at=expires_at,
            **terms,
        )
        invitees_create(challenge, invitees)
        if destination is not None and is_builtin_bot(destination):
            # The server plays for a built-in bot, and it always says yes: the challenger's
            # stream shows the challenge made, then accepted.
            _tell(challenge, "challenge")
            _tell(challenge, "challenge_accepted", acceptor=destination)
            _accept(challenge, destination)
        else:
            _tell(challenge, "challenge")
    return challenge


def _players_check(users: Sequence[User], *, rated: bool, acting: User) -> None:
    """Every account open and not banned, and for a rated game none playbanned:
    ``NotAllowed`` ``account_unavailable`` or ``playban``, before anything is written."""
    for user in users:
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
    # Past its expiry but not swept yet: it is over all the same.
    if challenge.expires_at is not None and challenge.expires_at <= timezone.now():
        raise Conflict(
            _("the challenge expired before everyone answered"),
            code="challenge_expired",
            details={"expires_at": challenge.expires_at.isoformat().replace("+00:00", "Z")},
        )


def challenge_accept(*, public_id: str, user: User) -> Challenge:
    """Accept a challenge made to ``user`` (or an open one): the game is created with the
    challenger as host, ``user`` takes the last seat, and it starts at once."""
    with transaction.atomic():
        challenge = _lock(public_id)
        if challenge.challenger_id == user.pk:
            raise NotAllowed(_("you cannot accept your own challenge"), code="own_challenge")
        rows = invitees_of(challenge)
        if rows:
            _invitation_accept(challenge, rows, user)
            return challenge
        if not challenge.is_open and challenge.destination_id != user.pk:
            raise GameNotFound(_("no such challenge"), code="not_found")
        _pending_check(challenge)
        rated_pairing_check(rated=challenge.rated, users=[challenge.challenger, user])
        _players_check([challenge.challenger, user], rated=challenge.rated, acting=user)
        _tell(challenge, "challenge_accepted", acceptor=user)
        _accept(challenge, user)
    return challenge


def _invitation_accept(challenge: Challenge, rows: list[ChallengeInvitee], user: User) -> None:
    """``user``'s yes to a challenge to several accounts (locked): the game starts with
    the last yes; until then everyone hears who answered (``challenge_answered``).
    Accepting twice changes nothing."""
    row = invitee_of(rows, user)
    if row is None:
        raise GameNotFound(_("no such challenge"), code="not_found")
    _pending_check(challenge)
    if row.answer == Answer.ACCEPTED:
        return
    seated = [challenge.challenger, *(invitee.user for invitee in rows)]
    rated_pairing_check(rated=challenge.rated, users=seated)
    _players_check(seated, rated=challenge.rated, acting=user)
    answer_record(row, Answer.ACCEPTED)
    if not all_accepted(rows):
        _tell(challenge, "challenge_answered")
        return
    _tell(challenge, "challenge_accepted", acceptor=user)
    _accept(challenge, user, joiners=[invitee.user for invitee in rows])


def _accept(challenge: Challenge, acceptor: User, *, joiners: Sequence[User] = ()) -> None:
    """Create, fill and start the game of ``challenge`` (locked, or just made): the
    challenger in seat 0, the built-in bots next, then the one who accepted (or the
    ``joiners``, every invitee in their order)."""
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
    people = list(joiners) or ([] if is_builtin_bot(acceptor) else [acceptor])
    for person in people:
        game_join(game=game, user=person, invite_code=game.invite_code)
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
        rows = invitees_of(challenge)
        row = invitee_of(rows, user)
        if challenge.destination_id != user.pk and row is None:
            if challenge.is_open or challenge.challenger_id == user.pk:
                raise NotAllowed(
                    _("only the account challenged may decline: cancel your own challenges"),
                    code="not_challenged",
                )
            raise GameNotFound(_("no such challenge"), code="not_found")
        _pending_check(challenge)
        if row is not None:
            # One no ends it for everyone; the others read whose it was.
            answer_record(row, Answer.DECLINED)
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
            invited = invitee_of(invitees_of(challenge), user) is not None
            if challenge.is_open or challenge.destination_id == user.pk or invited:
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
            Q(challenger=user) | Q(destination=user) | Q(pk__in=invited_to(user)),
            status=Challenge.Status.PENDING,
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
        unavailable_mark(challenge_ids=[challenge.pk for challenge in cancelled], user=user)
        for challenge in cancelled:
            _tell(challenge, "challenge_cancelled")
    return [challenge.public_id for challenge in cancelled]


def challenges_expire(*, now: datetime | None = None, limit: int = 500) -> list[str]:
    """End the pending challenges whose ``expires_at`` has passed (cancelled, reason
    ``expired``), telling everyone they named; their public ids. Rows another worker
    holds are left to the next sweep."""
    now = now or timezone.now()
    with transaction.atomic():
        due = list(
            Challenge.objects.select_for_update(of=("self",), skip_locked=True)
            .filter(status=Challenge.Status.PENDING, expires_at__lte=now)
            .select_related("challenger__profile", "destination__profile")
            .order_by("expires_at", "pk")[:limit]
        )
        for challenge in due:
            challenge.status = Challenge.Status.CANCELLED
            challenge.cancel_reason = Challenge.CancelReason.EXPIRED
            challenge.updated_at = now
        Challenge.objects.bulk_update(due, ["status", "cancel_reason", "updated_at"])
        for challenge in due:
            _tell(challenge, "challenge_cancelled")
    return [challenge.public_id for challenge in due]


def _tell(challenge: Challenge, kind: ChallengeEvent, *, acceptor: User | None = None) -> None:
    """``kind`` to the event streams of the challenger (``out``) and of the account
    challenged or the one who accepted, or of every invitee (``in``), after the commit,
    with the challenge as committed. Built-in bots have no stream."""
    other = acceptor if acceptor is not None else challenge.destination

    def frames() -> list[tuple[int, dict[str, Any]]]:
        entry = challenge_entry(challenge)
        out = [(challenge.challenger_id, challenge_event(kind, entry, direction="out"))]
        rows = invitees_of(challenge)
        if rows:
            out += [(row.user_id, challenge_event(kind, entry, direction="in")) for row in rows]
        elif other is not None and not is_builtin_bot(other):
            out.append((other.pk, challenge_event(kind, entry, direction="in")))
        return out

    outbox.stream_events_on_commit(frames)
