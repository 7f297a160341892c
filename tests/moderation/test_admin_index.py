"""The admin's index where moderators start: the open reports' count, linked to the
queue oldest first, and every model's name spelled right."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import Permission

from accounts.models import Report
from accounts.moderation import services
from tests.user_kit import logged_in

pytestmark = pytest.mark.django_db


def test_the_index_shows_the_open_reports_count_linked_to_the_queue_oldest_first(
    user_factory: Callable[..., Any], moderator_client: Any
) -> None:
    reporter, moderator = user_factory(), moderator_client.user
    reports = [
        services.report_create(reporter=reporter, reported=user_factory(), reason="abuse")
        for _ in range(3)
    ]
    services.report_close(
        report=reports[0], moderator=moderator, outcome=Report.Status.RESOLVED, reason="done"
    )

    page = moderator_client.get("/admin/").content.decode()
    queue = moderator_client.get("/admin/accounts/report/?status__exact=open&o=1")

    assert "2 open reports" in page
    assert "/admin/accounts/report/?status__exact=open&amp;o=1" in page
    assert queue.status_code == 200
    listed = list(queue.context["cl"].result_list)
    assert [report.pk for report in listed] == [reports[1].pk, reports[2].pk]


def test_staff_who_may_not_see_reports_get_no_count(
    user_factory: Callable[..., Any], staff_factory: Callable[..., Any]
) -> None:
    clerk = staff_factory(moderator=False)
    clerk.user_permissions.add(Permission.objects.get(codename="view_game"))
    services.report_create(reporter=user_factory(), reported=user_factory(), reason="abuse")

    page = logged_in(clerk).get("/admin/").content.decode()

    assert "open report" not in page


def test_the_index_names_the_moderators_looks_at_hidden_cards_in_good_english(
    admin_client: Any,
) -> None:
    page = admin_client.get("/admin/").content.decode()

    assert "Moderation accesses" in page
    assert "accesss" not in page
