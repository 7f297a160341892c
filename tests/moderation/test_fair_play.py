"""Fair-play marks: a marked account leaves the leaderboards; its rated results can be
taken back, every family's ratings recomputed as if those games had not been rated;
the admin lists the pairs of accounts that play each other suspiciously."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from openskill.models import PlackettLuce

from accounts.models import FairPlayMark, ModAction, Rating, RatingChange
from accounts.moderation import services
from accounts.moderation.errors import Conflict
from games import ratings
from games.play import moderation as game_moderation
from games.play.resign import game_resign

pytestmark = pytest.mark.django_db


def established(user: Any, rating: int) -> Rating:
    return Rating.objects.create(
        user=user, rules="serbian", mu=25 + (rating - 1500) / 60, sigma=4.0, rating=rating, games=30
    )


def leaderboard_names(client: Any) -> list[str]:
    body = client.get("/api/v1/leaderboard", {"rules": "serbian"}).json()
    return [player["username"] for player in body["results"]]


def test_a_marked_account_leaves_the_leaderboards_until_the_mark_is_removed(
    user_factory: Callable[..., Any], moderator: Any, moderator_client: Client, api_client: Any
) -> None:
    best, second = user_factory(username="best"), user_factory(username="second")
    established(best, 2100)
    established(second, 1900)
    assert leaderboard_names(api_client) == ["best", "second"]

    marked = moderator_client.post(
        f"/admin/auth/user/{best.pk}/act/mark/", {"kind": "cheating", "reason": "engine moves"}
    )

    assert marked.status_code == 302
    assert leaderboard_names(api_client) == ["second"]
    page = Client().get("/accounts/leaderboard/", {"rules": "serbian"}).content.decode()
    assert "second" in page and ">best<" not in page
    services.mark_remove(user=best, moderator=moderator, kind="cheating", reason="appeal")
    assert leaderboard_names(api_client) == ["best", "second"]
    assert list(ModAction.objects.order_by("id").values_list("action", flat=True)) == [
        "mark",
        "unmark",
    ]


def finished(rated_game: Callable[..., Any], winner: Any, loser: Any) -> Any:
    """A rated game between the two, long enough to rate, that the loser resigns."""
    game, _ = rated_game(2, users=[winner, loser])
    return game_resign(game=game, user=loser)


def test_taking_back_an_accounts_results_recomputes_the_ratings_without_its_games(
    rated_game: Callable[..., Any],
    user_factory: Callable[..., Any],
    moderator_client: Client,
) -> None:
    cheat, bob, carol = (user_factory(username=name) for name in ("cheat", "bob", "carol"))
    first = finished(rated_game, cheat, bob)
    kept = finished(rated_game, bob, carol)
    last = finished(rated_game, cheat, carol)
    assert Rating.objects.get(user=cheat).games == 2

    response = moderator_client.post(
        f"/admin/auth/user/{cheat.pk}/act/mark/",
        {"kind": "cheating", "reason": "engine moves", "revert": "on"},
        follow=True,
    )

    assert b"Rated results taken back: 2 games (Serbian Remi)." in response.content
    # What the ratings are without the cheat's games: the one game left, from scratch.
    model = PlackettLuce(mu=ratings.MU, sigma=ratings.SIGMA)
    [[won], [lost]] = model.rate([[model.rating()], [model.rating()]], ranks=[1.0, 2.0])
    expected = {cheat.pk: (ratings.MU, ratings.SIGMA, 0), bob.pk: (won.mu, won.sigma, 1)}
    expected[carol.pk] = (lost.mu, lost.sigma, 1)
    for rating in Rating.objects.filter(rules="serbian"):
        mu, sigma, games = expected[rating.user_id]
        assert rating.mu == pytest.approx(mu) and rating.sigma == pytest.approx(sigma)
        assert (rating.rating, rating.games) == (ratings.displayed(mu), games)
    for game in (first, last):
        for change in RatingChange.objects.filter(game=game):
            assert change.reverted and change.change == 0
    replayed = RatingChange.objects.get(game=kept, user=bob)
    assert not replayed.reverted
    assert (replayed.mu_before, replayed.mu_after) == (
        pytest.approx(ratings.MU),
        pytest.approx(won.mu),
    )
    assert FairPlayMark.objects.get().user == cheat
    assert list(ModAction.objects.order_by("id").values_list("action", flat=True)) == [
        "mark",
        "revert",
    ]


def test_the_admin_lists_pairs_that_play_each_other_often_with_lopsided_results(
    rated_game: Callable[..., Any], user_factory: Callable[..., Any], moderator_client: Client
) -> None:
    booster, farm = user_factory(username="booster"), user_factory(username="farm")
    honest, rival = user_factory(username="honest"), user_factory(username="rival")
    for _ in range(5):
        finished(rated_game, booster, farm)
    for winner, loser in [(honest, rival), (rival, honest)] * 3:
        finished(rated_game, winner, loser)  # often, but even

    page = moderator_client.get("/admin/accounts/fairplaymark/pairs/")

    assert page.status_code == 200
    rows = page.content.decode().split('id="suspicious-pairs"')[1]
    assert "booster" in rows and "farm" in rows and "5 – 0" in rows
    assert "honest" not in rows
    loose = moderator_client.get("/admin/accounts/fairplaymark/pairs/", {"min_lopsided": "0.5"})
    assert "honest" in loose.content.decode().split('id="suspicious-pairs"')[1]


def test_results_are_taken_back_alone_and_marks_removed_from_the_admin(
    rated_game: Callable[..., Any],
    user_factory: Callable[..., Any],
    moderator: Any,
    moderator_client: Client,
) -> None:
    booster, farm = user_factory(username="booster"), user_factory(username="farm")
    game = finished(rated_game, booster, farm)
    services.mark_create(user=booster, moderator=moderator, kind="boosting", reason="farm")

    reverted = game_moderation.results_revert(
        user=farm, moderator=moderator, reason="the farm of a booster"
    )
    with pytest.raises(Conflict):
        game_moderation.results_revert(user=farm, moderator=moderator, reason="again")
    unmarked = moderator_client.post(
        f"/admin/auth/user/{booster.pk}/act/unmark/", {"kind": "boosting", "reason": "appeal"}
    )
    no_results = moderator_client.post(
        f"/admin/auth/user/{booster.pk}/act/revert/", {"reason": "again"}
    )

    assert reverted == {"serbian": 1}
    assert all(change.reverted for change in RatingChange.objects.filter(game=game))
    assert Rating.objects.get(user=booster).games == 0
    assert unmarked.status_code == 302
    assert not FairPlayMark.objects.filter(removed_at__isnull=True).exists()
    assert (
        no_results.status_code == 200 and b"has no rated results to take back" in no_results.content
    )
    assert list(ModAction.objects.order_by("id").values_list("action", "target")) == [
        ("mark", booster.pk),
        ("revert", farm.pk),
        ("unmark", booster.pk),
    ]
