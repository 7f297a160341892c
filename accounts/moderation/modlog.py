"""The one writer of the modlog (``ModAction``): a row per moderator action, in the
transaction of the action itself. Rows are never changed or deleted (the database
refuses it, see the model)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import MODERATION_REASON_MAX_LENGTH, ModAction, Report
from accounts.moderation.errors import InvalidRequest


def reason_clean(reason: str) -> str:
    """A moderator's reason as stored: trimmed, not empty, not too long."""
    reason = (reason or "").strip()
    if not reason:
        raise InvalidRequest(_("a reason is required"), code="reason_required")
    if len(reason) > MODERATION_REASON_MAX_LENGTH:
        raise InvalidRequest(
            ngettext(
                "a reason is at most %(moderation_reason_max_length)s character",
                "a reason is at most %(moderation_reason_max_length)s characters",
                MODERATION_REASON_MAX_LENGTH,
            )
            % {"moderation_reason_max_length": MODERATION_REASON_MAX_LENGTH},
            code="reason_too_long",
        )
    return reason


def modlog_record(
    *,
    moderator: User | None,
    action: str,
    reason: str,
    target: User | None = None,
    game: Any = None,
    report: Report | None = None,
    details: Mapping[str, Any] | None = None,
) -> ModAction:
    """Append one row to the modlog. ``moderator`` None: the site itself (a playban);
    ``game`` is a ``games.Game`` (or None)."""
    return ModAction.objects.create(
        moderator=moderator,
        action=action,
        reason=reason_clean(reason),
        target=target,
        game=game,
        report=report,
        details=dict(details or {}),
    )
