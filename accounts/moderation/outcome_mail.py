"""The reporter hears back by email, if they chose to (``email_report_outcomes``,
off unless chosen): the outcome of their report ("action taken" or "no action"), in
their language, never what the sanction was. Sent once the report's closing commits."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from accounts.models import Report
from accounts.moderation.record import report_outcome

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
    language = profile.language if profile.language in dict(settings.LANGUAGES) else "en"
    context = {
        "name": profile.display_name or reporter.username,
        "reported": report.reported.username,
        "created_at": report.created_at,
        "action_taken": report_outcome(report) == "action_taken",
        "reports_url": str(settings.SITE_URL).rstrip("/") + reverse("moderation:my-reports"),
        "settings_url": str(settings.SITE_URL).rstrip("/") + reverse("me:settings"),
    }
    with translation.override(language):
        subject = render_to_string("emails/report_outcome_subject.txt", context).strip()
        body = render_to_string("emails/report_outcome.txt", context)
    try:
        send_mail(subject, body, None, [reporter.email])
    except Exception:
        log.exception("could not email the outcome of report %s", report_id)
        return False
    return True
