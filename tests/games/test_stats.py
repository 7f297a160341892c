"""A player's statistics and recent games: counted from their games, per rule family,
and shown by the API (against the schema) and the web pages."""

from __future__ import annotations

import pytest
from django.test import Client

from games import services, stats
from games.models import Game
from tests.gamekit import SchemaChecker, everyone_moves
from tests.games.test_ratings import ONE_DEAL, play_quick_deal

pytestmark = pytest.mark.django_db

TWO_DEALS = {"match_deals": [2, 2, 2]}


def by_rules(user):
    return {family.rules: family for family in stats.player_stats(user)}


def test_a_new_player_has_an_empty_line_for_every_rule_family(user):
    families = stats.player_stats(user)

    assert [family.rules for family in families] == ["macedonian", "serbian", "polish51"]
    assert all(family.games == family.deals == 0 for family in families)
    assert families[0].win_rate is None and families[0].average_deal_score is None
    assert stats.recent_games(user) == []


def test_deals_hands_and_points_are_counted_from_the_results(lobby, quick_deals):
    game, users = lobby(players=2, overrides=TWO_DEALS)
    game = services.game_start(game=game, user=users[0])

    game, first_winner = play_quick_deal(game, users)
    assert game.status == Game.Status.ACTIVE
    assert by_rules(first_winner)["serbian"].playing == 1
    game, second_winner = play_quick_deal(game, users)

    assert game.status == Game.Status.FINISHED
    for user in users:
        serbian = by_rules(user)["serbian"]
        went_out = [first_winner, second_winner].count(user)
        assert (serbian.games, serbian.playing, serbian.deals) == (1, 0, 2)
        assert serbian.deals_won == serbian.hands == went_out  # quick deals are dry hands
        # A dry hand scores -280 for the winner and 400 for the other (RULES.md).
        assert serbian.average_deal_score == (-280 * went_out + 400 * (2 - went_out)) / 2
        assert serbian.wins == (user.pk in [users[p].pk for p in game.winners])
        assert by_rules(user)["macedonian"].games == 0


def test_resigning_counts_as_leaving_early_and_recent_games_show_the_place(started):
    game, users = started(players=3, preset="polish51")
    services.game_resign(game=game, user=users[2])
    services.game_resign(game=game, user=users[1])

    left = by_rules(users[1])["polish51"]
    stayed = by_rules(users[0])["polish51"]

    assert (left.games, left.wins, left.left_early) == (1, 0, 1)
    assert (stayed.games, stayed.wins, stayed.left_early, stayed.win_rate) == (1, 1, 0, 1.0)
    (entry,) = stats.recent_games(users[1])
    assert entry["id"] == game.public_id and entry["won"] is False
    assert entry["place"] == 2 and entry["players"] == 3
    assert stats.recent_games(users[0])[0]["place"] == 1


def test_aborted_and_lobby_games_do_not_count(lobby):
    waiting, users = lobby(players=2)
    aborted, others = lobby(players=2)
    services.game_abort(game=aborted, user=others[0])

    for user in (*users, *others):
        assert all(family.games == family.playing == 0 for family in stats.player_stats(user))


def test_the_public_profile_api_has_stats_and_recent_games(lobby, quick_deals, api_client):
    game, users = lobby(players=2, overrides=ONE_DEAL)
    game = services.game_start(game=game, user=users[0])
    game, winner = play_quick_deal(game, users)

    response = api_client.get(f"/api/v1/users/{winner.username}")

    assert response.status_code == 200
    body = response.json()
    serbian = next(entry for entry in body["stats"] if entry["rules"] == "serbian")
    assert serbian == {
        "rules": "serbian",
        "games": 1,
        "wins": 1,
        "win_rate": 1.0,
        "left_early": 0,
        "playing": 0,
        "deals": 1,
        "deals_won": 1,
        "hands": 1,
        "average_deal_score": -280.0,
    }
    assert body["recent_games"][0]["id"] == game.public_id
    assert body["recent_games"][0]["won"] is True
    SchemaChecker(api_client).check("GET", "/api/v1/users/{username}", 200, body)


def test_the_player_page_and_the_leaderboard_page(started, user_factory):
    game, users = started(players=2, preset="polish51", rated=True)
    everyone_moves(game, users)
    services.game_resign(game=game, user=users[1])
    browser = Client()

    page = browser.get(f"/accounts/players/{users[0].username}/")

    assert page.status_code == 200
    text = page.content.decode()
    assert "Statistics" in text and "Recent games" in text
    assert f"/games/{game.public_id}/" in text and "<strong>won</strong>" in text
    assert browser.get("/accounts/players/nobody-here/").status_code == 404
    board = browser.get("/accounts/leaderboard/?rules=polish51")
    assert board.status_code == 200
    assert "Nobody has an established polish51 rating yet" in board.content.decode()
    assert browser.get("/accounts/leaderboard/?rules=nonsense").status_code == 200


def test_the_leaderboard_page_lists_established_players(user_factory):
    from accounts.models import Rating

    strong, weak = user_factory(username="strong"), user_factory(username="weak")
    Rating.objects.create(user=strong, rules="serbian", mu=35, sigma=3, rating=2100, games=30)
    Rating.objects.create(user=weak, rules="serbian", mu=20, sigma=3, rating=1200, games=30)

    text = Client().get("/accounts/leaderboard/").content.decode()

    assert text.index("/accounts/players/strong/") < text.index("/accounts/players/weak/")
    assert "2100" in text and "1200" in text
