"""Two callers making the same row at the same moment, on PostgreSQL: one row is made,
and the other caller gets what a caller gets who comes second in turn (the domain's
refusal, or the row that is there), never a server error.

Each race is made certain, not left to luck: the first caller stops inside its
transaction just after it writes (a ``post_save`` receiver holds it there) until the
second is seen in PostgreSQL waiting for a lock the first holds, on the game's row or
on the unique index's entry of the row not yet committed; then the first commits. So
the second has passed every check the first's row would have failed, or waits on the
lock that every competing writer takes.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from uuid import uuid4

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.models import Model
from django.db.models.signals import post_save
from django.test import Client
from rest_framework.test import APIClient

from accounts import services as account_services
from accounts.models import Appeal, FairPlayMark, Report
from accounts.moderation import appeals
from accounts.moderation import services as moderation
from accounts.moderation.errors import Conflict
from games.challenges.rematch import rematch_offer
from games.chips import services as chips
from games.models import (
    Challenge,
    ChipAccount,
    ChipLedger,
    Game,
    GameMute,
    Note,
    PushSubscription,
    Seat,
)
from games.play.resign import game_resign
from tests.gamekit import error_of, table_create
from tests.games.concurrency_kit import second_device
from tests.games.push_kit import FCM_ENDPOINT, browser_keys, fake_dns

__all__ = ["fake_dns"]  # a fixture

pytestmark = pytest.mark.django_db(transaction=True)

# How long any one wait of a race may take before the test fails.
DEADLINE_S = 20.0


@dataclass
class Outcome:
    """What one caller got: its answer, or what it raised."""

    value: Any = None
    error: BaseException | None = None


@dataclass
class Race:
    first: Outcome
    second: Outcome
    # The second caller was seen waiting on a lock the first held: the race happened.
    second_waited: bool


def race(first: Callable[[], Any], second: Callable[[], Any], *, held_after: type[Model]) -> Race:
    """Run ``first`` and ``second`` in two threads released together by a barrier, each
    on a database connection of its own (closed when it ends). ``first`` stays in its
    transaction after it saves its first ``held_after`` row; ``second`` starts once that
    row is written, and the first goes on when the second waits on a lock (or has
    ended, or the deadline passed)."""
    token = uuid4().hex[:8]
    names = (f"race-{token}-first", f"race-{token}-second")
    barrier = threading.Barrier(2)
    written, release, held = threading.Event(), threading.Event(), threading.Event()
    outcomes = (Outcome(), Outcome())
    second_pid: list[int] = []

    def hold(sender: Any, **kwargs: Any) -> None:
        if threading.current_thread().name == names[0] and not written.is_set():
            held.set()
            written.set()
            release.wait(DEADLINE_S)

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            if index == 1:
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_backend_pid()")
                    second_pid.append(cursor.fetchone()[0])
            barrier.wait(DEADLINE_S)
            if index == 1:
                written.wait(DEADLINE_S)
            outcomes[index].value = call()
        except BaseException as error:
            outcomes[index].error = error
        finally:
            if index == 0:
                written.set()  # a first caller that wrote nothing lets the second go on
            connection.close()

    post_save.connect(hold, sender=held_after, weak=False, dispatch_uid=token)
    threads = [
        threading.Thread(target=run, args=(index, call), name=names[index])
        for index, call in enumerate((first, second))
    ]
    try:
        for thread in threads:
            thread.start()
        assert written.wait(DEADLINE_S), "the first caller neither wrote nor ended"
        assert held.is_set(), f"the first caller wrote no {held_after.__name__}: {outcomes[0]}"
        waited = _seen_waiting(second_pid, threads[1])
        release.set()
        for thread in threads:
            thread.join(DEADLINE_S)
        assert not any(thread.is_alive() for thread in threads), "a caller did not end"
    finally:
        release.set()
        post_save.disconnect(sender=held_after, dispatch_uid=token)
    return Race(outcomes[0], outcomes[1], second_waited=waited)


def _seen_waiting(pid: list[int], thread: threading.Thread) -> bool:
    """Whether the backend of ``pid`` is seen waiting on a lock before ``thread`` ends
    or the deadline passes."""
    deadline = time.monotonic() + DEADLINE_S
    while time.monotonic() < deadline and thread.is_alive():
        if pid:
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT 1 FROM pg_stat_activity WHERE pid = %s AND wait_event_type = 'Lock'",
                    [pid[0]],
                )
                if cursor.fetchone() is not None:
                    return True
        time.sleep(0.005)  # the next look, until the deadline
    return False


def refusal(outcome: Outcome, kind: type[BaseException]) -> Any:
    """The error ``outcome`` ended with, which must be a ``kind``."""
    assert isinstance(outcome.error, kind), outcome.error
    return outcome.error


def answered(outcome: Outcome) -> Any:
    """The answer of a caller that raised nothing."""
    assert outcome.error is None, outcome.error
    return outcome.value


def user_of(client: APIClient) -> Any:
    return client.user  # type: ignore[attr-defined]


def seated(answer: Any) -> list[tuple[int, str]]:
    """Who sits where, by a game view's seats."""
    return [(seat["position"], seat["user"]["username"]) for seat in answer.json()["seats"]]


# ------------------------------------------------------------------ accounts


def test_two_sign_ups_of_one_name_at_once_make_one_account_and_the_second_is_told_taken(
    password: str,
) -> None:
    def sign_up() -> User:
        return account_services.user_signup(username="marko", password=password)

    run = race(sign_up, sign_up, held_after=User)

    assert run.second_waited
    made = answered(run.first)
    taken = refusal(run.second, account_services.UsernameTaken)
    with pytest.raises(account_services.UsernameTaken) as in_turn:
        sign_up()
    assert str(taken) == str(in_turn.value)
    assert list(User.objects.filter(username="marko").values_list("pk", flat=True)) == [made.pk]


def signed_in_staff(password: str) -> list[Client]:
    """Two superusers' admin clients."""
    clients = []
    for number in (1, 2):
        person = User.objects.create_superuser(
            f"root{number}", f"root{number}@example.org", password
        )
        client = Client()
        client.force_login(person)
        clients.append(client)
    return clients


# An admin form's fields as the page has them filled in (a checkbox only when checked).
FILLED = re.compile(r'<input type="(\w+)" name="([^"]+)"(?: value="([^"]*)")?([^>]*)>')


def filled_form(page: str) -> dict[str, str]:
    """What a browser posts of the page's inputs untouched (text, hidden, checkboxes)."""
    form = {}
    for kind, name, value, rest in FILLED.findall(page):
        if kind == "checkbox":
            if " checked" in rest:
                form[name] = "on"
        elif kind not in ("submit", "button", "password"):
            form[name] = value
    return form


def test_two_staff_adding_one_username_in_the_admin_at_once_make_one_account(
    password: str,
) -> None:
    """The admin's add form is told the name is taken, as it would be a moment later."""
    clients = signed_in_staff(password)
    form = filled_form(clients[0].get("/admin/auth/user/add/").content.decode())
    form |= {"username": "marko", "password1": password, "password2": password}
    form |= {"usable_password": "true"}

    def add(client: Client) -> Any:
        return client.post("/admin/auth/user/add/", form)

    run = race(lambda: add(clients[0]), lambda: add(clients[1]), held_after=User)

    assert run.second_waited
    made, refused = answered(run.first), answered(run.second)
    assert made.status_code == 302
    assert refused.status_code == 200
    assert "A user with that username already exists." in refused.content.decode()
    assert User.objects.filter(username="marko").count() == 1


def test_two_staff_renaming_two_accounts_to_one_name_at_once_rename_one(
    password: str, user_factory: Callable[..., Any]
) -> None:
    clients = signed_in_staff(password)
    accounts = [user_factory(username="first"), user_factory(username="second")]
    forms = []
    for client, account in zip(clients, accounts, strict=True):
        page = client.get(f"/admin/auth/user/{account.pk}/change/").content.decode()
        forms.append(filled_form(page) | {"username": "marko"})

    def rename(index: int) -> Any:
        path = f"/admin/auth/user/{accounts[index].pk}/change/"
        return clients[index].post(path, forms[index])

    run = race(lambda: rename(0), lambda: rename(1), held_after=User)

    assert run.second_waited
    renamed, refused = answered(run.first), answered(run.second)
    assert renamed.status_code == 302
    assert refused.status_code == 200
    assert "A user with that username already exists." in refused.content.decode()
    names = User.objects.filter(pk__in=[a.pk for a in accounts]).order_by("pk")
    assert list(names.values_list("username", flat=True)) == ["marko", "second"]


def test_two_moderators_marking_one_account_at_once_make_one_mark_and_the_second_is_told_so(
    user_factory: Callable[..., Any],
) -> None:
    player, first_moderator, second_moderator = user_factory(), user_factory(), user_factory()

    def mark(moderator: User) -> FairPlayMark:
        return moderation.mark_create(
            user=player, moderator=moderator, kind=FairPlayMark.Kind.CHEATING, reason="engine"
        )

    run = race(
        lambda: mark(first_moderator), lambda: mark(second_moderator), held_after=FairPlayMark
    )

    assert run.second_waited
    made = answered(run.first)
    refused = refusal(run.second, Conflict)
    with pytest.raises(Conflict) as in_turn:
        mark(second_moderator)
    assert (refused.code, refused.message) == (in_turn.value.code, in_turn.value.message)
    assert refused.code == "already_marked" and refused.status == 409
    standing = FairPlayMark.objects.filter(user=player, removed_at__isnull=True)
    assert list(standing.values_list("pk", "created_by")) == [(made.pk, first_moderator.pk)]


def test_one_sanction_appealed_twice_at_once_has_one_appeal_and_the_second_is_told_so(
    user_factory: Callable[..., Any],
) -> None:
    player, moderator = user_factory(), user_factory()
    warning = moderation.warning_create(user=player, moderator=moderator, reason="spam")

    def appeal(text: str) -> Appeal:
        return appeals.appeal_create(sanction=warning, text=text)

    run = race(lambda: appeal("a mistake"), lambda: appeal("not me"), held_after=Appeal)

    assert run.second_waited
    made = answered(run.first)
    refused = refusal(run.second, Conflict)
    with pytest.raises(Conflict) as in_turn:
        appeal("again")
    assert (refused.code, refused.message) == (in_turn.value.code, in_turn.value.message)
    assert list(Appeal.objects.values_list("pk", "text")) == [(made.pk, "a mistake")]


def test_one_report_sent_from_two_devices_at_once_is_one_open_report_and_the_second_is_told_so(
    players: Callable[[int], list[APIClient]],
) -> None:
    phone, rival = players(2)
    laptop = second_device(phone)
    report = {"username": user_of(rival).username, "reason": "name", "text": "rude"}

    def send(client: APIClient) -> Any:
        return client.post("/api/v1/reports", report, format="json")

    run = race(lambda: send(phone), lambda: send(laptop), held_after=Report)

    assert run.second_waited
    made, refused = answered(run.first), answered(run.second)
    in_turn = send(phone)
    assert made.status_code == 201
    assert (refused.status_code, error_of(refused)) == (409, error_of(in_turn))
    assert error_of(refused)["code"] == "already_reported"
    reports = Report.objects.filter(reporter=user_of(phone), status=Report.Status.OPEN)
    assert list(reports.values_list("pk", flat=True)) == [made.json()["id"]]


# ------------------------------------------------------------------ seats and challenges


def joins_raced(
    host: APIClient, seats: int, first: APIClient, second: APIClient
) -> tuple[str, str, Race]:
    """A new serbian table of ``host`` for ``seats`` players, and two joins of it raced:
    the table's id, its join address and the race."""
    made = host.post("/api/v1/games", {"preset": "serbian", "players": seats}, format="json")
    join = f"/api/v1/games/{made.json()['id']}/join"
    run = race(
        lambda: first.post(join, {}, format="json"),
        lambda: second.post(join, {}, format="json"),
        held_after=Seat,
    )
    return made.json()["id"], join, run


def test_two_players_racing_for_the_last_seat_one_sits_and_the_other_is_told_it_is_full(
    players: Callable[[int], list[APIClient]],
) -> None:
    host, first, second, late = players(4)

    game_id, join, run = joins_raced(host, 2, first, second)

    assert run.second_waited
    assert answered(run.first).status_code == 200
    refused = answered(run.second)
    in_turn = late.post(join, {}, format="json")
    assert (refused.status_code, in_turn.status_code) == (409, 409)
    assert error_of(refused) == error_of(in_turn) and error_of(refused)["code"] == "game_full"
    sitting = Seat.objects.filter(game__public_id=game_id).values_list("user", flat=True)
    assert sorted(sitting) == sorted([user_of(host).pk, user_of(first).pk])


def test_one_player_joining_from_two_devices_at_once_takes_one_seat_and_both_are_told_so(
    players: Callable[[int], list[APIClient]],
) -> None:
    host, phone = players(2)
    laptop = second_device(phone)

    game_id, join, run = joins_raced(host, 3, phone, laptop)

    assert run.second_waited
    first, second = answered(run.first), answered(run.second)
    in_turn = phone.post(join, {}, format="json")
    assert [first.status_code, second.status_code, in_turn.status_code] == [200, 200, 200]
    assert seated(first) == seated(second) == seated(in_turn)
    game = Game.objects.get(public_id=game_id)
    assert Seat.objects.filter(game=game, user=user_of(phone)).count() == 1
    assert Seat.objects.filter(game=game).count() == 2


def test_two_players_accepting_one_open_challenge_at_once_start_one_game(
    players: Callable[[int], list[APIClient]], deals_seeded: Any
) -> None:
    challenger, bob, carol, dave = players(4)
    made = challenger.post("/api/v1/challenges", {"preset": "serbian"}, format="json")
    accept = f"/api/v1/challenges/{made.json()['id']}/accept"

    run = race(lambda: bob.post(accept), lambda: carol.post(accept), held_after=Challenge)

    assert run.second_waited
    accepted = answered(run.first)
    refused = answered(run.second)
    in_turn = dave.post(accept)
    assert accepted.status_code == 200
    assert accepted.json()["accepted_by"]["username"] == user_of(bob).username
    assert (refused.status_code, in_turn.status_code) == (409, 409)
    assert error_of(refused) == error_of(in_turn)
    assert error_of(refused)["code"] == "challenge_not_pending"
    assert Game.objects.count() == 1


def test_both_players_asking_for_a_rematch_at_once_make_one_and_the_second_ask_accepts_it(
    started: Callable[..., tuple[Game, list[Any]]],
) -> None:
    game, (one, other) = started()
    game_resign(game=game, user=other)

    run = race(
        lambda: rematch_offer(public_id=game.public_id, user=one),
        lambda: rematch_offer(public_id=game.public_id, user=other),
        held_after=Challenge,
    )

    assert run.second_waited
    offered, accepted = answered(run.first), answered(run.second)
    assert (offered.created, accepted.created) == (True, False)
    rematch = Challenge.objects.get(rematch_of=game)
    assert offered.challenge.pk == accepted.challenge.pk == rematch.pk
    assert rematch.status == Challenge.Status.ACCEPTED and rematch.accepted_by_id == other.pk
    assert Game.objects.get(pk=rematch.game_id).status == Game.Status.ACTIVE


# ------------------------------------------------------------------ a player's own rows


def test_two_accounts_subscribing_one_browser_at_once_leave_it_to_the_second(
    players: Callable[[int], list[APIClient]], fake_dns: Any
) -> None:
    first, second = players(2)
    subscription = {"endpoint": f"{FCM_ENDPOINT}shared", "keys": browser_keys()}
    path = "/api/v1/me/push-subscriptions"

    run = race(
        lambda: first.post(path, subscription, format="json"),
        lambda: second.post(path, subscription, format="json"),
        held_after=PushSubscription,
    )

    assert run.second_waited
    assert [answered(run.first).status_code, answered(run.second).status_code] == [201, 201]
    owners = PushSubscription.objects.values_list("user", flat=True)
    assert list(owners) == [user_of(second).pk]


def at_a_table_on_two_devices(
    players: Callable[[int], list[APIClient]],
) -> tuple[Any, APIClient, APIClient]:
    """A started serbian table of two, and its first player's two clients."""
    table = table_create(players(2), preset="serbian")
    phone = table.clients[0]
    return table, phone, second_device(phone)


def test_a_game_muted_from_two_devices_at_once_is_muted_once(
    players: Callable[[int], list[APIClient]], deals_seeded: Any
) -> None:
    table, phone, laptop = at_a_table_on_two_devices(players)
    mute = table.url("/mute")

    run = race(lambda: phone.post(mute), lambda: laptop.post(mute), held_after=GameMute)

    assert run.second_waited
    answers = [answered(run.first), answered(run.second)]
    assert [(answer.status_code, answer.json()) for answer in answers] == [
        (200, {"muted": True}),
        (200, {"muted": True}),
    ]
    assert GameMute.objects.filter(user=user_of(phone)).count() == 1


def test_a_note_saved_from_two_devices_at_once_is_one_note_with_the_later_text(
    players: Callable[[int], list[APIClient]], deals_seeded: Any
) -> None:
    table, phone, laptop = at_a_table_on_two_devices(players)
    note = table.url("/note")

    run = race(
        lambda: phone.put(note, {"text": "from the phone"}),
        lambda: laptop.put(note, {"text": "from the laptop"}),
        held_after=Note,
    )

    assert run.second_waited
    assert [answered(run.first).status_code, answered(run.second).status_code] == [200, 200]
    notes = Note.objects.filter(user=user_of(phone)).values_list("text", flat=True)
    assert list(notes) == ["from the laptop"]
    assert phone.get(note).json()["text"] == "from the laptop"


def made_before_chips(*usernames: str) -> list[User]:
    """Accounts made before chips existed: without the chip account (and the profile)
    that saving a new user opens (``bulk_create`` sends no ``post_save``)."""
    return User.objects.bulk_create([User(username=name) for name in usernames])


def test_a_chip_account_opened_twice_at_once_is_one_account_with_one_grant() -> None:
    (player,) = made_before_chips("early")

    run = race(
        lambda: chips.account_open(user=player),
        lambda: chips.account_open(user=player),
        held_after=ChipAccount,
    )

    assert run.second_waited
    first, second = answered(run.first), answered(run.second)
    assert first.pk == second.pk == ChipAccount.objects.get(user=player).pk
    grants = ChipLedger.objects.filter(account=first, kind=ChipLedger.Kind.GRANT).count()
    assert grants == (1 if chips.starting_grant() else 0)
    assert ChipAccount.objects.get(pk=first.pk).balance == chips.starting_grant()


def test_callers_that_meet_on_no_row_are_not_counted_as_a_race() -> None:
    """The helper's own check: so each test's ``second_waited`` means what it says."""
    one, other = made_before_chips("early", "earlier")

    run = race(
        lambda: chips.account_open(user=one),
        lambda: chips.account_open(user=other),
        held_after=ChipAccount,
    )

    assert not run.second_waited
    assert answered(run.first).user_id == one.pk and answered(run.second).user_id == other.pk
