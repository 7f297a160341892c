from typing import Any

from django.core.management.base import BaseCommand

from accounts.services import bots_ensure


class Command(BaseCommand):
    help = "Create the built-in bot accounts (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        bots = bots_ensure()
        if options["verbosity"] < 1:
            return
        for user in bots:
            profile = user.profile
            self.stdout.write(
                f"bot {user.username}: {profile.display_name}, level {profile.bot_level}"
            )
