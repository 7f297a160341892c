"""The statistics recounted from the games: the reference the kept counters must equal.

``counted_stats`` reads every seat of a player and every result of the deals of their
games (what the pages did on each request before the counters were kept: linear in
the number of games). ``stats_rebuild`` compares it with the stored rows and rewrites
those that differ; ``manage.py rebuild_stats`` and the migration that added the rows
call it. The model classes come from ``apps`` so that a migration can pass its own.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from django.apps import apps as global_apps
from django.apps.registry import Apps
from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef

from games.engine import PRESETS
from games.models import Game, Seat
from games.stats.family import COUNTERS, FamilyStats

ZERO = dict.fromkeys(COUNTERS, 0)


@dataclass(frozen=True)
class StatsChange:
    """One row that differed from the recount: its counters before and after."""

    username: str
    rules: str
    before: dict[str, int]
    after: dict[str, int]

    def __str__(self) -> str:
        changed = [name for name in COUNTERS if self.before[name] != self.after[name]]
        what = ", ".join(f"{name} {self.before[name]} -> {self.after[name]}" for name in changed)
        return f"{self.username} {self.rules}: {what}"


def counted_stats(user_id: int, *, apps: Apps = global_apps) -> dict[str, FamilyStats]:
    """The player's statistics per rule family, counted from their games: matches
    started and not aborted, and the results of those matches' deals."""
    seat_model = apps.get_model("games", "Seat")
    deal_model = apps.get_model("games", "Deal")
    families: dict[str, FamilyStats] = {}
    seats = list(
        seat_model.objects.filter(user_id=user_id)
        .exclude(game__status__in=[Game.Status.LOBBY, Game.Status.ABORTED])
        .values_list(
            "game_id", "position", "status", "game__preset", "game__status", "game__winners"
        )
    )
    position_in: dict[int, tuple[int, str]] = {}
    for game_id, position, status, preset, game_status, winners in seats:
        family = families.setdefault(preset, FamilyStats(rules=preset))
        position_in[game_id] = (position, preset)
        if game_status == Game.Status.ACTIVE:
            family.playing += 1
            continue
        family.games += 1
        family.wins += position in (winners or [])
        family.left_early += status == Seat.Status.OUT
    results = deal_model.objects.filter(game_id__in=position_in, result__isnull=False).values_list(
        "game_id", "result"
    )
    for game_id, result in results:
        position, preset = position_in[game_id]
        family = families[preset]
        family.deals += 1
        if result["winner"] == position:
            family.deals_won += 1
            family.hands += result["finish"] == "dry_hand"
        family.deal_points += result["scores"][position]
    return families


def stats_rebuild(
    *, usernames: Collection[str] | None = None, write: bool = True, apps: Apps = global_apps
) -> list[StatsChange]:
    """Recount the statistics of every player (or of ``usernames``) from their games
    and rewrite the rows that differ; the differences found, none when every row was
    right (so a second run changes nothing). ``write=False`` only compares."""
    user_model = apps.get_model(settings.AUTH_USER_MODEL)
    seat_model = apps.get_model("games", "Seat")
    stats_model = apps.get_model("games", "PlayerStats")
    players = user_model.objects.filter(
        Exists(seat_model.objects.filter(user_id=OuterRef("pk")))
        | Exists(stats_model.objects.filter(user_id=OuterRef("pk")))
    )
    if usernames is not None:
        players = players.filter(username__in=usernames)
    changes: list[StatsChange] = []
    for user_id, username in players.order_by("pk").values_list("pk", "username"):
        changes += _player_rebuild(user_id, username, write=write, apps=apps)
    return changes


def _player_rebuild(user_id: int, username: str, *, write: bool, apps: Apps) -> list[StatsChange]:
    """Compare (and rewrite) one player's rows, with those rows locked: a game
    committed before the lock is in the recount, one still open waits for the lock and
    then adds its event to the rewritten row, so a rebuild on a live site loses
    nothing."""
    stats_model = apps.get_model("games", "PlayerStats")
    changes = []
    with transaction.atomic():
        if write:
            # A row must exist to be locked: the families a game could start in.
            stats_model.objects.bulk_create(
                [stats_model(user_id=user_id, rules=rules) for rules in PRESETS],
                ignore_conflicts=True,
            )
        rows = (
            stats_model.objects.select_for_update()
            .filter(user_id=user_id)
            .order_by("rules")
            .values("rules", *COUNTERS)
        )
        stored = {row.pop("rules"): row for row in rows}
        families = counted_stats(user_id, apps=apps)
        counted = {rules: family.counters() for rules, family in families.items()}
        for rules in sorted(stored.keys() | counted.keys()):
            before, after = stored.get(rules, ZERO), counted.get(rules, ZERO)
            if before == after:
                continue
            changes.append(StatsChange(username, rules, before, after))
            if write:
                stats_model.objects.update_or_create(user_id=user_id, rules=rules, defaults=after)
    return changes
