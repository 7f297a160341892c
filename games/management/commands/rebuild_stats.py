from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.stats.rebuild import stats_rebuild


class Command(BaseCommand):
    help = (
        "Recount the players' statistics from their games and rewrite the rows that "
        "differ, printing each difference (a second run finds none)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--user",
            action="append",
            dest="users",
            metavar="NAME",
            help="only this player (may be repeated)",
        )
        parser.add_argument(
            "--check",
            action="store_true",
            help="compare only: write nothing, exit with status 1 when a row differs",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        usernames: list[str] | None = options["users"]
        check: bool = options["check"]
        if usernames:
            _require_users(usernames)
        changes = stats_rebuild(usernames=usernames, write=not check)
        for change in changes:
            self.stdout.write(str(change))
        if not changes:
            self.stdout.write("Statistics are up to date.")
        elif check:
            self.stdout.write(f"{len(changes)} statistics rows differ from their games.")
            raise SystemExit(1)
        else:
            self.stdout.write(f"{len(changes)} statistics rows rewritten.")


def _require_users(usernames: list[str]) -> None:
    users = get_user_model().objects.filter(username__in=usernames)
    unknown = sorted(set(usernames) - set(users.values_list("username", flat=True)))
    if unknown:
        raise CommandError(f"no such user: {', '.join(unknown)}")
