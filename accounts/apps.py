from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Every user has a profile; the OpenAPI scheme for our token authentication.
        from accounts import schema, signals  # noqa: F401
