"""The built-in bots' ratings from their games against people.

Games with a built-in bot seat are never rated (``games.ratings``): a person's rating
never moves for a game against the server's bots. A bot still earns a rating of its own
per rule family, here, after the fact, and it changes no one else's.

**What counts.** A finished game (not aborted) with a built-in bot seat and at least one
person: an account that is not a bot (an external bot account is not a person here; a
deleted person's anonymised account still is). Not counted: a game too short to rate
(``games.ratings.too_short_to_rate``, the rated games' rule) and a game where a person
has a standing fair-play mark when the run looks at it.

**How.** In the order the games finished, each built-in bot seat is rated as in a rated
game (the same openskill Plackett-Luce model, ``match_ranks`` over the final standings)
against the people at the table alone: the bot as it stands here, each person at their
current rating in the family (1500 for none). Only the bot's new estimate is kept.

**When.** ``bot_ratings_update`` (the Celery task ``games.tasks.bot_ratings_update``, every
10 minutes) counts up to ``BATCH`` games a run after the watermark (the finish time and id
of the last game looked at), in one transaction that holds the watermark's row locked: a
second run at the same time waits for it and starts where it ended, so no game is counted
twice. A game is looked at once it ended ``SETTLE`` ago, so that one still committing is
not passed over. Games are found by the bots' own ended seats (``Seat.game_ended_at``, the
game's ``finished_at``, in the index of each player's ended games).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from openskill.models import PlackettLuce

from accounts.models import BUILTIN_BOTS, Rating, is_builtin_bot
from accounts.moderation.selectors import marked_user_ids
from games.models import BotRating, BotRatingWatermark, Deal, Game, Seat
from games.ratings import (
    MU,
    SIGMA,
    displayed,
    everyone_played,
    match_ranks,
    rating_entries,
)

BATCH = 500
SETTLE = timedelta(minutes=1)
WATERMARK_PK = 1

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


# ------------------------------------------------------------------ the estimate


@dataclass(frozen=True)
class Standing:
    """A player's estimate (``mu``, ``sigma``) and where the match left them."""

    mu: float
    sigma: float
    total: int
    out: bool


def bot_estimate(bot: Standing, people: Sequence[Standing]) -> tuple[float, float]:
    """The bot's new (mu, sigma) after a match against ``people`` (the people's own
    estimates are left as they were)."""
    table = [bot, *people]
    ranks = match_ranks([(player.total, player.out) for player in table])
    teams = [[_MODEL.create_rating([player.mu, player.sigma])] for player in table]
    (new,), *_others = _MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    return new.mu, new.sigma


# ------------------------------------------------------------------ the run


def bot_ratings_update(*, now: datetime | None = None, batch: int = BATCH) -> int:
    """Count the next games against people (up to ``batch``) into the built-in bots'
    ratings; returns how many were counted (the games looked at and skipped are not)."""
    until = (now or timezone.now()) - SETTLE
    BotRatingWatermark.objects.get_or_create(pk=WATERMARK_PK)
    with transaction.atomic():
        mark = BotRatingWatermark.objects.select_for_update().get(pk=WATERMARK_PK)
        bot_ids = list(User.objects.filter(BUILTIN_BOTS).values_list("pk", flat=True))
        found = list(_games_after(mark, bot_ids=bot_ids, until=until)[:batch])
        order = [game_id for _ended, game_id in found]
        if not order:
            return 0
        games = Game.objects.only("preset").in_bulk(order)  # not the ruleset's JSON
        seats = _seats_of(order)
        played_out = _played_out(order)
        people = {seat.user_id for rows in seats.values() for seat in rows if _is_person(seat)}
        marked = set(marked_user_ids().filter(user_id__in=people).values_list("user_id", flat=True))
        known = {
            (rating.user_id, rating.rules): (rating.mu, rating.sigma)
            for rating in Rating.objects.filter(user_id__in=people)
        }
        tally = _Tally(BotRating.objects.filter(user_id__in=bot_ids))
        counted = 0
        for game_id in order:
            game = games[game_id]
            if _count(game, seats.get(game_id, []), played_out, marked, known, tally):
                counted += 1
        last_ended, last_id = found[-1]
        mark.last_finished_at, mark.last_game_id = last_ended, last_id
        mark.save(update_fields=["last_finished_at", "last_game_id", "updated_at"])
        tally.save()
    return counted


def _games_after(mark: BotRatingWatermark, *, bot_ids: list[int], until: datetime) -> Any:
    """(ended, game id) of the finished games with a built-in bot seat and a person,
    after the watermark and ended by ``until``, in finish order."""
    seats = Seat.objects.filter(
        user_id__in=bot_ids,
        game_ended_at__isnull=False,
        game_ended_at__lte=until,
        game__status=Game.Status.FINISHED,
    )
    if mark.last_finished_at is not None:
        ended = mark.last_finished_at
        seats = seats.filter(
            Q(game_ended_at__gt=ended) | Q(game_ended_at=ended, game_id__gt=mark.last_game_id)
        )
    person = Seat.objects.filter(game_id=OuterRef("game_id")).filter(_PERSON)
    return (
        seats.filter(Exists(person))
        .values_list("game_ended_at", "game_id")
        .order_by("game_ended_at", "game_id")
        .distinct()
    )


# A seat's player is a person: no bot profile (an account without a profile is a person).
_PERSON = Q(user__profile__is_bot=False) | Q(user__profile__isnull=True)


_SEAT_FIELDS = (
    "game_id",
    "user_id",
    "position",
    "total",
    "status",
    "user__profile__is_bot",
    "user__profile__bot_level",
)


def _seats_of(game_ids: list[int]) -> dict[int, list[Seat]]:
    found: dict[int, list[Seat]] = {}
    # Only what a run reads of a seat and its player: the whole seat, account and
    # profile rows took twice the CPU to load, most of it in their dates.
    rows = (
        Seat.objects.filter(game_id__in=game_ids)
        .select_related("user__profile")
        .only(*_SEAT_FIELDS)
    )
    for seat in rows.order_by("game_id", "position"):
        found.setdefault(seat.game_id, []).append(seat)
    return found


def _played_out(game_ids: list[int]) -> set[int]:
    """The games with a deal played out: never too short to rate. The first half of
    ``games.ratings.too_short_to_rate`` for the whole batch in one query, not one a game;
    only the few others read their move log."""
    rows = Deal.objects.filter(game_id__in=game_ids, result__isnull=False)
    return set(rows.values_list("game_id", flat=True).distinct())


def _is_person(seat: Seat) -> bool:
    profile = getattr(seat.user, "profile", None)
    return profile is None or not profile.is_bot


def _count(
    game: Game,
    seats: list[Seat],
    played_out: set[int],
    marked: set[int],
    known: dict[tuple[int, str], tuple[float, float]],
    tally: _Tally,
) -> bool:
    """Count one game into its bots' estimates; whether it counted."""
    bots = [seat for seat in seats if is_builtin_bot(seat.user)]
    people = [seat for seat in seats if _is_person(seat)]
    if not bots or not people or any(seat.user_id in marked for seat in people):
        return False
    if game.pk not in played_out and not everyone_played(game, seats):
        return False  # too short to rate (``games.ratings.too_short_to_rate``)
    rules = game.preset
    against = [_standing(known.get((seat.user_id, rules), (MU, SIGMA)), seat) for seat in people]
    for seat in bots:
        row = tally.row(seat.user_id, rules)
        row.mu, row.sigma = bot_estimate(_standing((row.mu, row.sigma), seat), against)
        row.rating = displayed(row.mu)
        row.games += 1
    return True


def _standing(estimate: tuple[float, float], seat: Seat) -> Standing:
    mu, sigma = estimate
    return Standing(mu, sigma, seat.total, seat.status == Seat.Status.OUT)


class _Tally:
    """The bots' rating rows of one run: read once, written once at its end."""

    def __init__(self, rows: Any) -> None:
        self._rows: dict[tuple[int, str], BotRating] = {
            (row.user_id, row.rules): row for row in rows
        }
        self._changed: set[tuple[int, str]] = set()

    def row(self, user_id: int, rules: str) -> BotRating:
        key = (user_id, rules)
        if key not in self._rows:
            self._rows[key] = BotRating(
                user_id=user_id, rules=rules, mu=MU, sigma=SIGMA, rating=displayed(MU)
            )
        self._changed.add(key)
        return self._rows[key]

    def save(self) -> None:
        changed = [self._rows[key] for key in sorted(self._changed)]
        now = timezone.now()
        for row in changed:
            row.updated_at = now  # bulk_update leaves auto_now alone
        BotRating.objects.bulk_create([row for row in changed if row.pk is None])
        BotRating.objects.bulk_update(
            [row for row in changed if row.pk is not None],
            ["mu", "sigma", "rating", "games", "updated_at"],
        )


# ------------------------------------------------------------------ reads


def bot_ratings_of_many(user_ids: Sequence[int]) -> dict[int, list[dict[str, Any]]]:
    """Each built-in bot's rating in every rule family from its games against people,
    as ``games.ratings.ratings_of_many`` gives a player's (1500, provisional, 0 games
    where it has none), in one query."""
    found: dict[int, dict[str, BotRating]] = {user_id: {} for user_id in user_ids}
    for rating in BotRating.objects.filter(user_id__in=user_ids):
        found[rating.user_id][rating.rules] = rating
    return {user_id: rating_entries(rows) for user_id, rows in found.items()}


def bot_ratings_of(user: User) -> list[dict[str, Any]]:
    return bot_ratings_of_many([user.pk])[user.pk]
