"""The admin's clean-up of django-axes' failed log-in attempts deletes those whose
cool-off has passed and keeps the others (django-axes' own clean-up raised from the
admin: it reads the time of a log-in from the request)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.utils import timezone

pytestmark = pytest.mark.django_db


def attempt(username: str, age: timedelta) -> Any:
    made = AccessAttempt.objects.create(
        username=username, ip_address="203.0.113.9", user_agent="", failures_since_start=3
    )
    AccessAttempt.objects.filter(pk=made.pk).update(attempt_time=timezone.now() - age)
    return made


def test_cleaning_up_deletes_the_attempts_whose_cool_off_has_passed(admin_client: Any) -> None:
    cool_off = settings.AXES_COOLOFF_TIME
    old = attempt("ana", cool_off + timedelta(minutes=1))
    fresh = attempt("boris", cool_off - timedelta(minutes=1))

    response = admin_client.post(
        "/admin/axes/accessattempt/",
        {"action": "cleanup_expired_attempts", "_selected_action": [old.pk, fresh.pk]},
        follow=True,
    )

    assert response.status_code == 200
    assert list(AccessAttempt.objects.values_list("username", flat=True)) == ["boris"]
    assert "1 expired access attempt cleaned up." in response.content.decode()
