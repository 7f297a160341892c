from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models
from django.db.models import Q
from knox.models import AbstractAuthToken
from knox.settings import CONSTANTS


class Profile(models.Model):
    """What other players see of a user, and whether the user is a bot.

    Created with the user (see signals.py): ``user.profile`` always exists.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    display_name = models.CharField(max_length=40)
    bio = models.TextField(max_length=500, blank=True)
    country = models.CharField(
        max_length=2,
        blank=True,
        validators=[RegexValidator(r"^[A-Z]{2}$", "Use an ISO 3166-1 alpha-2 code, e.g. RS.")],
        help_text="ISO 3166-1 alpha-2 country code, e.g. RS; empty if not given.",
    )
    avatar = models.CharField(
        max_length=200, blank=True, help_text="An emoji, or an https:// image URL."
    )
    is_bot = models.BooleanField(default=False)
    bot_level = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Strength of a bot, 1 (weakest) to 4; empty for people."
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(is_bot=False, bot_level__isnull=True)
                | Q(is_bot=True, bot_level__isnull=False),
                name="profile_bot_level_only_for_bots",
            ),
        ]

    def __str__(self) -> str:
        return self.display_name


class ApiToken(AbstractAuthToken):
    """A personal API token: knox's hashed token plus a name and the last-used time.

    This is knox's token model (``KNOX_TOKEN_MODEL``), so knox creates and checks it;
    the raw token is shown once, at creation, and only its digest is stored. The
    public id is a plain number: the digest never leaves the server.
    """

    # Annotated: knox is untyped, so the django-stubs plugin cannot infer these.
    id: models.BigAutoField[int, int] = models.BigAutoField(primary_key=True)
    digest: models.CharField[str, str] = models.CharField(
        max_length=CONSTANTS.DIGEST_LENGTH, unique=True
    )
    name: models.CharField[str, str] = models.CharField(max_length=64)
    last_used: models.DateTimeField[datetime | None, datetime | None] = models.DateTimeField(
        null=True, blank=True
    )

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = "API token"

    def __str__(self) -> str:
        return f"{self.name} ({self.user})"

    def is_expired(self, now: datetime) -> bool:
        expiry: datetime | None = self.expiry
        return expiry is not None and expiry <= now
