from typing import Any

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from accounts.models import Profile


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts_profile_create")
def profile_create(
    sender: Any, instance: Any, created: bool, raw: bool = False, **kwargs: Any
) -> None:
    # Whoever creates a user (signup, createsuperuser, admin, a test), it gets a profile.
    if created and not raw:
        Profile.objects.get_or_create(user=instance, defaults={"display_name": instance.username})
