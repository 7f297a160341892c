from typing import Any

from django.conf import settings
from django.db.models.signals import post_save, pre_save
from django.dispatch import receiver

from accounts import lifecycle
from accounts.models import Profile


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts_profile_create")
def profile_create(
    sender: Any, instance: Any, created: bool, raw: bool = False, **kwargs: Any
) -> None:
    # Whoever creates a user (signup, createsuperuser, admin, a test), it gets a profile.
    if created and not raw:
        Profile.objects.get_or_create(user=instance, defaults={"display_name": instance.username})


@receiver(pre_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts_deactivation_seen")
def deactivation_seen(sender: Any, instance: Any, raw: bool = False, **kwargs: Any) -> None:
    # Whoever unticks "active" (the admin's user page, a shell, a script), the account's
    # lifecycle runs for a deactivation: the row before the save says whether this
    # save is the one that deactivates, and ``deactivation_run`` runs it once saved.
    instance._lifecycle_deactivating = False
    if raw or instance.pk is None or instance.is_active:
        return
    update_fields = kwargs.get("update_fields")
    if update_fields is not None and "is_active" not in update_fields:
        return
    instance._lifecycle_deactivating = sender.objects.filter(
        pk=instance.pk, is_active=True
    ).exists()


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts_deactivation_run")
def deactivation_run(sender: Any, instance: Any, raw: bool = False, **kwargs: Any) -> None:
    if not raw and getattr(instance, "_lifecycle_deactivating", False):
        instance._lifecycle_deactivating = False
        lifecycle.account_changed_on_commit(user=instance, change=lifecycle.Change.DEACTIVATION)
