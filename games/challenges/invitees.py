"""The invited accounts of a challenge to several accounts (a rematch of a bigger
table): their rows written and read for ``games.challenges.services``, which holds the
challenge's lock whenever it calls these.

Each invitee (a person or a bot account; built-in bots are seated without asking)
answers for themselves. The challenge's game starts when every invitee has accepted;
one decline, the challenger's cancellation, the expiry or an invitee's account closing
ends it for all.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.utils import timezone

from games.models import Challenge, ChallengeInvitee

Answer = ChallengeInvitee.Answer


def invitees_create(challenge: Challenge, users: Sequence[User]) -> None:
    """One pending row per invited account, in the order they will be seated."""
    ChallengeInvitee.objects.bulk_create(
        ChallengeInvitee(challenge=challenge, user=user, position=position)
        for position, user in enumerate(users)
    )


def invitees_of(challenge: Challenge) -> list[ChallengeInvitee]:
    """The rows as committed so far, in seat order, with their accounts."""
    return list(
        ChallengeInvitee.objects.filter(challenge=challenge)
        .select_related("user__profile")
        .order_by("position")
    )


def has_invitees(challenge: Challenge) -> bool:
    return ChallengeInvitee.objects.filter(challenge=challenge).exists()


def invitee_of(rows: Sequence[ChallengeInvitee], user: User) -> ChallengeInvitee | None:
    return next((row for row in rows if row.user_id == user.pk), None)


def answer_record(row: ChallengeInvitee, answer: str) -> None:
    """``row``'s account answered (once: an acceptance is not taken back by answering
    again, the caller refuses that)."""
    row.answer = answer
    row.answered_at = timezone.now()
    row.save(update_fields=["answer", "answered_at"])


def all_accepted(rows: Sequence[ChallengeInvitee]) -> bool:
    return all(row.answer == Answer.ACCEPTED for row in rows)


def unavailable_mark(*, challenge_ids: Sequence[int], user: User) -> None:
    """``user``'s invitations among ``challenge_ids`` end because their account did
    (banned, deleted, closed, playbanned): the others read whose."""
    ChallengeInvitee.objects.filter(challenge_id__in=challenge_ids, user=user).update(
        answer=Answer.UNAVAILABLE, answered_at=timezone.now()
    )
