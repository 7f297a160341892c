"""The built-in bots' ratings from their games against people (games.bot_ratings): a bot's
estimate moves with its results against people, each game counts once, and no person's
rating changes."""

from __future__ import annotations

import re
import threading
import time
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from accounts.deletion import account_delete
from accounts.models import FairPlayMark, Rating
from games import bot_ratings, tasks
from games.engine import PRESETS
from games.live import publisher
from games.models import BotRating, BotRatingWatermark, Game
from games.play.act import game_act
from games.play.create import game_create
from games.play.lobby import game_abort, game_start
from games.play.resign import game_resign, game_seat_out_and_end
from tests.gamekit import SchemaChecker, current_engine_deal, quick_actions
from tests.user_kit import PASSWORD

pytestmark = pytest.mark.django_db

LATER = timedelta(minutes=5)  # past the time a run leaves a just-ended game to settle


def run() -> int:
    return bot_ratings.bot_ratings_update(now=timezone.now() + LATER)


def act(game: Game, user: Any, action: Any) -> Game:
    game.refresh_from_db()
    return game_act(game=game, user=user, action=action, expected_ply=game.ply).game


def started_against(person: Any, *bots: Any) -> tuple[Game, list[Any]]:
    """A casual serbian game of ``person`` (the host) against ``bots``, started; the
    users by seat."""
    game = game_create(owner=person, preset="serbian", players=1 + len(bots), bots=list(bots))
    game = game_start(game=game, user=person)
    by_id = {user.pk: user for user in (person, *bots)}
    return game, [by_id[seat.user_id] for seat in game.seats.order_by("position")]


def deal_played(game: Game, users: list[Any]) -> Game:
    """The starter of the first (quick) deal goes out at once, whoever it is: the match
    goes on to its next deal."""
    starter = users[current_engine_deal(game).to_move]
    for action in quick_actions():
        game = act(game, starter, action)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.deal_number == 2
    return game


def person_loses(person: Any, bot: Any) -> Game:
    """A deal played, then the person resigns: the bot wins the match."""
    game, users = started_against(person, bot)
    game = deal_played(game, users)
    game_resign(game=game, user=person)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def person_wins(person: Any, bot: Any) -> Game:
    """A deal played, then the host ends the match with the bot's seat out."""
    game, users = started_against(person, bot)
    game = deal_played(game, users)
    position = users.index(bot)
    game_seat_out_and_end(game=game, position=position, expected_ply=game.ply, reason="absent")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def bot_rating(bot: Any, rules: str = "serbian") -> BotRating:
    return BotRating.objects.get(user=bot, rules=rules)


@pytest.fixture
def goran(bots: list[Any]) -> Any:
    return next(bot for bot in bots if bot.profile.bot_level == 2)


@pytest.fixture
def beginner(bots: list[Any]) -> Any:
    return next(bot for bot in bots if bot.profile.bot_level == 1)


# ------------------------------------------------------------------ the estimate


def test_a_bot_that_beats_a_person_gains_and_one_that_loses_drops():
    newcomer = bot_ratings.Standing(25.0, 25 / 3, 400, False)
    beaten = bot_ratings.bot_estimate(bot_ratings.Standing(25.0, 25 / 3, -280, False), [newcomer])
    outplayed = bot_ratings.bot_estimate(bot_ratings.Standing(25.0, 25 / 3, 0, True), [newcomer])
    assert beaten[0] > 25.0 > outplayed[0]
    assert beaten[1] < 25 / 3 and outplayed[1] < 25 / 3


# ------------------------------------------------------------------ the run


def test_a_person_who_loses_to_a_bot_raises_its_rating_and_keeps_their_own(
    user_factory, goran, quick_deals
):
    person = user_factory()
    Rating.objects.create(user=person, rules="serbian", mu=30.0, sigma=4.0, rating=1800, games=40)
    person_loses(person, goran)

    assert run() == 1

    rating = bot_rating(goran)
    assert rating.games == 1 and rating.rating > 1500 and rating.mu > 25.0
    assert rating.sigma < 25 / 3
    mine = Rating.objects.get(user=person, rules="serbian")
    assert (mine.mu, mine.sigma, mine.rating, mine.games) == (30.0, 4.0, 1800, 40)
    assert not Rating.objects.filter(user=goran).exists()  # the bot has no person's rating
    assert not Rating.objects.filter(user=person).exclude(rules="serbian").exists()


def test_a_person_who_beats_a_bot_lowers_its_rating(user_factory, goran, quick_deals):
    person_wins(user_factory(), goran)

    assert run() == 1

    assert bot_rating(goran).rating < 1500
    assert not Rating.objects.exists()  # nobody's rating was made or moved


def test_a_second_run_counts_nothing_again(user_factory, goran, quick_deals):
    person_loses(user_factory(), goran)
    assert run() == 1
    before = bot_rating(goran)

    assert run() == 0

    after = bot_rating(goran)
    assert (after.games, after.mu, after.sigma) == (1, before.mu, before.sigma)


def test_the_games_after_the_watermark_are_counted_by_the_next_run(
    user_factory, goran, quick_deals
):
    first = person_loses(user_factory(), goran)
    assert run() == 1
    mark = BotRatingWatermark.objects.get()
    assert (mark.last_finished_at, mark.last_game_id) == (first.finished_at, first.pk)

    person_loses(user_factory(), goran)
    person_wins(user_factory(), goran)

    assert run() == 2
    assert bot_rating(goran).games == 3


def test_a_run_counts_in_batches_in_the_order_the_games_finished(user_factory, goran, quick_deals):
    games = [person_loses(user_factory(), goran) for _ in range(3)]
    later = timezone.now() + LATER

    assert bot_ratings.bot_ratings_update(now=later, batch=2) == 2
    assert BotRatingWatermark.objects.get().last_game_id == games[1].pk
    assert bot_ratings.bot_ratings_update(now=later, batch=2) == 1
    assert bot_rating(goran).games == 3


def test_a_game_that_just_ended_waits_for_a_later_run(user_factory, goran, quick_deals):
    person_loses(user_factory(), goran)

    assert bot_ratings.bot_ratings_update(now=timezone.now()) == 0

    assert run() == 1


def test_a_game_of_bots_only_is_not_counted(goran, beginner, bots, quick_deals):
    game, users = started_against(beginner, goran)
    game = deal_played(game, users)
    game_seat_out_and_end(
        game=game, position=users.index(goran), expected_ply=game.ply, reason="absent"
    )
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED

    assert run() == 0
    assert not BotRating.objects.exists()


def test_an_aborted_game_is_not_counted(user_factory, goran, quick_deals):
    person = user_factory()
    game, users = started_against(person, goran)
    deal_played(game, users)
    game_abort(game=game)

    assert run() == 0
    assert not BotRating.objects.exists()


def test_a_game_too_short_to_rate_is_not_counted(user_factory, goran, quick_deals):
    person = user_factory()
    game, _users = started_against(person, goran)
    game_resign(game=game, user=person)  # before any deal ended or the person moved
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED

    assert run() == 0
    assert not BotRating.objects.exists()


def test_a_game_with_a_person_marked_for_fair_play_is_not_counted(user_factory, goran, quick_deals):
    cheat, fair, moderator = user_factory(), user_factory(), user_factory()
    person_loses(cheat, goran)
    person_loses(fair, goran)
    FairPlayMark.objects.create(user=cheat, kind="boosting", reason="r", created_by=moderator)

    assert run() == 1  # the marked person's game is passed over, for good

    assert bot_rating(goran).games == 1
    FairPlayMark.objects.filter(user=cheat).update(removed_at=timezone.now())
    assert run() == 0


def test_a_bot_at_a_table_of_three_counts_against_the_people_only(
    user_factory, goran, beginner, quick_deals
):
    person = user_factory()
    game, users = started_against(person, goran, beginner)
    game = deal_played(game, users)
    # The host ends the match for the absent person: both bots place above them.
    game_seat_out_and_end(
        game=game, position=users.index(person), expected_ply=game.ply, reason="absent"
    )
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED

    assert run() == 1

    assert bot_rating(goran).games == bot_rating(beginner).games == 1
    assert bot_rating(goran).rating > 1500 and bot_rating(beginner).rating > 1500


def test_a_deleted_person_s_games_are_counted_without_error(user_factory, goran, quick_deals):
    person = user_factory()
    person_wins(person, goran)
    game, users = started_against(person, goran)
    deal_played(game, users)

    account_delete(user=person, password=PASSWORD)  # resigns the running game

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert run() == 2
    assert bot_rating(goran).games == 2


def test_ratings_read_as_a_player_s_are_shaped(goran, beginner, user_factory, quick_deals):
    person_loses(user_factory(), goran)
    run()

    entries = bot_ratings.bot_ratings_of_many([goran.pk, beginner.pk])

    serbian = next(entry for entry in entries[goran.pk] if entry["rules"] == "serbian")
    assert serbian["games"] == 1 and serbian["provisional"] is True
    assert serbian["rating"] == bot_rating(goran).rating
    assert {entry["games"] for entry in entries[beginner.pk]} == {0}
    assert set(serbian) == {"rules", "rating", "deviation", "provisional", "games"}


def test_the_beat_counts_the_games_every_ten_minutes(
    settings, user_factory, goran, quick_deals, monkeypatch
):
    assert settings.CELERY_BEAT_SCHEDULE["bot-ratings"] == {
        "task": "games.tasks.bot_ratings_update",
        "schedule": 600.0,
        "options": {"expires": 600.0},
    }
    person_loses(user_factory(), goran)
    later = timezone.now() + LATER
    monkeypatch.setattr(timezone, "now", lambda: later)

    assert tasks.bot_ratings_update() == 1
    assert tasks.bot_ratings_update() == 0


# ------------------------------------------------------------------ where they show


def serbian_cell(html: str, username: str) -> str:
    """The bots page's serbian cell of ``username``'s row (the first family column)."""
    row = html[html.index(f'data-bot="{username}"') :]
    row = row[: row.index("</tr>")]
    cells = re.split(r"<td\b[^>]*>", row)
    return cells[4 + list(PRESETS).index("serbian")]


def test_the_bots_page_shows_a_bot_s_rating_and_its_games_against_people(
    user_factory, goran, beginner, quick_deals
):
    person_loses(user_factory(), goran)
    run()
    shown = bot_rating(goran).rating

    html = Client(HTTP_ACCEPT_LANGUAGE="en").get("/bots/").content.decode()

    assert f"{shown}?" in serbian_cell(html, goran.username)  # "1512?": a rating is never grouped
    assert "from 1 game against people" in serbian_cell(html, goran.username)
    assert "no games against people yet" in serbian_cell(html, beginner.username)
    assert "change no one&#x27;s rating" in html or "changes no one" in html


def test_the_bots_page_counts_games_in_the_reader_s_plural(user_factory, goran, quick_deals):
    for _ in range(2):
        person_loses(user_factory(), goran)
    run()

    html = Client(HTTP_ACCEPT_LANGUAGE="pl").get("/bots/").content.decode()

    assert "na podstawie 2 gier przeciw ludziom" in serbian_cell(html, goran.username)


def test_a_bot_s_own_page_shows_its_rating_from_games_against_people(
    user_factory, goran, quick_deals
):
    person_loses(user_factory(), goran)
    run()

    html = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/accounts/players/{goran.username}/")

    page = html.content.decode()
    section = page[page.index('id="bot-ratings"') :]
    section = section[: section.index("</section>")]
    serbian = section[section.index('data-rules="serbian"') :]
    assert f"{bot_rating(goran).rating}?" in serbian[: serbian.index("</tr>")]
    assert "from 1 game against people" in section


def test_the_api_lists_a_bot_s_rating_from_games_against_people(
    api_client, user_factory, goran, quick_deals
):
    person_loses(user_factory(), goran)
    run()

    body = api_client.get("/api/v1/bots").json()

    SchemaChecker(api_client).check("GET", "/api/v1/bots", 200, body)
    entry = next(bot for bot in body["results"] if bot["username"] == goran.username)
    serbian = next(rating for rating in entry["ratings"] if rating["rules"] == "serbian")
    rating = bot_rating(goran)
    assert serbian == {
        "rules": "serbian",
        "rating": rating.rating,
        "deviation": round(60 * rating.sigma),
        "provisional": True,
        "games": 1,
    }


def test_a_bot_s_public_profile_in_the_api_gives_its_rating_from_games_against_people(
    api_client, user_factory, goran, quick_deals
):
    person_loses(user_factory(), goran)
    run()

    body = api_client.get(f"/api/v1/users/{goran.username}").json()

    SchemaChecker(api_client).check("GET", "/api/v1/users/{username}", 200, body)
    serbian = next(rating for rating in body["ratings"] if rating["rules"] == "serbian")
    assert (serbian["rating"], serbian["games"]) == (bot_rating(goran).rating, 1)


def test_the_admin_lists_a_bot_s_rating_by_its_name_read_only(
    admin_client, user_factory, goran, quick_deals
):
    person_loses(user_factory(), goran)
    run()
    rating = bot_rating(goran)

    listed = admin_client.get("/admin/games/botrating/?q=" + goran.username)
    page = admin_client.get(f"/admin/games/botrating/{rating.pk}/change/")

    assert listed.status_code == 200
    assert goran.username in listed.content.decode()
    assert page.status_code == 200
    assert f"{goran.username} in Serbian Remi: {rating.rating}" in page.content.decode()
    assert admin_client.post(f"/admin/games/botrating/{rating.pk}/delete/").status_code == 403


# ------------------------------------------------------------------ two runs at once


def lock_waiters(table: str) -> int:
    """Sessions of this database waiting on a lock in a statement about ``table``."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND wait_event_type = 'Lock' AND query ILIKE %s",
            [f"%{table}%"],
        )
        return int(cursor.fetchone()[0])


@pytest.mark.django_db(transaction=True)
def test_two_runs_at_once_count_each_game_once(user_factory, goran, quick_deals, monkeypatch):
    # The bot's moves are played here, not by the tasks a commit would queue.
    monkeypatch.setattr(publisher, "_schedule_work", lambda *args, **kwargs: None)
    for _ in range(3):
        person_loses(user_factory(), goran)
    inside, go_on = threading.Event(), threading.Event()
    count = bot_ratings._count

    def held(*args: Any) -> bool:
        """The first run stops at its first game, the watermark locked, until let go."""
        if not inside.is_set():
            inside.set()
            assert go_on.wait(30)
        return count(*args)

    monkeypatch.setattr(bot_ratings, "_count", held)
    counted: dict[str, int] = {}

    def runner(name: str) -> threading.Thread:
        def work() -> None:
            try:
                counted[name] = run()
            finally:
                connection.close()

        return threading.Thread(target=work)

    first, second = runner("first"), runner("second")
    first.start()
    assert inside.wait(30)
    second.start()
    deadline = time.monotonic() + 30
    while lock_waiters(BotRatingWatermark._meta.db_table) == 0:
        assert time.monotonic() < deadline, "the second run never waited for the first"
        time.sleep(0.05)
    go_on.set()
    first.join(30)
    second.join(30)

    assert counted == {"first": 3, "second": 0}
    assert bot_rating(goran).games == 3
