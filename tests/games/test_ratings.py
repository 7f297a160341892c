"""Ratings of rated games (games.ratings): applied once, in the finishing transaction,
in the right direction; casual, aborted and unfinished games never rate."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import Rating, RatingChange
from games import ratings
from games.errors import InvalidRequest
from games.live import publisher
from games.models import Game, Seat
from games.play.create import game_create
from games.play.finish import game_finish
from games.play.lobby import game_abort, game_join, game_start
from games.play.resign import game_resign, game_seat_out_and_end
from tests.gamekit import current_engine_deal, everyone_moves
from tests.games.match_play_kit import ONE_DEAL, act, play_quick_deal, time_out_of_the_game

pytestmark = pytest.mark.django_db


def change_of(game, user):
    return RatingChange.objects.get(game=game, user=user)


# ------------------------------------------------------------------ the standings


@pytest.mark.parametrize(
    ("standings", "ranks"),
    [
        ([(-280, False), (400, False)], [1, 2]),
        ([(100, False), (100, False)], [1, 1]),
        ([(120, False), (40, False), (40, False), (10, True)], [3, 1, 1, 4]),
        ([(500, False), (0, True), (-100, True)], [1, 2, 2]),
        ([(30, True), (20, True)], [2, 1]),  # everyone out: totals alone decide
    ],
)
def test_match_ranks_follow_the_totals_and_put_the_players_out_last(standings, ranks):
    assert ratings.match_ranks(standings) == ranks


def test_the_displayed_scale_starts_at_1500_and_is_provisional():
    assert ratings.displayed(ratings.MU) == 1500
    assert ratings.deviation(ratings.SIGMA) == 500
    assert ratings.is_provisional(ratings.SIGMA)
    assert not ratings.is_provisional(ratings.PROVISIONAL_SIGMA)


# ------------------------------------------------------------------ rated games


def test_a_two_player_rated_game_moves_the_ratings_apart(lobby, quick_deals):
    game, users = lobby(players=2, rated=True, overrides=ONE_DEAL)
    game = game_start(game=game, user=users[0])

    game, winner = play_quick_deal(game, users)

    loser = next(user for user in users if user != winner)
    assert game.status == Game.Status.FINISHED and game.end_reason == "completed"
    won, lost = change_of(game, winner), change_of(game, loser)
    assert (won.rank, lost.rank) == (1, 2)
    assert won.rating_before == lost.rating_before == 1500
    assert won.rating_after > 1500 > lost.rating_after
    assert won.sigma_after < won.sigma_before
    rating = Rating.objects.get(user=winner, rules="serbian")
    assert (rating.games, rating.rating, rating.mu) == (1, won.rating_after, won.mu_after)
    assert not Rating.objects.filter(rules="macedonian").exists()


def test_a_four_player_rated_game_ranks_every_seat(lobby, quick_deals):
    game, users = lobby(players=4, rated=True)
    game = game_start(game=game, user=users[0])
    game, starter = play_quick_deal(game, users)  # the starter -280, the others +400
    out = next(seat for seat in game.seats.all() if seat.user != starter)

    # The host ends the match for an absent player (docs/rules.md §10): that seat is out.
    game_seat_out_and_end(game=game, position=out.position, expected_ply=game.ply, reason="absent")

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    changes = {c.user_id: c for c in RatingChange.objects.filter(game=game)}
    assert len(changes) == 4
    first, last = changes[starter.pk], changes[out.user_id]
    middle = [c for uid, c in changes.items() if uid not in (starter.pk, out.user_id)]
    assert (first.rank, last.rank, sorted(c.rank for c in middle)) == (1, 4, [2, 2])
    assert first.change > 0 > last.change
    assert all(last.change < c.change < first.change for c in middle)
    assert middle[0].rating_after == middle[1].rating_after  # a tie moves alike


def test_resigning_players_rank_last_and_the_last_one_in_wins(started):
    game, users = started(players=4, preset="polish51", rated=True)
    everyone_moves(game, users)

    for user in users[1:]:
        game_resign(game=game, user=user)

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winners == [0]
    ranks = {c.position: c.rank for c in RatingChange.objects.filter(game=game)}
    assert ranks == {0: 1, 1: 2, 2: 2, 3: 2}
    assert change_of(game, users[0]).change > 0
    assert Rating.objects.get(user=users[3], rules="polish51").rating < 1500


def test_a_seat_put_out_by_timeouts_rates_as_a_loss(started):
    game, users = started(players=2, preset="polish51", rated=True)
    game = everyone_moves(game, users)
    mover = current_engine_deal(game).to_move

    game = time_out_of_the_game(game)

    assert game.status == Game.Status.FINISHED and game.end_reason == "timeout"
    assert change_of(game, users[mover]).rank == 2
    assert change_of(game, users[1 - mover]).change > 0


def test_the_game_over_event_tells_the_rating_changes(started, monkeypatch, transactional_db):
    published = []
    monkeypatch.setattr(
        publisher, "game_committed", lambda game_id, batch, state: published.extend(batch)
    )
    game, users = started(players=2, preset="polish51", rated=True)
    everyone_moves(game, users)

    game_resign(game=game, user=users[1])

    (over,) = [event for _ply, event in published if event["type"] == "game_over"]
    assert [c["position"] for c in over["rating_changes"]] == [0, 1]
    winner, loser = over["rating_changes"]
    assert winner["rating_before"] == loser["rating_before"] == 1500
    assert winner["change"] == winner["rating_after"] - 1500 > 0 > loser["change"]
    game.refresh_from_db()
    assert over["rating_changes"] == ratings.game_rating_changes(game)


def test_ratings_carry_over_to_the_next_rated_game(started):
    first_game, users = started(players=2, preset="polish51", rated=True)
    everyone_moves(first_game, users)
    game_resign(game=first_game, user=users[1])
    game = game_create(owner=users[0], preset="polish51", players=2, rated=True)
    game_join(game=game, user=users[1])
    game = game_start(game=game, user=users[0])
    everyone_moves(game, users)

    game_resign(game=game, user=users[1])

    earlier, later = RatingChange.objects.filter(user=users[0]).order_by("created_at", "id").all()
    assert later.rating_before == earlier.rating_after < later.rating_after
    assert Rating.objects.get(user=users[0], rules="polish51").games == 2


# ------------------------------------------------------------------ never rated


def test_a_casual_game_does_not_rate(started):
    game, users = started(players=2, preset="polish51")

    game_resign(game=game, user=users[0])

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert not RatingChange.objects.exists() and not Rating.objects.exists()


def test_aborted_and_unfinished_games_do_not_rate(lobby, started):
    waiting, users = lobby(players=2, rated=True)
    game_abort(game=waiting, user=users[0])
    running, _ = started(players=2, preset="polish51", rated=True)
    game_abort(game=running)  # the system may abort a running game

    assert Game.objects.filter(status=Game.Status.ABORTED).count() == 2
    assert ratings.game_rate(game=running, seats=list(running.seats.all())) == []
    assert not RatingChange.objects.exists() and not Rating.objects.exists()


def test_a_resignation_before_every_player_has_moved_is_too_short_to_rate(started):
    game, users = started(players=2, preset="polish51", rated=True)
    mover = current_engine_deal(game).to_move
    act(game, users[mover], current_engine_deal(game).legal_actions()[0])

    game_resign(game=game, user=users[1 - mover])  # before a move of their own

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winners == [mover]
    assert not RatingChange.objects.exists() and not Rating.objects.exists()
    assert ratings.game_rating_changes(game) == []


def test_a_player_who_never_showed_up_does_not_lose_rating(started):
    game, users = started(players=2, preset="polish51", rated=True)
    mover = current_engine_deal(game).to_move

    game = time_out_of_the_game(game)

    assert game.status == Game.Status.FINISHED and game.winners == [1 - mover]
    assert not RatingChange.objects.exists()


def test_a_rated_game_cannot_seat_built_in_bots(user_factory, bots):
    with pytest.raises(InvalidRequest) as error:
        game_create(owner=user_factory(), preset="serbian", players=2, rated=True, bots=bots[:1])

    assert error.value.code == "rated_with_bots"


# ------------------------------------------------------------------ exactly once


def test_a_game_is_applied_exactly_once_even_if_the_finish_runs_again(started):
    game, users = started(players=2, preset="polish51", rated=True)
    everyone_moves(game, users)
    game_resign(game=game, user=users[0])
    game.refresh_from_db()
    before = list(Rating.objects.order_by("user_id").values_list("mu", "sigma", "games"))

    with transaction.atomic():
        seats = list(Seat.objects.select_related("user__profile").filter(game=game))
        again = ratings.game_rate(game=game, seats=seats)
        game_finish(game, seats, reason="completed", now=timezone.now())

    assert again == []
    assert RatingChange.objects.filter(game=game).count() == 2
    after = list(Rating.objects.order_by("user_id").values_list("mu", "sigma", "games"))
    assert after == before


def test_the_database_refuses_a_second_change_for_a_game_and_player(started):
    game, users = started(players=2, preset="polish51", rated=True)
    everyone_moves(game, users)
    game_resign(game=game, user=users[0])
    first = change_of(game, users[0])
    first.pk = None

    with pytest.raises(IntegrityError), transaction.atomic():
        first.save()
