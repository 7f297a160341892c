"""django-axes' login records in the admin, said in the moderators' languages.

django-axes ships no Macedonian or Serbian catalogue, and a few of its admin's words are
in none of its catalogues ("Locked Out"): ``remi_site.axes_words`` lists the texts its
admin shows, so that the site's catalogue carries them (read before django-axes' own,
whose Polish "próba dostępu" would otherwise win over ours). Its rows' names are
f-strings that no catalogue can translate ("Access Log for ana @ 2026-12-07
02:30:57.505692+00:00"), and the admin makes them its pages' titles, its breadcrumbs and
its checkboxes' labels: the models are given names said in the reader's language and
time zone. Its count of the attempts left is a number glued to an English word: the
attempts' admin says it with a plural of its own.
"""

from __future__ import annotations

from typing import Any

from axes import admin as axes_admin  # type: ignore[import-untyped]
from axes.conf import settings as axes_settings  # type: ignore[import-untyped]
from axes.models import (  # type: ignore[import-untyped]
    AccessAttempt,
    AccessFailureLog,
    AccessLog,
)
from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from remi_site import formats


def _attempt_name(attempt: Any) -> str:
    return gettext("Failed logins of %(username)s from %(address)s") % {
        "username": attempt.username or "-",
        "address": attempt.ip_address or "-",
    }


def _log_name(log: Any) -> str:
    return gettext("Login of %(username)s at %(time)s") % {
        "username": log.username or "-",
        "time": formats.moment(log.attempt_time),
    }


def _failure_name(failure: Any) -> str:
    said = (
        gettext("Failed login of %(username)s at %(time)s, locked out")
        if failure.locked_out
        else gettext("Failed login of %(username)s at %(time)s")
    )
    return said % {
        "username": failure.username or "-",
        "time": formats.moment(failure.attempt_time),
    }


AccessAttempt.__str__ = _attempt_name
AccessLog.__str__ = _log_name
AccessFailureLog.__str__ = _failure_name


class LoginAttemptAdmin(axes_admin.AccessAttemptAdmin):
    """django-axes' admin of the failed attempts, with the attempts left said with a
    plural and its clean-up's message as a sentence of the catalogue."""

    @admin.display(description=_("status"))
    def status(self, attempt: Any) -> str:
        left = axes_settings.AXES_FAILURE_LIMIT - attempt.failures_since_start
        if left <= 0:
            return gettext("Locked Out")
        return ngettext("%(count)s attempt left", "%(count)s attempts left", left) % {
            "count": formats.number(left)
        }

    @admin.action(description=_("Clean up expired attempts"))
    def cleanup_expired_attempts(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        # django-axes' own clean-up reads the time of a log-in attempt from the request,
        # which only its middleware sets on a log-in: from the admin it raised. An
        # attempt has expired once its cool-off has passed since its last failure.
        threshold = timezone.now() - axes_settings.AXES_COOLOFF_TIME
        _total, by_model = AccessAttempt.objects.filter(attempt_time__lte=threshold).delete()
        count = by_model.get(AccessAttempt._meta.label, 0)  # not their expiries' rows
        self.message_user(
            request,
            ngettext(
                "%(count)s expired access attempt cleaned up.",
                "%(count)s expired access attempts cleaned up.",
                count,
            )
            % {"count": formats.number(count)},
        )


# django-axes registers its admins where AXES_ENABLE_ADMIN is on (by default).
if admin.site.is_registered(AccessAttempt):
    admin.site.unregister(AccessAttempt)
    admin.site.register(AccessAttempt, LoginAttemptAdmin)
