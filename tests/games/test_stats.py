"""A player's statistics and recent games, per rule family: kept as games are played
(always equal to a recount of the games, which ``rebuild_stats`` writes back), read in
one query, and shown by the API (against the schema) and the web pages."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.db.models import F
from django.test import Client
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import stats
from games.models import Deal, Game, PlayerStats
from games.play.act import game_act
from games.play.lobby import game_abort, game_join, game_leave, game_start
from games.play.resign import game_resign, game_seat_out, game_seat_out_and_end
from games.stats.rebuild import counted_stats, stats_rebuild
from tests.gamekit import (
    SchemaChecker,
    current_engine_deal,
    everyone_moves,
    greedy_action,
    quick_actions,
)
from tests.games.concurrency_kit import at_once
from tests.games.match_play_kit import ONE_DEAL, play_quick_deal, time_out_of_the_game

pytestmark = pytest.mark.django_db

TWO_DEALS = {"match_deals": [2, 2, 2]}


def by_rules(user):
    return {family.rules: family for family in stats.player_stats(user)}


def test_a_new_player_has_an_empty_line_for_every_rule_family(user):
    families = stats.player_stats(user)

    assert [family.rules for family in families] == [
        "macedonian",
        "serbian",
        "serbian_old_remi",
        "polish51",
    ]
    assert all(family.games == family.deals == 0 for family in families)
    assert families[0].win_rate is None and families[0].average_deal_score is None
    assert stats.recent_games(user) == []


def test_deals_hands_and_points_are_counted_from_the_results(lobby, quick_deals):
    game, users = lobby(players=2, overrides=TWO_DEALS)
    game = game_start(game=game, user=users[0])

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
        # A dry hand scores -280 for the winner and 400 for the other (docs/rules.md).
        assert serbian.average_deal_score == (-280 * went_out + 400 * (2 - went_out)) / 2
        assert serbian.wins == (user.pk in [users[p].pk for p in game.winners])
        assert by_rules(user)["macedonian"].games == 0


def test_resigning_counts_as_leaving_early_and_recent_games_show_the_place(started):
    game, users = started(players=3, preset="polish51")
    game_resign(game=game, user=users[2])
    game_resign(game=game, user=users[1])

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
    game_abort(game=aborted, user=others[0])

    for user in (*users, *others):
        assert all(family.games == family.playing == 0 for family in stats.player_stats(user))


def test_the_public_profile_api_has_stats_and_recent_games(lobby, quick_deals, api_client):
    game, users = lobby(players=2, overrides=ONE_DEAL)
    game = game_start(game=game, user=users[0])
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
    game_resign(game=game, user=users[1])
    browser = Client()

    page = browser.get(f"/accounts/players/{users[0].username}/")

    assert page.status_code == 200
    text = page.content.decode()
    assert "Statistics" in text and "Recent games" in text
    assert f"/games/{game.public_id}/" in text and "<strong>won</strong>" in text
    assert browser.get("/accounts/players/nobody-here/").status_code == 404
    board = browser.get("/accounts/leaderboard/?rules=polish51")
    assert board.status_code == 200
    assert "Nobody has an established Polish Remik 51 rating yet" in board.content.decode()
    assert browser.get("/accounts/leaderboard/?rules=nonsense").status_code == 200


def test_the_leaderboard_page_lists_established_players(user_factory):
    from accounts.models import Rating

    strong, weak = user_factory(username="strong"), user_factory(username="weak")
    Rating.objects.create(user=strong, rules="serbian", mu=35, sigma=3, rating=2100, games=30)
    Rating.objects.create(user=weak, rules="serbian", mu=20, sigma=3, rating=1200, games=30)

    text = Client().get("/accounts/leaderboard/").content.decode()

    assert text.index("/accounts/players/strong/") < text.index("/accounts/players/weak/")
    assert "2100" in text and "1200" in text  # ratings in digits alone


# ------------------------------------------------------------------ kept as games are played


def recount_differences():
    """The stored rows that differ from a recount of every player's games (none: right)."""
    return stats_rebuild(write=False)


def stored_rows():
    return {
        (row.user_id, row.rules): tuple(getattr(row, name) for name in stats.COUNTERS)
        for row in PlayerStats.objects.all()
    }


def start(lobby, players=2, preset="serbian", overrides=TWO_DEALS):
    game, users = lobby(players=players, preset=preset, overrides=overrides)
    return game_start(game=game, user=users[0]), users


def lobby_with(regular, lobby):
    """The ``lobby`` fixture, with ``regular`` taking the last seat of every game."""

    def make(players=2, **create):
        game, users = lobby(players=players, seated=players - 1, **create)
        game_join(game=game, user=regular)
        return game, [*users[: players - 1], regular]

    return make


def not_to_move(game, users):
    """A player whose turn it is not: taking them out leaves the quick deal playable."""
    return next(u for p, u in enumerate(users) if p != current_engine_deal(game).to_move)


def a_match_played_to_the_end(lobby):
    game, users = start(lobby)
    game, _ = play_quick_deal(game, users)
    game, _ = play_quick_deal(game, users)
    assert game.status == Game.Status.FINISHED and game.end_reason == "completed"


def a_resignation_that_ends_the_match(lobby):
    game, users = start(lobby)
    game, winner = play_quick_deal(game, users)
    game = game_resign(game=game, user=winner)
    assert game.status == Game.Status.FINISHED and game.end_reason == "resigned"


def a_resignation_the_match_survives(lobby):
    game, users = start(lobby, players=3)
    game, _ = play_quick_deal(game, users)
    game_resign(game=game, user=not_to_move(game, users))
    game, _ = play_quick_deal(game, users)
    assert game.status == Game.Status.FINISHED and game.end_reason == "completed"


def a_timeout_that_puts_a_player_out(lobby):
    game, users = start(lobby)
    game, _ = play_quick_deal(game, users)
    game = time_out_of_the_game(game)
    assert game.status == Game.Status.FINISHED and game.end_reason == "timeout"


def a_player_taken_out_while_the_match_plays_on(lobby):
    game, users = start(lobby, players=3)
    game, _ = play_quick_deal(game, users)
    away = game.seats.get(user=not_to_move(game, users)).position
    game_seat_out(game=game, position=away, expected_ply=game.ply, reason="absent")
    game, _ = play_quick_deal(game, users)
    assert game.status == Game.Status.FINISHED and game.winners


def the_host_ending_the_match_for_an_absent_player(lobby):
    game, users = start(lobby, players=3)
    game, _ = play_quick_deal(game, users)
    away = game.seats.get(user=not_to_move(game, users)).position
    game = game_seat_out_and_end(game=game, position=away, expected_ply=game.ply, reason="absent")
    assert game.status == Game.Status.FINISHED and game.end_reason == "absent"


def a_match_aborted_after_a_deal(lobby):
    game, users = start(lobby)
    game, _ = play_quick_deal(game, users)
    assert (by_rules(users[0])["serbian"].deals, by_rules(users[0])["serbian"].playing) == (1, 1)
    game = game_abort(game=game)  # the system may abort a running game
    assert game.status == Game.Status.ABORTED
    assert all(
        family.counters() == dict.fromkeys(stats.COUNTERS, 0)
        for family in by_rules(users[0]).values()
    )


def a_match_under_way_after_a_deal(lobby):
    game, users = start(lobby, players=3)
    game, _ = play_quick_deal(game, users)
    assert game.status == Game.Status.ACTIVE and by_rules(users[1])["serbian"].playing == 1


def lobbies_left_and_aborted(lobby):
    lobby(players=3, seated=2)
    aborted, users = lobby(players=2)
    game_abort(game=aborted, user=users[0])
    left, hosts = lobby(players=2)
    game_leave(game=left, user=hosts[0])
    assert Game.objects.get(pk=left.pk).status == Game.Status.ABORTED


@pytest.mark.parametrize(
    "play",
    [
        a_match_played_to_the_end,
        a_resignation_that_ends_the_match,
        a_resignation_the_match_survives,
        a_timeout_that_puts_a_player_out,
        a_player_taken_out_while_the_match_plays_on,
        the_host_ending_the_match_for_an_absent_player,
        a_match_aborted_after_a_deal,
        a_match_under_way_after_a_deal,
        lobbies_left_and_aborted,
    ],
)
def test_the_counters_kept_during_play_equal_a_recount_after(play, lobby, quick_deals):
    play(lobby)

    assert recount_differences() == []


def test_matches_of_ordinary_deals_count_the_same_as_a_recount(started):
    """Deals won by laying off, with a joker, or ended void: every finish and score."""
    for players, preset in [(3, "polish51"), (2, "polish51"), (4, "polish51")]:
        game, users = started(players=players, preset=preset)
        game = play_to_the_end(game, users)
        assert game.status == Game.Status.FINISHED

    finishes = {result["finish"] for result in Deal.objects.values_list("result", flat=True)}
    assert finishes - {"dry_hand"}, finishes
    assert recount_differences() == []
    assert sum(family.deals for family in stats.player_stats(users[0])) == 1


def play_to_the_end(game, users):
    """Every player plays ``greedy_action`` until the match is over."""
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return game
        deal = current_engine_deal(game)
        game_act(
            game=game, user=users[deal.to_move], action=greedy_action(deal), expected_ply=game.ply
        )


OUTCOMES = [
    a_match_played_to_the_end,
    a_resignation_that_ends_the_match,
    a_timeout_that_puts_a_player_out,
    a_match_aborted_after_a_deal,
    a_match_under_way_after_a_deal,
    the_host_ending_the_match_for_an_absent_player,
]


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(outcomes=st.lists(st.sampled_from(OUTCOMES), min_size=1, max_size=4))
def test_any_sequence_of_outcomes_keeps_the_counters_equal_to_a_recount(
    outcomes, lobby, quick_deals, user_factory
):
    regular = user_factory()  # in every game of the sequence: their rows add everything up

    for outcome in outcomes:
        outcome(lobby_with(regular, lobby))

    assert recount_differences() == []


def test_concurrent_deals_of_one_player_lose_no_increment(
    lobby, quick_deals, user_factory, transactional_db
):
    regular = user_factory()
    lay, discard = quick_actions()
    last_moves = []
    for _ in range(4):
        game, users = lobby(players=2, seated=1, overrides=ONE_DEAL)
        game_join(game=game, user=regular)
        game = game_start(game=game, user=users[0])
        starter = [users[0], regular][current_engine_deal(game).to_move]
        game = game_act(game=game, user=starter, action=lay, expected_ply=game.ply).game
        last_moves.append(
            lambda game=game, starter=starter: game_act(
                game=game, user=starter, action=discard, expected_ply=game.ply
            )
        )

    at_once(*last_moves)  # four deals and matches of the regular end together

    serbian = by_rules(regular)["serbian"]
    assert (serbian.games, serbian.deals, serbian.playing) == (4, 4, 0)
    assert recount_differences() == []


# ------------------------------------------------------------------ the rebuild


def played_a_little(lobby):
    """A finished match, a resignation and a match under way."""
    a_match_played_to_the_end(lobby)
    a_resignation_that_ends_the_match(lobby)
    a_match_under_way_after_a_deal(lobby)


def test_a_rebuild_from_nothing_writes_the_counters_kept_during_play(lobby, quick_deals):
    played_a_little(lobby)
    kept = stored_rows()
    PlayerStats.objects.all().delete()

    changes = stats_rebuild()

    assert {row: counts for row, counts in stored_rows().items() if any(counts)} == {
        row: counts for row, counts in kept.items() if any(counts)
    }
    assert len(changes) == sum(1 for counts in kept.values() if any(counts))
    assert stats_rebuild() == []  # idempotent


def test_the_reference_count_is_what_the_pages_show(lobby, quick_deals):
    played_a_little(lobby)

    players = {row.user for row in PlayerStats.objects.select_related("user")}
    assert len(players) == 2 + 2 + 3
    for player in players:
        shown = {family.rules: family for family in stats.player_stats(player)}
        for rules, family in counted_stats(player.pk).items():
            assert shown[rules] == family


def test_the_rebuild_command_prints_and_repairs_what_differs(lobby, quick_deals):
    game, users = start(lobby, overrides=ONE_DEAL)
    game, winner = play_quick_deal(game, users)
    PlayerStats.objects.filter(user=winner, rules="serbian").update(
        games=F("games") + 5, deal_points=0
    )
    out = StringIO()

    call_command("rebuild_stats", stdout=out)

    assert out.getvalue().splitlines() == [
        f"{winner.username} serbian: games 6 -> 1, deal_points 0 -> -280",
        "1 statistics rows rewritten.",
    ]
    assert by_rules(winner)["serbian"].games == 1
    again = StringIO()
    call_command("rebuild_stats", stdout=again)
    assert again.getvalue() == "Statistics are up to date.\n"


def test_the_rebuild_command_checks_one_player_without_writing(lobby, quick_deals):
    game, users = start(lobby, overrides=ONE_DEAL)
    play_quick_deal(game, users)
    PlayerStats.objects.filter(rules="serbian").update(hands=F("hands") + 1)
    out = StringIO()

    with pytest.raises(SystemExit) as exit_:
        call_command("rebuild_stats", "--check", "--user", users[1].username, stdout=out)

    assert exit_.value.code == 1
    lines = out.getvalue().splitlines()
    assert lines[0].startswith(f"{users[1].username} serbian: hands ")
    assert lines[1:] == ["1 statistics rows differ from their games."]
    assert len(recount_differences()) == 2  # nothing was written
    with pytest.raises(CommandError, match="no such user: nobody"):
        call_command("rebuild_stats", "--user", "nobody")


# ------------------------------------------------------------------ the cost of a read


def test_reading_the_statistics_is_one_query(lobby, quick_deals, django_assert_num_queries):
    game, users = start(lobby)
    play_quick_deal(game, users)

    with django_assert_num_queries(1) as queries:
        stats.player_stats(users[0])

    assert "games_playerstats" in queries.captured_queries[0]["sql"]


def queries_of_the_reads(user):
    """How many queries the API, the player page and the profile page each make (none
    of them reads a deal), each drawing the rating chart anew (it is kept between
    changes of the rating history)."""
    browser = Client()
    browser.force_login(user)
    counts = []
    for path in (
        f"/api/v1/users/{user.username}",
        f"/accounts/players/{user.username}/",
        "/accounts/profile/",
    ):
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            assert browser.get(path).status_code == 200
        counts.append(len(queries))
        assert not any("games_deal" in query["sql"] for query in queries.captured_queries)
    return counts


def test_the_pages_and_the_api_make_as_many_queries_after_more_games(
    lobby, quick_deals, user_factory, django_assert_max_num_queries
):
    regular = user_factory()
    a_match_played_to_the_end(lobby_with(regular, lobby))
    after_one = queries_of_the_reads(regular)
    for play in (a_match_played_to_the_end, a_resignation_that_ends_the_match) * 2:
        play(lobby_with(regular, lobby))

    assert queries_of_the_reads(regular) == after_one
    with django_assert_max_num_queries(max(after_one)):
        Client().get(f"/api/v1/users/{regular.username}")
