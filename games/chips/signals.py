"""Every person has a chip account from the start."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from games.chips import services


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="games_chip_account_open")
def chip_account_open(
    sender: Any, instance: Any, created: bool, raw: bool = False, **kwargs: Any
) -> None:
    # Whoever creates a user (signup, a bot account, the admin, a test), it gets its
    # starting grant in the same transaction. Users made before chips existed get
    # theirs with their first staked game or the next daily top-up.
    if created and not raw:
        services.account_open(user=instance)
