"""Rematches at tables of four, whatever the order: a hypothesis state machine over four
people (two finished games: the four of them, and three of them with a built-in bot)
drives the public HTTP API and the moderation services through offers, acceptances,
declines, cancellations, expiries, bans and deletions. After every step it checks:

- at most one rematch offer per game, and at most one waiting;
- a rematch's game exists exactly when it is accepted, every invitee accepted it, and
  it seats the offerer, the invitees and the built-in bots of the old table;
- no offer waits with a banned or deleted account at its table.

Its cost is bounded by ``MAX_EXAMPLES`` × ``STEPS``; the steps run are printed (``-s``).
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
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
from accounts.moderation import services as moderation
from accounts.moderation.selectors import ban_in_force
from games.challenges.services import challenges_expire
from games.models import Challenge, ChallengeInvitee, Game
from games.play.create import game_create
from games.play.lobby import game_join, game_start
from games.play.resign import game_resign

pytestmark = pytest.mark.django_db(transaction=True)

MAX_EXAMPLES = 12
STEPS = 20
PASSWORD = "correct-horse-battery-staple"
PEOPLE = 4

_names = itertools.count(1)
_rules_run: Counter[str] = Counter()
_steps = 0
_started: set[str] = set()  # rematches whose game started, over the whole run


@dataclass
class Person:
    user: Any
    api: APIClient
    closed: bool = False


def finished(people: list[Any], bots: list[Any]) -> Game:
    """A casual game of ``people`` (the first hosts) and ``bots``, every person resigned
    but the host (or, with bots, the host too)."""
    game = game_create(
        owner=people[0], preset="serbian", players=len(people) + len(bots), bots=bots
    )
    for user in people[1:]:
        game_join(game=game, user=user)
    game = game_start(game=game, user=people[0])
    leaving = people[1:] + (people[:1] if bots else [])
    for user in leaving:
        game = game_resign(game=game, user=user)
    assert game.status == Game.Status.FINISHED
    return game


class Rematches(RuleBasedStateMachine):
    @initialize()
    def tables(self) -> None:
        run = next(_names)
        self.people: list[Person] = []
        for index in range(PEOPLE):
            user = get_user_model().objects.create_user(
                username=f"r{run}x{index}", password=PASSWORD
            )
            _token, raw = account_services.token_create(user=user, name="machine")
            api = APIClient()
            api.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
            self.people.append(Person(user=user, api=api))
        self.moderator = get_user_model().objects.create_user(username=f"rmod{run}")
        users = [person.user for person in self.people]
        bot = account_services.bots_ensure()[0]
        self.games = [finished(users, []).public_id, finished(users[:3], [bot]).public_id]

    def _open(self) -> list[Person]:
        return [person for person in self.people if not person.closed]

    def _offer(self, game_id: str) -> Challenge | None:
        return Challenge.objects.filter(rematch_of__public_id=game_id).first()

    def _answer(self, person: Person, path: str, expected: set[int]) -> None:
        answer = person.api.post(path, {}, format="json")
        if person.closed:
            assert answer.status_code in {401, 403}, answer.content
        else:
            assert answer.status_code in expected, answer.json()

    @rule(data=st.data())
    def offer(self, data: st.DataObject) -> None:
        _rules_run["offer"] += 1
        person = data.draw(st.sampled_from(self.people))
        game_id = data.draw(st.sampled_from(self.games))
        # 404: not their game (the second table has three of them).
        self._answer(person, f"/api/v1/games/{game_id}/rematch", {200, 201, 403, 404, 409})

    # Mostly yes, so that tables get to start their rematch.
    @rule(data=st.data(), verb=st.sampled_from(["accept"] * 4 + ["decline", "cancel"]))
    def answer(self, data: st.DataObject, verb: str) -> None:
        offer = self._offer(data.draw(st.sampled_from(self.games)))
        if offer is None:
            return
        _rules_run[verb] += 1
        # Mostly someone of that table; now and then anyone.
        at_table = {offer.challenger_id, *offer.invitees.values_list("user_id", flat=True)}
        asked = [person for person in self.people if person.user.pk in at_table]
        person = data.draw(st.sampled_from(asked * 3 + self.people))
        # 403: not theirs to give (the offerer declining, an invitee cancelling); 404:
        # not at that table; 409: no longer waiting.
        self._answer(person, f"/api/v1/challenges/{offer.public_id}/{verb}", {200, 403, 404, 409})

    @rule(data=st.data())
    def expire(self, data: st.DataObject) -> None:
        offer = self._offer(data.draw(st.sampled_from(self.games)))
        if offer is None or offer.status != Challenge.Status.PENDING:
            return
        _rules_run["expire"] += 1
        Challenge.objects.filter(pk=offer.pk).update(expires_at=timezone.now() - timedelta(1))
        assert challenges_expire() == [offer.public_id]

    # Two open people at least, so that runs go on testing what a closed account does
    # to the open ones.
    @precondition(lambda self: len(self._open()) > 2)
    @rule(data=st.data(), deletion=st.booleans())
    def close(self, data: st.DataObject, deletion: bool) -> None:
        person = data.draw(st.sampled_from(self._open()))
        _rules_run["delete" if deletion else "ban"] += 1
        if deletion:
            gone = person.api.post("/api/v1/me/delete", {"password": PASSWORD})
            assert gone.status_code == 204, gone.content
        else:
            moderation.ban_create(
                user=person.user, moderator=self.moderator, reason="abuse", permanent=True
            )
        person.closed = True

    @invariant()
    def counted(self) -> None:
        global _steps
        _steps += 1

    @invariant()
    def one_offer_per_game_and_one_waiting_at_most(self) -> None:
        for game_id in getattr(self, "games", []):
            offers = Challenge.objects.filter(rematch_of__public_id=game_id)
            assert offers.count() <= 1
            assert offers.filter(status=Challenge.Status.PENDING).count() <= 1

    @invariant()
    def a_game_starts_only_when_everyone_accepted(self) -> None:
        for game_id in getattr(self, "games", []):
            offer = self._offer(game_id)
            if offer is None:
                continue
            answers = list(ChallengeInvitee.objects.filter(challenge=offer))
            accepted = all(row.answer == ChallengeInvitee.Answer.ACCEPTED for row in answers)
            if offer.status != Challenge.Status.ACCEPTED:
                assert offer.game_id is None
                continue
            assert accepted and offer.game is not None
            _started.add(offer.public_id)
            old = Game.objects.get(public_id=game_id)
            assert sorted(offer.game.seats.values_list("user_id", flat=True)) == sorted(
                old.seats.values_list("user_id", flat=True)
            )

    @invariant()
    def no_offer_waits_for_a_closed_account(self) -> None:
        for offer in Challenge.objects.filter(
            rematch_of__public_id__in=getattr(self, "games", []),
            status=Challenge.Status.PENDING,
        ):
            at_table = [offer.challenger_id, *offer.invitees.values_list("user_id", flat=True)]
            for user in get_user_model().objects.filter(pk__in=at_table).select_related("profile"):
                assert user.is_active and user.profile.deleted_at is None
                assert ban_in_force(user_id=user.pk) is None


def test_no_order_of_offers_answers_bans_and_deletions_breaks_a_rematch(
    transactional_db: None, record_property: Any
) -> None:
    run_state_machine_as_test(
        Rematches,
        settings=hypothesis_settings(
            max_examples=MAX_EXAMPLES,
            stateful_step_count=STEPS,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
            # No shrinking against a real database: a failure prints its steps as run.
            phases=[Phase.generate],
            # The same steps on every run: a dozen random runs may never accept an offer,
            # and the check below that every kind of step ran must not depend on luck.
            derandomize=True,
            database=None,
        ),
    )
    record_property("steps", _steps)
    _rules_run["rematches started"] = len(_started)
    print(
        f"\nrematch machine: {_steps} invariant rounds; "
        + ", ".join(f"{name} {count}" for name, count in sorted(_rules_run.items()))
    )
    assert _rules_run["accept"] and _rules_run["offer"]
