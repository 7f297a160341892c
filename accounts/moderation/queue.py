"""The report queue's writes: a moderator claims an account's open reports (one at a
time: a conditional update), then closes them all in one step with one outcome."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Report
from accounts.moderation.errors import Conflict
from accounts.moderation.record import claim_fresh
from accounts.moderation.services import report_close


@transaction.atomic
def reports_claim(*, reported: User, moderator: User) -> int:
    """Claim the open reports about ``reported`` for ``moderator``; ``Conflict`` while
    another moderator's claim holds. Returns how many reports are claimed."""
    now = timezone.now()
    open_reports = Report.objects.filter(reported=reported, status=Report.Status.OPEN)
    # The update is conditional on each row's claim: of two moderators claiming at
    # once, the second waits for the first's rows, finds them freshly claimed and
    # updates none of them.
    claimed = open_reports.filter(Q(claimed_by=moderator) | ~claim_fresh(now)).update(
        claimed_by=moderator, claimed_at=now
    )
    holder = (
        open_reports.filter(claim_fresh(now))
        .exclude(claimed_by=moderator)
        .select_related("claimed_by")
        .first()
    )
    if holder is not None:
        raise Conflict(
            _("%(moderator)s is working on these reports") % {"moderator": holder.claimed_by},
            code="claimed",
        )
    return claimed


def claim_check(*, reported: User, moderator: User) -> None:
    """Refuse to act on reports that another moderator holds."""
    held = (
        Report.objects.filter(reported=reported, status=Report.Status.OPEN)
        .filter(claim_fresh(timezone.now()))
        .exclude(claimed_by=moderator)
        .select_related("claimed_by")
        .first()
    )
    if held is not None:
        raise Conflict(
            _("%(moderator)s is working on these reports") % {"moderator": held.claimed_by},
            code="claimed",
        )


@transaction.atomic
def reports_close_all(*, reported: User, moderator: User, outcome: str, reason: str) -> int:
    """Close every open report about ``reported`` with ``outcome`` (as action taken
    when the account was sanctioned since: ``report_close``). Returns how many."""
    claim_check(reported=reported, moderator=moderator)
    closed = 0
    for report in Report.objects.filter(reported=reported, status=Report.Status.OPEN).order_by(
        "created_at", "id"
    ):
        report_close(report=report, moderator=moderator, outcome=outcome, reason=reason)
        closed += 1
    return closed
