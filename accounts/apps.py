from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts and moderation")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        # Every user has a profile; the OpenAPI scheme for our token authentication.
        from accounts import schema, signals  # noqa: F401
        from accounts.moderation.roles import moderator_group_ensure

        # The moderator group, made again when a flush emptied the tables.
        post_migrate.connect(moderator_group_ensure, sender=self, dispatch_uid="moderator_group")
