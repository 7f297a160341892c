"""The moderation queue's size where staff start: the admin's index shows how many
reports wait (``templates/admin/index.html``)."""

from __future__ import annotations

from typing import Any

from django import template

from accounts.models import Report

register = template.Library()


@register.simple_tag(takes_context=True)
def open_reports_count(context: dict[str, Any]) -> int | None:
    """How many reports are open, for staff who may see reports (None for others)."""
    request = context.get("request")
    if request is None or not request.user.has_perm("accounts.view_report"):
        return None
    return Report.objects.filter(status=Report.Status.OPEN).count()
