"""The moderator role, boundary by boundary over the admin's HTTP endpoints: the group
has exactly the moderators' powers; staff without it may look (with view permissions)
but never act nor see a hidden hand; moderators act but do not edit accounts or the
modlog, nor sanction staff; superusers do everything."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import Group, Permission
from django.test import Client

from accounts.models import ModAction, Report, Sanction
from accounts.moderation import roles, services
from games.models import ChatMessage, Deal
from tests.user_kit import logged_in

pytestmark = pytest.mark.django_db

# What a look-only member of staff is given, one permission at a time.
VIEWS = [name.split(".") for name in roles.MODERATOR_VIEWS]


@pytest.fixture
def clerk(staff_factory: Callable[..., Any]) -> Client:
    """Staff with every view permission of the moderators, and none of their powers."""
    person = staff_factory(moderator=False, username="clerk")
    for app_label, codename in VIEWS:
        person.user_permissions.add(
            Permission.objects.get(content_type__app_label=app_label, codename=codename)
        )
    return logged_in(person)


@pytest.fixture
def scene(started: Callable[..., Any], user_factory: Callable[..., Any]) -> dict[str, Any]:
    """A running game with a chat line, and a report about one of its players."""
    game, (alice, bob) = started(players=2)
    line = ChatMessage.objects.create(game=game, user=bob, ply=game.ply, text="idiot")
    report = services.report_create(reporter=alice, reported=bob, reason="abuse", chat_message=line)
    return {"game": game, "alice": alice, "bob": bob, "line": line, "report": report}


def act_pages(scene: dict[str, Any]) -> list[str]:
    bob, game, report = scene["bob"], scene["game"], scene["report"]
    account = f"/admin/auth/user/{bob.pk}/act"
    return [
        f"{account}/ban/",
        f"{account}/unban/",
        f"{account}/mute/",
        f"{account}/unmute/",
        f"{account}/lift-playban/",
        f"{account}/mark/",
        f"{account}/unmark/",
        f"{account}/revert/",
        f"/admin/accounts/report/{report.pk}/act/resolve/",
        f"/admin/accounts/report/{report.pk}/act/dismiss/",
        f"/admin/games/game/{game.pk}/act/abort/",
        f"/admin/games/game/{game.pk}/act/adjudicate/",
    ]


def test_the_moderator_group_has_exactly_the_moderators_powers() -> None:
    group = Group.objects.get(name=roles.MODERATOR_GROUP)

    granted = {
        f"{app_label}.{codename}"
        for app_label, codename in group.permissions.values_list(
            "content_type__app_label", "codename"
        )
    }

    assert granted == set(roles.MODERATOR_PERMISSIONS)
    assert not {name for name in granted if name.split(".")[1].startswith(("add_", "delete_"))}


def test_staff_without_the_role_act_on_nothing_and_see_no_hidden_hand(
    scene: dict[str, Any], clerk: Client, staff_factory: Callable[..., Any]
) -> None:
    bare = logged_in(staff_factory(moderator=False))
    deal = Deal.objects.get(game=scene["game"])

    for url in act_pages(scene):
        assert clerk.get(url).status_code == 403, url
        assert (
            clerk.post(url, {"reason": "because", "length": "1", "unit": "hours"}).status_code
            == 403
        ), url
        assert bare.get(url).status_code == 403, url
    deal_page = clerk.get(f"/admin/games/deal/{deal.pk}/change/")
    assert deal_page.status_code == 200 and b"Hidden information" not in deal_page.content
    assert bare.get(f"/admin/games/deal/{deal.pk}/change/").status_code == 403
    hide = clerk.post(
        "/admin/games/chatmessage/",
        {
            "action": "hide_messages",
            "_selected_action": [scene["line"].pk],
            "apply": "1",
            "reason": "rude",
        },
    )
    assert hide.status_code == 200  # the list again: the action is not offered to them
    assert b"hide_messages" not in clerk.get("/admin/games/chatmessage/").content
    account_page = clerk.get(f"/admin/auth/user/{scene['bob'].pk}/change/")
    assert account_page.status_code == 200 and b"/act/ban/" not in account_page.content
    scene["line"].refresh_from_db()
    assert scene["line"].hidden_at is None
    assert not Sanction.objects.exists() and not ModAction.objects.exists()


@pytest.mark.parametrize("who", ["moderator", "superuser"])
def test_moderators_and_superusers_act(
    who: str, scene: dict[str, Any], moderator_client: Client, admin_client: Client
) -> None:
    client = moderator_client if who == "moderator" else admin_client
    deal = Deal.objects.get(game=scene["game"])

    for url in act_pages(scene):
        assert client.get(url).status_code == 200, url
    deal_page = client.get(f"/admin/games/deal/{deal.pk}/change/")
    account_page = client.get(f"/admin/auth/user/{scene['bob'].pk}/change/")
    banned = client.post(
        f"/admin/auth/user/{scene['bob'].pk}/act/ban/",
        {"reason": "abuse", "length": "3", "unit": "days"},
    )
    hidden = client.post(
        "/admin/games/chatmessage/",
        {
            "action": "hide_messages",
            "_selected_action": [scene["line"].pk],
            "apply": "1",
            "reason": "rude",
        },
        follow=True,
    )

    assert b"Hidden information" in deal_page.content
    assert b"/act/ban/" in account_page.content
    assert banned.status_code == 302
    assert Sanction.objects.get().kind == Sanction.Kind.BAN
    assert b"1 line hidden." in hidden.content
    assert set(ModAction.objects.values_list("action", flat=True)) == {
        "look_hidden",
        "ban",
        "hide_chat",
    }


def test_a_moderator_edits_no_account_and_sanctions_no_staff(
    scene: dict[str, Any],
    moderator: Any,
    moderator_client: Client,
    admin_client: Client,
    staff_factory: Callable[..., Any],
) -> None:
    bob = scene["bob"]
    colleague = staff_factory(moderator=True)

    edit = moderator_client.post(
        f"/admin/auth/user/{bob.pk}/change/", {"username": "renamed", "is_staff": "on"}
    )
    add = moderator_client.get("/admin/auth/user/add/")
    promote = moderator_client.post(
        f"/admin/auth/user/{moderator.pk}/change/", {"is_superuser": "on"}
    )
    on_staff = moderator_client.post(
        f"/admin/auth/user/{colleague.pk}/act/ban/",
        {"reason": "rival", "permanent": "on", "unit": "days"},
    )
    on_self = moderator_client.post(
        f"/admin/auth/user/{moderator.pk}/act/mute/",
        {"reason": "test", "length": "1", "unit": "hours"},
    )
    by_superuser = admin_client.post(
        f"/admin/auth/user/{colleague.pk}/act/ban/",
        {"reason": "abused the role", "permanent": "on", "unit": "days"},
    )

    assert (edit.status_code, add.status_code, promote.status_code) == (403, 403, 403)
    bob.refresh_from_db()
    moderator.refresh_from_db()
    assert bob.username != "renamed" and not moderator.is_superuser
    assert on_staff.status_code == 200
    assert b"Only a superuser may act on a staff account." in on_staff.content
    assert on_self.status_code == 200
    assert b"A moderator does not act on their own account." in on_self.content
    assert by_superuser.status_code == 302
    assert list(Sanction.objects.values_list("user", flat=True)) == [colleague.pk]
    assert Report.objects.get().status == Report.Status.OPEN


def test_migrating_part_of_the_way_leaves_the_group_to_the_migrate_that_brings_its_models() -> None:
    """``migrate games 0015`` and the like pass the receiver a migration state's apps,
    in which later models (here, all of the accounts app's) do not exist yet."""
    from django.db import connection
    from django.db.migrations.loader import MigrationLoader

    Group.objects.filter(name=roles.MODERATOR_GROUP).delete()
    Permission.objects.filter(content_type__app_label="accounts", codename="ban_account").delete()
    early = MigrationLoader(connection).project_state(
        [
            ("auth", "0012_alter_user_first_name_max_length"),
            ("contenttypes", "0002_remove_content_type_name"),
        ]
    )

    roles.moderator_group_ensure(apps=early.apps)
    assert not Group.objects.filter(name=roles.MODERATOR_GROUP).exists()

    roles.moderator_group_ensure()
    group = Group.objects.get(name=roles.MODERATOR_GROUP)
    assert group.permissions.filter(codename="ban_account").exists()
