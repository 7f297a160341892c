"""A person's settings: their name, language, which emails they want, the chat, and
whether others see them online, and how the cards are coloured.

Most live on the profile; "your turn" emails are the games' play settings
(``games.models.PlayerSettings``, the detailed notification settings), changed here
through their own command so that there is one place for them.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from accounts.models import Profile
from games.models import PlayerSettings
from games.play.vacation import play_settings_update

PROFILE_SETTINGS = (
    "display_name",
    "language",
    "email_challenges",
    "email_report_outcomes",
    "chat_enabled",
    "show_online",
    "card_colours",
)
SETTINGS = (*PROFILE_SETTINGS, "email_turns")


def settings_of(user: User) -> dict[str, Any]:
    """Every setting of the user (a player who never changed their play settings has
    the defaults)."""
    profile = user.profile
    email_turns = (
        PlayerSettings.objects.filter(user=user).values_list("email_turns", flat=True).first()
    )
    return {
        **{field: getattr(profile, field) for field in PROFILE_SETTINGS},
        "email_turns": email_turns or PlayerSettings.EmailTurns.EACH_MOVE.value,
    }


@transaction.atomic
def settings_update(*, user: User, **changes: Any) -> dict[str, Any]:
    """Change some of the user's settings (one transaction); returns them all."""
    unknown = set(changes) - set(SETTINGS)
    if unknown:
        raise TypeError(f"not a setting: {', '.join(sorted(unknown))}")
    profile_changes = {field: changes[field] for field in PROFILE_SETTINGS if field in changes}
    if profile_changes:
        profile = Profile.objects.select_for_update().get(user=user)
        for field, value in profile_changes.items():
            setattr(profile, field, value)
        profile.full_clean()
        profile.save(update_fields=sorted(profile_changes))
        user.profile = profile
    if "email_turns" in changes:
        play_settings_update(user=user, email_turns=changes["email_turns"])
    return settings_of(user)
