"""Ratings of rated games: openskill's Plackett-Luce model, one rating per rule family.

**Family.** A rating belongs to a user and a rule family, the game's preset
(``macedonian``, ``serbian``, ``polish51``); house rules do not make a new family.

**Model.** openskill's ``PlackettLuce`` with its defaults (mu 25, sigma 25/3, beta
25/6, tau 25/300). Every player is a team of one; the ranks are the match's final
standings (``match_ranks``): among the seats still in, the lowest total ranks first
(the winners of ``games.play.finish``), equal totals share a rank; seats that resigned
or were put out (timeouts, absence) share the last rank. With everyone out, totals
alone decide.

**Displayed rating.** Lichess-like numbers: ``rating = 1500 + 60 * (mu - 25)``,
rounded, so a newcomer shows 1500 with a deviation of ``60 * sigma`` = 500 (lichess's
starting RD). We show the estimate itself (mu), as lichess shows Glicko's, not the
conservative ordinal mu - 3 sigma: the ordinal climbs with every game played, even
for a player who loses half of them. The uncertainty is carried by the
**provisional** flag instead: a rating is provisional while sigma > 6.5 (about ten
two-player or a dozen four-player matches) and only established ratings appear on
the leaderboard.

**When.** ``game_rate`` is called by ``games.play.finish`` in the transaction that
finishes a game (every path: the last deal, a resignation, a seat put out, the host
ending the game). Only finished games with ``rated`` set are rated, once: the
``RatingChange`` rows (unique per game and user) are the record that a game was
applied, and a second call finds them and does nothing. Aborted games never reach
here. A game left (resigned, timed out, put out) before its first deal ended and
before every player had made a move of their own is too short to rate, as lichess
aborts such games: otherwise two accounts could trade rating points without
playing. A finished deal is real play: a dry hand before the other player's first
turn still rates. Games with a built-in bot seat are never rated (``game_create`` refuses to
create them rated); external bot accounts (``Profile.is_bot`` without a level) are
rated like people. A built-in bot's own rating, from its games against people, is
computed apart and changes no one's (``games.bot_ratings``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import groupby
from operator import attrgetter
from typing import Any, Protocol

from django.contrib.auth.models import User
from django.db.models import Count, Max, OuterRef, QuerySet, Subquery, Sum
from django.utils import timezone
from openskill.models import PlackettLuce

from accounts.models import Rating, RatingChange, is_builtin_bot
from accounts.moderation.selectors import marked_user_ids
from games.engine import PRESETS
from games.models import Game, Move, Seat

MU = 25.0
SIGMA = MU / 3
BASE = 1500
SCALE = 60.0
PROVISIONAL_SIGMA = 6.5
LEADERBOARD_SIZE = 50

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


def displayed(mu: float) -> int:
    """The number players see for an estimate ``mu``."""
    return round(BASE + SCALE * (mu - MU))


def deviation(sigma: float) -> int:
    """The uncertainty of a displayed rating, on its scale."""
    return round(SCALE * sigma)


def is_provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


# ------------------------------------------------------------------ standings


def match_ranks(standings: Sequence[tuple[int, bool]]) -> list[int]:
    """Ranks (1 = best, ties share, "1224" style) for ``(total, out)`` per seat.

    >>> match_ranks([(120, False), (40, False), (40, False), (10, True)])
    [3, 1, 1, 4]
    """
    contenders = [total for total, out in standings if not out]
    everyone_out = not contenders
    if everyone_out:
        contenders = [total for total, _out in standings]
    ranks = []
    for total, out in standings:
        if out and not everyone_out:
            ranks.append(len(contenders) + 1)
        else:
            ranks.append(1 + sum(1 for other in contenders if other < total))
    return ranks


# ------------------------------------------------------------------ the write


def game_rate(*, game: Game, seats: Sequence[Seat]) -> list[RatingChange]:
    """Apply a finished rated ``game`` to its players' ratings; the changes made
    (none for a casual, unfinished or already rated game).

    Expects the caller's transaction to hold the game's row lock and ``seats`` to
    carry the final totals and statuses (saved or not yet). Locks the players'
    rating rows (in user order, so two games finishing at once cannot deadlock).
    """
    if not game.rated or game.status != Game.Status.FINISHED or len(seats) < 2:
        return []
    if any(is_builtin_bot(seat.user) for seat in seats):
        return []
    if RatingChange.objects.filter(game=game).exists():
        return []  # applied already: a finish path run again changes nothing
    if too_short_to_rate(game, seats):
        return []
    rules = game.preset
    ranks = match_ranks([(seat.total, seat.status == Seat.Status.OUT) for seat in seats])
    users = sorted({seat.user_id for seat in seats})
    for user_id in users:
        Rating.objects.get_or_create(
            user_id=user_id,
            rules=rules,
            defaults={"mu": MU, "sigma": SIGMA, "rating": displayed(MU)},
        )
    locked = {
        rating.user_id: rating
        for rating in Rating.objects.select_for_update()
        .filter(rules=rules, user_id__in=users)
        .order_by("user_id")
    }
    before = [locked[seat.user_id] for seat in seats]
    teams = [[_MODEL.create_rating([rating.mu, rating.sigma])] for rating in before]
    after = _MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    changes = []
    for seat, rank, rating, (new,) in zip(seats, ranks, before, after, strict=True):
        change = RatingChange(
            game=game,
            user_id=seat.user_id,
            rules=rules,
            position=seat.position,
            rank=rank,
            mu_before=rating.mu,
            sigma_before=rating.sigma,
            mu_after=new.mu,
            sigma_after=new.sigma,
            rating_before=rating.rating,
            rating_after=displayed(new.mu),
        )
        changes.append(change)
        rating.mu, rating.sigma = new.mu, new.sigma
        rating.rating = change.rating_after
        rating.games += 1
        rating.save(update_fields=["mu", "sigma", "rating", "games", "updated_at"])
    RatingChange.objects.bulk_create(changes)
    return changes


def too_short_to_rate(game: Game, seats: Sequence[Seat]) -> bool:
    """Was the game left before any deal ended and before every player had moved?"""
    if game.deals.filter(result__isnull=False).exists():
        return False  # a deal was played out (a completed match always has one)
    return not everyone_played(game, seats)


def everyone_played(game: Game, seats: Sequence[Seat]) -> bool:
    """Has every seat's player sent a move of their own (a resignation is none)?"""
    movers = set(
        Move.objects.filter(game=game, user__isnull=False)
        .exclude(kind="resign")
        .values_list("user_id", flat=True)
        .distinct()
    )
    return all(seat.user_id in movers for seat in seats)


# ------------------------------------------------------------------ taking results back


def results_revert(*, user: User) -> dict[str, int]:
    """Take back the rated results of every game ``user`` played, for all its players:
    their rating changes are marked reverted (kept, with no effect) and each rule
    family's ratings are recomputed from the first such game on. Returns the games
    taken back per family (none: nothing to take back). Expects a transaction."""
    mine = RatingChange.objects.filter(user=user, reverted=False)
    first: dict[str, datetime] = {}
    counts: dict[str, int] = {}
    for rules, finished in mine.values_list("rules", "game__finished_at"):
        counts[rules] = counts.get(rules, 0) + 1
        if finished is not None and (rules not in first or finished < first[rules]):
            first[rules] = finished
    RatingChange.objects.filter(
        game_id__in=list(mine.values_list("game_id", flat=True)), reverted=False
    ).update(reverted=True)
    for rules, since in first.items():
        ratings_recompute(rules=rules, since=since)
    return counts


def ratings_recompute(*, rules: str, since: datetime) -> int:
    """Replay the rated games of family ``rules`` finished at or after ``since``, in the
    order they finished, from the ratings their players had before: rewrite those
    games' rating changes (a reverted game leaves its players' ratings as they were)
    and the players' ratings. Returns the games replayed. Locks the players' rating
    rows in user order, as ``game_rate`` does: a game finishing meanwhile waits."""
    later = RatingChange.objects.filter(rules=rules, game__finished_at__gte=since)
    users = sorted(set(later.values_list("user_id", flat=True)))
    list(
        Rating.objects.select_for_update()
        .filter(rules=rules, user_id__in=users)
        .order_by("user_id")
    )
    rows = list(later.order_by("game__finished_at", "game_id", "position"))
    state = _estimates_before(rules, users, since)
    replayed = 0
    for _game, changes in groupby(rows, key=attrgetter("game_id")):
        group = list(changes)
        before = [state[change.user_id] for change in group]
        after = before
        if not group[0].reverted:
            teams = [[_MODEL.create_rating([mu, sigma])] for mu, sigma in before]
            rated = _MODEL.rate(teams, ranks=[float(change.rank) for change in group])
            after = [(new.mu, new.sigma) for (new,) in rated]
        for change, (mu, sigma), (new_mu, new_sigma) in zip(group, before, after, strict=True):
            change.mu_before, change.sigma_before = mu, sigma
            change.mu_after, change.sigma_after = new_mu, new_sigma
            change.rating_before, change.rating_after = displayed(mu), displayed(new_mu)
            state[change.user_id] = (new_mu, new_sigma)
        replayed += 1
    RatingChange.objects.bulk_update(rows, _ESTIMATE_FIELDS, batch_size=500)
    played = dict(
        RatingChange.objects.filter(rules=rules, user_id__in=users, reverted=False)
        .values("user_id")
        .annotate(count=Count("id"))
        .values_list("user_id", "count")
    )
    ratings = list(Rating.objects.filter(rules=rules, user_id__in=users))
    for rating in ratings:
        rating.mu, rating.sigma = state[rating.user_id]
        rating.rating = displayed(rating.mu)
        rating.games = played.get(rating.user_id, 0)
    now = timezone.now()
    for rating in ratings:
        rating.updated_at = now  # bulk_update leaves auto_now alone
    Rating.objects.bulk_update(
        ratings, ["mu", "sigma", "rating", "games", "updated_at"], batch_size=500
    )
    return replayed


_ESTIMATE_FIELDS = [
    "mu_before",
    "sigma_before",
    "rating_before",
    "mu_after",
    "sigma_after",
    "rating_after",
]


def _estimates_before(
    rules: str, users: list[int], since: datetime
) -> dict[int, tuple[float, float]]:
    """Each user's (mu, sigma) in ``rules`` just before ``since``: after their last
    rated game before it, or a newcomer's."""
    prior = RatingChange.objects.filter(
        rules=rules, user_id=OuterRef("user_id"), reverted=False, game__finished_at__lt=since
    ).order_by("-game__finished_at", "-game_id")
    found = (
        Rating.objects.filter(rules=rules, user_id__in=users)
        .annotate(
            prior_mu=Subquery(prior.values("mu_after")[:1]),
            prior_sigma=Subquery(prior.values("sigma_after")[:1]),
        )
        .values_list("user_id", "prior_mu", "prior_sigma")
    )
    state = {user_id: (MU, SIGMA) for user_id in users}
    for user_id, mu, sigma in found:
        if mu is not None:
            state[user_id] = (mu, sigma)
    return state


# ------------------------------------------------------------------ reads


@dataclass(frozen=True)
class RatingEntry:
    rules: str
    rating: int
    deviation: int
    provisional: bool
    games: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "rating": self.rating,
            "deviation": self.deviation,
            "provisional": self.provisional,
            "games": self.games,
        }


class Estimate(Protocol):
    """What an entry is made of: a player's ``Rating`` or a built-in bot's ``BotRating``."""

    rating: int
    sigma: float
    games: int


def ratings_of(user: User) -> list[dict[str, Any]]:
    """The user's rating in every rule family (1500, provisional, for one never played)."""
    return rating_entries({rating.rules: rating for rating in Rating.objects.filter(user=user)})


def ratings_of_many(user_ids: Sequence[int]) -> dict[int, list[dict[str, Any]]]:
    """``ratings_of`` for several users, in one query."""
    found: dict[int, dict[str, Rating]] = {user_id: {} for user_id in user_ids}
    for rating in Rating.objects.filter(user_id__in=user_ids):
        found[rating.user_id][rating.rules] = rating
    return {user_id: rating_entries(rows) for user_id, rows in found.items()}


def rating_entries(found: Mapping[str, Estimate]) -> list[dict[str, Any]]:
    """One entry a rule family, from the estimates ``found`` by family (a ``Rating`` or a
    built-in bot's ``BotRating``); 1500, provisional and 0 games for a family without."""
    entries = []
    for rules in PRESETS:
        rating = found.get(rules)
        if rating is None:
            entry = RatingEntry(rules, displayed(MU), deviation(SIGMA), True, 0)
        else:
            entry = RatingEntry(
                rules,
                rating.rating,
                deviation(rating.sigma),
                is_provisional(rating.sigma),
                rating.games,
            )
        entries.append(entry.to_dict())
    return entries


def ratings_version(user: User) -> str:
    """A token that changes whenever the user's rating history does: a rated game
    finished (the games counted) or ratings recomputed (every rewritten rating row is
    stamped). What is drawn from the history can be kept under it."""
    found = Rating.objects.filter(user=user).aggregate(at=Max("updated_at"), games=Sum("games"))
    at = found["at"].isoformat() if found["at"] is not None else "-"
    return f"{found['games'] or 0}:{at}"


# Up to this many latest changes are found and read in one statement.
_ONE_READ_MOST = 50


def rating_history(user: User, *, limit: int = 20) -> QuerySet[RatingChange]:
    """The user's latest rating changes, newest first, with their games.

    The latest ``limit`` are found in the index ``rating_change_user_latest`` alone
    (user, newest first, ties by id: an index-only scan that stops at ``limit``),
    then only those rows are read. A prepared statement's generic plan, which knows
    no user, otherwise sorted all of a veteran's thousands of changes. (The games'
    rulesets are left in the database: nothing shown of a change needs them.)"""
    order = ("-created_at", "-id")
    latest: Any = RatingChange.objects.filter(user=user).order_by(*order).values("pk")[:limit]
    if limit > _ONE_READ_MOST:
        # Hundreds of ids as a subquery make PostgreSQL hash a scan of every change
        # against them: read the ids first, then the rows by primary key.
        latest = [row["pk"] for row in latest]
    return (
        RatingChange.objects.filter(pk__in=latest)
        .select_related("game")
        .defer("game__ruleset")
        .order_by(*order)
    )


def rating_change_entry(change: RatingChange) -> dict[str, Any]:
    return {
        "game": change.game.public_id,
        "rules": change.rules,
        "rank": change.rank,
        "rating_before": change.rating_before,
        "rating_after": change.rating_after,
        "change": change.change,
        "provisional": is_provisional(change.sigma_after),
        "created_at": change.created_at,
    }


def game_rating_changes(game: Game) -> list[dict[str, Any]] | None:
    """Per seat, what a finished rated game did to its players' ratings (None for a
    game not rated, or not yet finished)."""
    if not game.rated or game.status != Game.Status.FINISHED:
        return None
    return seat_changes(RatingChange.objects.filter(game=game))


def seat_changes(changes: Iterable[RatingChange]) -> list[dict[str, Any]]:
    """The public form of a game's rating changes, in seat order."""
    return [
        {
            "position": change.position,
            "rank": change.rank,
            "rating_before": change.rating_before,
            "rating_after": change.rating_after,
            "change": change.change,
            "provisional": is_provisional(change.sigma_after),
        }
        for change in sorted(changes, key=lambda change: change.position)
    ]


def leaderboard(*, rules: str, limit: int = LEADERBOARD_SIZE) -> list[dict[str, Any]]:
    """The best established (not provisional) ratings of a rule family, best first."""
    ratings = (
        Rating.objects.filter(rules=rules, sigma__lte=PROVISIONAL_SIGMA, user__is_active=True)
        .exclude(user_id__in=marked_user_ids())  # fair-play marks leave the leaderboards
        .select_related("user__profile")
        .order_by("-rating", "-games", "user__username")[:limit]
    )
    return [
        {
            "rank": place,
            "username": rating.user.username,
            "display_name": rating.user.profile.display_name,
            "is_bot": rating.user.profile.is_bot,
            "rating": rating.rating,
            "deviation": deviation(rating.sigma),
            "games": rating.games,
        }
        for place, rating in enumerate(ratings, start=1)
    ]
