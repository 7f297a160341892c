from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import account_lifecycle

        # Every new user opens a chip account.
        from games.chips import signals  # noqa: F401

        # What a ban, a deletion, a deactivation or a playban does to the games' side
        # of an account (``accounts.lifecycle`` calls these).
        account_lifecycle.register()
