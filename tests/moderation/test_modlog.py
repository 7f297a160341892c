"""The modlog: one append-only row per moderator action, with a mandatory reason; the
database refuses to change or delete a row, and the admin offers neither, to
superusers included; it is filterable and shown on the account's page."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.db import IntegrityError, connection, transaction
from django.test import Client
from django.utils import timezone

from accounts.models import ModAction
from accounts.moderation import services
from accounts.moderation.errors import InvalidRequest
from accounts.moderation.modlog import modlog_record

pytestmark = pytest.mark.django_db


def a_row(moderator: Any, target: Any) -> ModAction:
    return modlog_record(
        moderator=moderator, action=ModAction.Action.MUTE, reason="insults", target=target
    )


def test_the_database_refuses_to_update_a_modlog_row(moderator: Any, user: Any) -> None:
    row = a_row(moderator, user)

    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        ModAction.objects.filter(pk=row.pk).update(reason="nothing happened")
    with (
        pytest.raises(IntegrityError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("UPDATE accounts_modaction SET moderator_id = NULL WHERE id = %s", [row.pk])

    row.refresh_from_db()
    assert (row.reason, row.moderator_id) == ("insults", moderator.pk)


def test_the_database_refuses_to_delete_a_modlog_row(moderator: Any, user: Any) -> None:
    row = a_row(moderator, user)

    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        row.delete()
    with (
        pytest.raises(IntegrityError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("DELETE FROM accounts_modaction")

    assert ModAction.objects.filter(pk=row.pk).exists()


def test_every_row_needs_a_reason(moderator: Any, user: Any) -> None:
    with pytest.raises(InvalidRequest) as refused:
        services.mute_lift(user=user, moderator=moderator, reason="   ")
    assert refused.value.code == "reason_required"
    with pytest.raises(IntegrityError), transaction.atomic():
        ModAction.objects.create(moderator=moderator, action=ModAction.Action.BAN, reason="")
    assert not ModAction.objects.exists()


def test_no_admin_page_changes_or_deletes_the_modlog_not_even_a_superusers(
    moderator: Any, user: Any, admin_client: Client
) -> None:
    row = a_row(moderator, user)
    base = "/admin/accounts/modaction/"

    assert admin_client.get(f"{base}{row.pk}/change/").status_code == 200  # to read
    assert admin_client.post(f"{base}{row.pk}/change/", {"reason": "x"}).status_code == 403
    assert admin_client.post(f"{base}{row.pk}/delete/", {"post": "yes"}).status_code == 403
    assert admin_client.get(f"{base}add/").status_code == 403
    listing = admin_client.get(base)
    assert b"delete_selected" not in listing.content
    bulk = admin_client.post(base, {"action": "delete_selected", "_selected_action": [row.pk]})
    assert bulk.status_code in (200, 302)
    row.refresh_from_db()
    assert row.reason == "insults"
    # No permission to change, add or delete a row even exists to be granted.
    codenames = set(
        Permission.objects.filter(content_type__model="modaction").values_list(
            "codename", flat=True
        )
    )
    assert not {"add_modaction", "change_modaction", "delete_modaction"} & codenames


def test_the_modlog_is_filtered_in_the_admin_and_shown_on_the_accounts_page(
    moderator: Any, moderator_client: Client, user_factory: Callable[..., Any]
) -> None:
    rude, cheat = user_factory(username="rude"), user_factory(username="cheat")
    services.mute_create(
        user=rude,
        moderator=moderator,
        reason="insults at table 7",
        ends_at=timezone.now() + timedelta(hours=1),
    )
    services.mark_create(user=cheat, moderator=moderator, kind="cheating", reason="engine moves")

    mutes = moderator_client.get("/admin/accounts/modaction/", {"action__exact": "mute"})
    about_cheat = moderator_client.get(
        "/admin/accounts/modaction/", {"target__id__exact": cheat.pk}
    )
    searched = moderator_client.get("/admin/accounts/modaction/", {"q": "engine"})
    account_page = moderator_client.get(f"/admin/auth/user/{rude.pk}/change/")

    assert mutes.status_code == 200
    assert b"insults at table 7" in mutes.content and b"engine moves" not in mutes.content
    assert b"engine moves" in about_cheat.content and b"insults" not in about_cheat.content
    assert b"engine moves" in searched.content and b"insults" not in searched.content
    assert account_page.status_code == 200
    page = account_page.content.decode()
    assert "Modlog: actions on this account" in page and "insults at table 7" in page
