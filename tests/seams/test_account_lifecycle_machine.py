"""The seams stay closed, whatever the order: a hypothesis state machine over a handful
of accounts (four people, a built-in bot, a moderator, a staff member without the
hidden-card permission) drives the real services (PostgreSQL, Redis, the public HTTP
API, the moderation services, a websocket per person) through challenges, accepts,
declines, private lobbies (create, join, start, leave), bans, unbans, deletions, mutes,
push subscriptions and calendar feeds, in any order. After every step it checks:

- no pending challenge to or from a banned or deleted account;
- no seat for such an account in a game not started, or in a game made after the
  sanction;
- no calendar feed, push subscription or open websocket of a banned or deleted account;
- a player who left a private lobby gets nothing more of that game;
- no hidden card in any game view for anyone but its holder, nor on the admin's deal
  page for staff without the hidden-card permission;
- a built-in bot is never sanctioned.

Its cost is bounded by ``MAX_EXAMPLES`` × ``STEPS``; the number of steps run is printed
(``-s``) and recorded as the test's ``steps`` property (junit XML) to be quoted.
"""

from __future__ import annotations

import functools
import itertools
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db.models import F
from django.test import Client
from django.utils import timezone
from hypothesis import HealthCheck, Phase
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from rest_framework.test import APIClient

from accounts import services as account_services
from accounts.models import Sanction
from accounts.moderation import services as moderation
from accounts.moderation.errors import NotAllowed
from games.live import presence
from games.models import Challenge, Deal, Game, PlayerSettings, PushSubscription, Seat
from tests.gamekit import (
    assert_log_hides_secrets,
    assert_review_hides_secrets,
    assert_view_hides_secrets,
    current_engine_deal,
    greedy_action,
)
from tests.games.notify_kit import site_path
from tests.live.ws_kit import websocket
from tests.seams.machine_sockets import FRAME_DEADLINE_S, Socket, SocketLoop, push_keys

pytestmark = pytest.mark.django_db(transaction=True)

MAX_EXAMPLES = 24
STEPS = 25
PASSWORD = "correct-horse-battery-staple"
PEOPLE = 4
CLOSED_BY_SERVER = {4404, 4410}

_names = itertools.count(1)
_steps_run = 0  # invariant rounds: one after each machine's start and each step
_machines = 0
_rules_run: Counter[str] = Counter()  # what the run did, printed with the steps


def tallied(step: Callable[..., None]) -> Callable[..., None]:
    @functools.wraps(step)
    def run(self: Any, **arguments: Any) -> None:
        _rules_run[step.__name__] += 1
        step(self, **arguments)

    return run


@dataclass
class Person:
    user: Any
    api: APIClient
    token: str
    socket: Socket | None = None
    following: set[str] = field(default_factory=set)  # games this socket subscribed to
    banned_at: Any = None
    deleted_at: Any = None
    feed: str | None = None
    left: set[str] = field(default_factory=set)  # private lobbies left, no seat since

    @property
    def closed(self) -> bool:
        return self.banned_at is not None or self.deleted_at is not None

    @property
    def closed_at(self) -> Any:
        return self.deleted_at or self.banned_at


class AccountLifecycle(RuleBasedStateMachine):
    sockets: SocketLoop  # set by the test

    @initialize()
    def accounts(self) -> None:
        global _machines
        _machines += 1
        run = next(_names)
        user_model = get_user_model()
        self.people: list[Person] = []
        for index in range(PEOPLE):
            user = user_model.objects.create_user(username=f"p{run}x{index}", password=PASSWORD)
            _token, raw = account_services.token_create(user=user, name="machine")
            api = APIClient()
            api.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
            self.people.append(Person(user=user, api=api, token=raw))
        self.bot = account_services.bots_ensure()[0]
        self.moderator = user_model.objects.create_user(username=f"mod{run}", is_staff=True)
        self.viewer = user_model.objects.create_user(username=f"staff{run}", is_staff=True)
        self.viewer.user_permissions.add(
            *Permission.objects.filter(codename__in=["view_deal", "view_game", "view_move"])
        )
        self.challenges: list[str] = []
        self.lobbies: list[str] = []
        self.games: set[str] = set()
        self.pushes = itertools.count()
        self.opened: list[Socket] = []
        for person in self.people:
            self._connect(person)

    def teardown(self) -> None:
        # Every application ends, those the server closed too (a browser would send
        # its disconnect).
        for socket in getattr(self, "opened", []):
            future = socket.communicator._future
            if future is not None and not future.done():
                self.sockets.run(socket.communicator.disconnect(FRAME_DEADLINE_S))

    # ------------------------------------------------------------ helpers

    def _connect(self, person: Person) -> None:
        async def connect() -> Socket:
            communicator = websocket(person.token)
            connected, _ = await communicator.connect(FRAME_DEADLINE_S)
            assert connected
            socket = Socket(communicator)
            hello = await communicator.receive_json_from(FRAME_DEADLINE_S)
            assert hello["type"] == "hello"
            return socket

        person.socket = self.sockets.run(connect())
        person.following = set()
        self.opened.append(person.socket)

    def _open_socket(self, person: Person) -> Socket | None:
        socket = person.socket
        return socket if socket is not None and socket.closed is None else None

    def _send(self, person: Person, frame: dict[str, Any]) -> None:
        socket = self._open_socket(person)
        if socket is not None:
            self.sockets.run(socket.communicator.send_json_to(frame))

    def _wait_for(self, person: Person, done: Any) -> None:
        """Drain ``person``'s socket until ``done(socket)``, within the deadline."""
        socket = person.socket
        assert socket is not None
        deadline = time.monotonic() + FRAME_DEADLINE_S
        while not done(socket):
            assert time.monotonic() < deadline, f"waited in vain on {socket.frames[-3:]}"
            self.sockets.run(socket.drain())

    def _refused(self, person: Person, status: int) -> bool:
        """A closed account's request is refused by the authentication (401 or 403)."""
        return person.closed and status in (401, 403)

    def _follow(self, person: Person, game_id: str) -> None:
        if self._open_socket(person) is None:
            return
        self._send(person, {"type": "subscribe", "game": game_id, "ply": None})
        self._wait_for(
            person,
            lambda s: any(
                f.get("game") == game_id and f["type"] in ("subscribed", "error") for f in s.frames
            ),
        )
        assert person.socket is not None
        if any(
            f["type"] == "subscribed" and f.get("game") == game_id for f in person.socket.frames
        ):
            person.following.add(game_id)

    # ------------------------------------------------------------ challenges

    def _pending(self) -> list[Challenge]:
        return list(
            Challenge.objects.filter(public_id__in=self.challenges, status="pending").order_by("pk")
        )

    def _person(self, user_id: int | None) -> Person | None:
        return next((p for p in self.people if p.user.pk == user_id), None)

    def _open_people(self) -> list[Person]:
        return [p for p in self.people if not p.closed]

    def _involved(self) -> list[Person]:
        """The open people with something to lose (a pending challenge, a seat), or
        every open person: a sanction is drawn among them, so that the runs test what
        it does to challenges and seats rather than to idle accounts."""
        pending = self._pending()
        users = {c.challenger_id for c in pending} | {c.destination_id for c in pending}
        users |= set(
            Seat.objects.filter(game__public_id__in=[*self.lobbies, *self.games]).values_list(
                "user_id", flat=True
            )
        )
        involved = [p for p in self._open_people() if p.user.pk in users]
        return involved or self._open_people()

    def _lobbies(self) -> list[Game]:
        return list(Game.objects.filter(public_id__in=self.lobbies, status="lobby").order_by("pk"))

    @rule(data=st.data())
    @tallied
    def challenge(self, data: st.DataObject) -> None:
        """A person challenges another, the built-in bot (which accepts at once) or anyone."""
        challenger = data.draw(st.sampled_from(self.people))
        others = [p.user for p in self.people if p is not challenger]
        target = data.draw(st.sampled_from([*others, self.bot, None]))
        body = {"preset": "serbian", "to": None if target is None else target.username}
        made = challenger.api.post("/api/v1/challenges", body, format="json")
        if self._refused(challenger, made.status_code):
            return
        other = None if target is None else self._person(target.pk)
        if other is not None and other.deleted_at is not None:
            assert made.status_code == 404, made.json()
        elif other is not None and other.banned_at is not None:
            assert made.status_code == 403, made.json()
            assert made.json()["error"]["code"] == "account_unavailable"
        else:
            assert made.status_code in (201, 409), made.json()
        if made.status_code == 201:
            self.challenges.append(made.json()["id"])
            if made.json()["game"]:
                self.games.add(made.json()["game"])

    @precondition(lambda self: self._pending())
    @rule(data=st.data())
    @tallied
    def accept(self, data: st.DataObject) -> None:
        challenge = data.draw(st.sampled_from(self._pending()))
        named = self._person(challenge.destination_id)
        others = [p for p in self.people if p.user.pk != challenge.challenger_id]
        acceptor = named or data.draw(st.sampled_from(others))
        answer = acceptor.api.post(f"/api/v1/challenges/{challenge.public_id}/accept")
        if self._refused(acceptor, answer.status_code):
            return
        assert answer.status_code == 200, answer.json()
        self.games.add(answer.json()["game"])

    @precondition(lambda self: any(c.destination_id for c in self._pending()))
    @rule(data=st.data())
    @tallied
    def decline(self, data: st.DataObject) -> None:
        challenge = data.draw(st.sampled_from([c for c in self._pending() if c.destination_id]))
        person = self._person(challenge.destination_id)
        assert person is not None
        answer = person.api.post(f"/api/v1/challenges/{challenge.public_id}/decline")
        if not self._refused(person, answer.status_code):
            assert answer.status_code == 200, answer.json()

    # ------------------------------------------------------------ private lobbies

    @rule(data=st.data())
    @tallied
    def lobby_create(self, data: st.DataObject) -> None:
        host = data.draw(st.sampled_from(self.people))
        body = {"preset": "serbian", "players": 3, "visibility": "private"}
        made = host.api.post("/api/v1/games", body, format="json")
        if self._refused(host, made.status_code):
            return
        assert made.status_code == 201, made.json()
        game_id = made.json()["id"]
        self.lobbies.append(game_id)
        self._follow(host, game_id)

    @precondition(lambda self: self._lobbies())
    @rule(data=st.data())
    @tallied
    def lobby_join(self, data: st.DataObject) -> None:
        game = data.draw(st.sampled_from(self._lobbies()))
        seated = set(game.seats.values_list("user_id", flat=True))
        newcomers = [p for p in self._open_people() if p.user.pk not in seated]
        person = data.draw(st.sampled_from(newcomers or self.people))
        joined = person.api.post(
            f"/api/v1/games/{game.public_id}/join", {"invite_code": game.invite_code}, format="json"
        )
        if self._refused(person, joined.status_code):
            return
        assert joined.status_code in (200, 409), joined.json()  # 409: the lobby is full
        if joined.status_code == 200:
            person.left.discard(game.public_id)
            self._follow(person, game.public_id)

    @precondition(lambda self: self._lobbies())
    @rule(data=st.data())
    @tallied
    def lobby_start(self, data: st.DataObject) -> None:
        game = data.draw(st.sampled_from(self._lobbies()))
        host = self._person(game.owner_id)
        assert host is not None
        started = host.api.post(f"/api/v1/games/{game.public_id}/start")
        if self._refused(host, started.status_code):
            return
        assert started.status_code in (200, 409), started.json()  # 409: a seat is free
        if started.status_code == 200:
            self.games.add(game.public_id)

    @precondition(lambda self: Seat.objects.filter(game__public_id__in=self.lobbies).exists())
    @rule(data=st.data())
    @tallied
    def lobby_leave(self, data: st.DataObject) -> None:
        seats = Seat.objects.filter(game__public_id__in=self.lobbies).select_related("game")
        # Mostly a guest of a lobby (a host leaving aborts it, which tests less).
        guests = seats.filter(game__status=Game.Status.LOBBY).exclude(user=F("game__owner"))
        choice = list(guests.order_by("pk")) or list(seats.order_by("pk"))
        seat = data.draw(st.sampled_from(choice))
        game_id = seat.game.public_id
        person = self._person(seat.user_id)
        assert person is not None
        left = person.api.post(f"/api/v1/games/{game_id}/leave")
        if self._refused(person, left.status_code):
            return
        assert left.status_code in (204, 409), left.json()  # 409: the game is over
        seated = Seat.objects.filter(game__public_id=game_id, user=person.user).exists()
        if left.status_code != 204 or seated:
            return  # a running game's seat is kept; the host's lobby was aborted
        person.left.add(game_id)
        if game_id in person.following and self._open_socket(person) is not None:
            # Told at once: the connection stops following the game.
            self._wait_for(person, lambda s: {"type": "unsubscribed", "game": game_id} in s.frames)
            person.following.discard(game_id)

    # ------------------------------------------------------------ sanctions, deletion

    def _until_closed(self, person: Person) -> None:
        if person.socket is not None:
            self._wait_for(person, lambda s: s.closed is not None)
            assert person.socket.closed in CLOSED_BY_SERVER

    # Sanctions keep two open people at least, so that a run goes on testing what
    # closed accounts do to open ones rather than only refusals.
    @precondition(lambda self: len(self._open_people()) >= 2)
    @rule(data=st.data())
    @tallied
    def ban(self, data: st.DataObject) -> None:
        """A moderator bans a person, or tries the built-in bot (always refused)."""
        person = data.draw(st.sampled_from([*self._involved(), None]))
        if person is None:
            with pytest.raises(NotAllowed):
                moderation.ban_create(
                    user=self.bot, moderator=self.moderator, reason="spam", permanent=True
                )
            return
        moderation.ban_create(
            user=person.user, moderator=self.moderator, reason="abuse", permanent=True
        )
        person.banned_at = timezone.now()
        self._until_closed(person)

    @precondition(lambda self: any(p.banned_at and not p.deleted_at for p in self.people))
    @rule(data=st.data())
    @tallied
    def unban(self, data: st.DataObject) -> None:
        banned = [p for p in self.people if p.banned_at and not p.deleted_at]
        person = data.draw(st.sampled_from(banned))
        moderation.ban_lift(user=person.user, moderator=self.moderator, reason="appeal")
        person.banned_at = None
        self._connect(person)

    @precondition(lambda self: len(self._open_people()) >= 3)
    @rule(data=st.data())
    @tallied
    def delete(self, data: st.DataObject) -> None:
        person = data.draw(st.sampled_from([*self._involved(), *self.people]))
        deleted = person.api.post("/api/v1/me/delete", {"password": PASSWORD})
        if self._refused(person, deleted.status_code):
            return
        assert deleted.status_code == 204, deleted.json()
        person.deleted_at = timezone.now()
        person.user.refresh_from_db()
        self._until_closed(person)

    @rule(data=st.data())
    @tallied
    def mute(self, data: st.DataObject) -> None:
        person = data.draw(st.sampled_from(self.people))
        until = timezone.now() + timedelta(hours=1)
        # A mute silences the chat and nothing else (no lifecycle handler): the
        # invariants hold the same.
        moderation.mute_create(
            user=person.user, moderator=self.moderator, reason="rude", ends_at=until
        )

    # ------------------------------------------------------------ play

    def _playable(self) -> list[Game]:
        """The machine's running games whose player to move is one of its people."""
        games = Game.objects.filter(public_id__in=self.games, status=Game.Status.ACTIVE)
        people = {p.user.pk for p in self.people}
        return [
            game
            for game in games.order_by("pk")
            if game.seats.filter(position=game.to_move, user_id__in=people).exists()
        ]

    @precondition(lambda self: self._playable())
    @rule(data=st.data())
    @tallied
    def move(self, data: st.DataObject) -> None:
        """The player to move plays a plain move over the API (a closed account's is
        refused)."""
        game = data.draw(st.sampled_from(self._playable()))
        deal = current_engine_deal(game)
        person = self._person(game.seats.get(position=deal.to_move).user_id)
        assert person is not None
        body = {"action": greedy_action(deal).to_dict(), "ply": game.ply}
        played = person.api.post(f"/api/v1/games/{game.public_id}/actions", body, format="json")
        if not self._refused(person, played.status_code):
            assert played.status_code == 200, played.json()

    # ------------------------------------------------------------ feeds

    @rule(data=st.data())
    @tallied
    def push_subscribe(self, data: st.DataObject) -> None:
        person = data.draw(st.sampled_from(self.people))
        endpoint = f"http://127.0.0.1:9/push/{person.user.pk}-{next(self.pushes)}"
        made = person.api.post(
            "/api/v1/me/push-subscriptions",
            {"endpoint": endpoint, "keys": push_keys()},
            format="json",
        )
        if not self._refused(person, made.status_code):
            assert made.status_code == 201, made.json()

    @rule(data=st.data())
    @tallied
    def calendar(self, data: st.DataObject) -> None:
        person = data.draw(st.sampled_from(self.people))
        settings_answer = person.api.get("/api/v1/me/notifications")
        if self._refused(person, settings_answer.status_code):
            return
        person.feed = site_path(settings_answer.json()["calendar_url"])
        assert Client().get(person.feed).status_code == 200

    # ------------------------------------------------------------ invariants

    @invariant()
    def counted(self) -> None:
        global _steps_run
        _steps_run += 1

    @invariant()
    def no_pending_challenge_of_a_closed_account(self) -> None:
        closed = [p.user.pk for p in getattr(self, "people", []) if p.closed]
        pending = Challenge.objects.filter(status=Challenge.Status.PENDING)
        assert not pending.filter(challenger_id__in=closed).exists()
        assert not pending.filter(destination_id__in=closed).exists()

    @invariant()
    def no_new_seat_for_a_closed_account(self) -> None:
        for person in getattr(self, "people", []):
            if not person.closed:
                continue
            seats = Seat.objects.filter(user=person.user)
            assert not seats.filter(game__status=Game.Status.LOBBY).exists()
            assert not seats.filter(game__created_at__gt=person.closed_at).exists()

    @invariant()
    def no_feed_push_or_socket_of_a_closed_account(self) -> None:
        for person in getattr(self, "people", []):
            if not person.closed:
                continue
            assert not PushSubscription.objects.filter(user=person.user).exists()
            assert not PlayerSettings.objects.filter(
                user=person.user, calendar_secret__isnull=False
            ).exists()
            if person.feed is not None:
                assert Client().get(person.feed).status_code == 404
            assert person.socket is None or person.socket.closed in CLOSED_BY_SERVER

    @invariant()
    def a_player_who_left_gets_nothing_of_that_game(self) -> None:
        for person in getattr(self, "people", []):
            socket = self._open_socket(person)
            if socket is None or not person.left:
                continue
            self.sockets.run(socket.drain())
            for game_id in person.left:
                frames = [f for f in socket.frames if f.get("game") == game_id]
                ends = [i for i, f in enumerate(frames) if f["type"] == "unsubscribed"]
                after = frames[ends[-1] + 1 :] if ends else frames
                assert after == [], f"{person.user} left {game_id} and still got {after}"
                assert person.user.pk not in presence.connected_users(game_id)

    @invariant()
    def no_hidden_card_for_anyone_but_its_holder(self) -> None:
        games = Game.objects.filter(
            public_id__in=getattr(self, "games", set()), status=Game.Status.ACTIVE
        )
        for game in games:
            for person in self.people:
                if person.closed:
                    continue
                view = person.api.get(f"/api/v1/games/{game.public_id}")
                if view.status_code == 200:
                    you = view.json()["you"]
                    assert_view_hides_secrets(view.json(), you, game)
                    log = person.api.get(f"/api/v1/games/{game.public_id}/moves")
                    assert_log_hides_secrets(log.json(), you, game)
                    self.reviews_hide_secrets(person, game, you)
            deal = Deal.objects.filter(game=game).order_by("-number").first()
            if deal is not None:
                staff = Client()
                staff.force_login(self.viewer)
                page = staff.get(f"/admin/games/deal/{deal.pk}/change/")
                assert page.status_code == 200
                assert "hand of seat" not in page.content.decode()

    @staticmethod
    def reviews_hide_secrets(person: Any, game: Game, you: int | None) -> None:
        """The review of each ended deal of a running game: the reader's own turns."""
        ended = Deal.objects.filter(game=game, finished_at__isnull=False)
        for number in ended.values_list("number", flat=True):
            review = person.api.get(f"/api/v1/games/{game.public_id}/deals/{number}/review")
            if review.status_code == 200:
                assert_review_hides_secrets(review.json(), you, game)
            else:
                assert review.status_code in (403, 409), review.json()

    @invariant()
    def a_built_in_bot_is_never_sanctioned(self) -> None:
        if hasattr(self, "bot"):
            assert not Sanction.objects.filter(user=self.bot).exists()


def test_no_sanction_or_deletion_leaves_a_seam_open(
    transactional_db: None, settings: Any, record_property: Any
) -> None:
    settings.PUSH_ALLOW_LOCAL_ENDPOINTS = True
    AccountLifecycle.sockets = SocketLoop()
    try:
        run_state_machine_as_test(
            AccountLifecycle,
            settings=settings_for_ci(),
        )
    finally:
        AccountLifecycle.sockets.stop()
    steps = _steps_run - _machines
    record_property("steps", steps)
    print(f"\naccount lifecycle machine: {steps} steps run in {_machines} examples")
    print(", ".join(f"{name} {count}" for name, count in sorted(_rules_run.items())))
    assert steps >= MAX_EXAMPLES


def settings_for_ci() -> hypothesis_settings:
    return hypothesis_settings(
        max_examples=MAX_EXAMPLES,
        stateful_step_count=STEPS,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        # No shrinking: a failing run prints its steps as they came, and shrinking
        # against a real database, Redis and websockets would take minutes of CI.
        phases=[Phase.generate],
        database=None,
    )
