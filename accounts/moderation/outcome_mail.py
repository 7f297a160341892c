"""Emails of moderation's outcomes, in the recipient's language, sent once the
decision commits: to a reporter who chose them (``email_report_outcomes``, off unless
chosen), the outcome of their report ("action taken" or "no action"), never what the
sanction was; to a player who appealed, the answer to their appeal."""

from __future__ import annotations

import logging
from datetime import UTC, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from accounts.models import Appeal, Report
from accounts.moderation.record import report_outcome
from games.models import PlayerSettings

log = logging.getLogger(__name__)


def report_outcome_mail(*, report_id: int) -> bool:
    """Email the reporter of ``report_id`` its outcome if they asked for it; whether
    a mail went. A failing mail server is logged: the report stays closed."""
    report = (
        Report.objects.select_related("reporter__profile", "reported").filter(pk=report_id).first()
    )
    if report is None or report_outcome(report) is None:
        return False
    reporter = report.reporter
    profile = getattr(reporter, "profile", None)
    if not reporter.email or profile is None or not profile.email_report_outcomes:
        return False
    context = {
        "name": profile.display_name or reporter.username,
        "reported": report.reported.username,
        "created_at": report.created_at,
        "action_taken": report_outcome(report) == "action_taken",
        "reports_url": str(settings.SITE_URL).rstrip("/") + reverse("moderation:my-reports"),
        "settings_url": str(settings.SITE_URL).rstrip("/") + reverse("me:settings"),
    }
    return _send(reporter, "report_outcome", context)


def appeal_outcome_mail(*, appeal_id: int) -> bool:
    """Email the player their appeal's answer (they asked for it by appealing)."""
    appeal = Appeal.objects.select_related("sanction__user__profile").filter(pk=appeal_id).first()
    if appeal is None or appeal.status == Appeal.Status.OPEN:
        return False
    player = appeal.sanction.user
    if not player.email:
        return False
    profile = getattr(player, "profile", None)
    context = {
        "name": getattr(profile, "display_name", "") or player.username,
        "granted": appeal.status == Appeal.Status.GRANTED,
        "answer": appeal.answer,
        "kind": appeal.sanction.kind,
    }
    return _send(player, "appeal_outcome", context)


def _send(user: Any, template: str, context: dict[str, Any]) -> bool:
    profile = getattr(user, "profile", None)
    language = getattr(profile, "language", "") or "en"
    if language not in dict(settings.LANGUAGES):
        language = settings.LANGUAGE_CODE
    with translation.override(language), timezone.override(_zone_of(user)):
        subject = render_to_string(f"emails/{template}_subject.txt", context).strip()
        body = render_to_string(f"emails/{template}.txt", context)
    try:
        send_mail(subject, body, None, [user.email])
    except Exception:
        log.exception("could not send the %s email to user %s", template, user.pk)
        return False
    return True


def _zone_of(user: Any) -> tzinfo:
    """The reader's time zone (the one their other emails use), else UTC."""
    name = (
        PlayerSettings.objects.filter(user_id=user.pk).values_list("time_zone", flat=True).first()
    )
    try:
        return ZoneInfo(name) if name else UTC
    except (ZoneInfoNotFoundError, ValueError):
        return UTC
