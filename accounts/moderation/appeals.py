"""Appeals: a sanctioned player sends one appeal per sanction (from the page that
tells them of it); a moderator grants it (the sanction is lifted) or denies it, with
their words, which reach the player on their sanctions page and by email.

A banned player is signed out: the banned page gives them a signed link
(``appeal_token``) to the appeal page of that ban, which needs no session."""

from __future__ import annotations

from functools import partial

from django.contrib.auth.models import User
from django.core import signing
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import APPEAL_TEXT_MAX_LENGTH, Appeal, ModAction, Sanction
from accounts.moderation.errors import Conflict, InvalidRequest, NotFound
from accounts.moderation.modlog import modlog_record, reason_clean
from accounts.moderation.outcome_mail import appeal_outcome_mail
from accounts.moderation.services import target_check

_SALT = "accounts.moderation.appeal"
# A banned player's link to appeal stays good this long.
APPEAL_LINK_MAX_AGE = 60 * 60 * 24 * 30


def appeal_token(sanction: Sanction) -> str:
    """A signed token naming ``sanction``, for its player's appeal without a session."""
    return signing.dumps({"sanction": sanction.pk}, salt=_SALT)


def sanction_of_token(token: str) -> Sanction:
    """The sanction a token names (``NotFound`` for a bad or old token)."""
    try:
        found = signing.loads(token, salt=_SALT, max_age=APPEAL_LINK_MAX_AGE)
    except signing.BadSignature:
        raise NotFound(_("this link is not valid any more"), code="not_found") from None
    sanction = Sanction.objects.filter(pk=found.get("sanction")).first()
    if sanction is None:
        raise NotFound(_("this link is not valid any more"), code="not_found")
    return sanction


def sanction_of_player(*, user: User, pk: int) -> Sanction:
    """The player's own sanction ``pk`` (``NotFound`` for anyone else's)."""
    sanction = Sanction.objects.filter(pk=pk, user=user).first()
    if sanction is None:
        raise NotFound(_("no such sanction"), code="not_found")
    return sanction


def appeal_create(*, sanction: Sanction, text: str) -> Appeal:
    """The player's one appeal against ``sanction``; a second is a ``Conflict``."""
    text = (text or "").strip()
    if not text:
        raise InvalidRequest(_("say why the sanction should be lifted"), code="appeal_text")
    if len(text) > APPEAL_TEXT_MAX_LENGTH:
        raise InvalidRequest(
            _("an appeal is at most %(most)s characters") % {"most": APPEAL_TEXT_MAX_LENGTH},
            code="appeal_too_long",
        )
    if sanction.created_by_id is None and sanction.kind == Sanction.Kind.PLAYBAN:
        raise InvalidRequest(
            _("a playban for abandoned games ends by itself and is not appealed"),
            code="appeal_automatic",
        )
    try:
        with transaction.atomic():
            return Appeal.objects.create(sanction=sanction, text=text)
    except IntegrityError:
        raise Conflict(
            _("you have appealed this sanction already"), code="already_appealed"
        ) from None


@transaction.atomic
def appeal_decide(*, appeal: Appeal, moderator: User, grant: bool, answer: str) -> Appeal:
    """Answer an open appeal: granted lifts the sanction (if still in force), denied
    leaves it. The player is emailed the answer once it commits."""
    answer = reason_clean(answer)
    sanction = Sanction.objects.select_related("user").get(pk=appeal.sanction_id)
    target_check(moderator=moderator, user=sanction.user)
    now = timezone.now()
    decided = Appeal.objects.filter(pk=appeal.pk, status=Appeal.Status.OPEN).update(
        status=Appeal.Status.GRANTED if grant else Appeal.Status.DENIED,
        decided_at=now,
        decided_by=moderator,
        answer=answer,
    )
    if not decided:
        raise Conflict(_("this appeal has been answered already"), code="appeal_decided")
    if grant and sanction.lifted_at is None:
        sanction.lifted_at, sanction.lifted_by, sanction.lift_reason = now, moderator, answer
        sanction.save(update_fields=["lifted_at", "lifted_by", "lift_reason"])
    modlog_record(
        moderator=moderator,
        action=ModAction.Action.GRANT_APPEAL if grant else ModAction.Action.DENY_APPEAL,
        reason=answer,
        target=sanction.user,
        details={"sanction": sanction.pk, "appeal": appeal.pk},
    )
    transaction.on_commit(partial(appeal_outcome_mail, appeal_id=appeal.pk))
    return Appeal.objects.get(pk=appeal.pk)
