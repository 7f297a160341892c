"""Writes for accounts: signup, profile edits, API tokens, bot accounts.

Each public function is one transaction. Validation of user input (password
strength, field formats) is the serializers' and forms' job; these functions check
the rules that hold whoever calls them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils.translation import gettext, gettext_noop, ngettext

from accounts import usernames
from accounts.models import ApiToken, Language, Profile
from accounts.scopes import ALL_SCOPES, all_scopes


class AccountError(Exception):
    """A rule of the accounts domain was broken; ``code`` is stable for clients."""

    code = "account_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class UsernameTaken(AccountError):
    code = "username_taken"


class TooManyTokens(AccountError):
    code = "too_many_tokens"


class TokenNotFound(AccountError):
    code = "not_found"


class AlreadyBot(AccountError):
    code = "already_bot"


class AccountHasGames(AccountError):
    code = "account_has_games"


@transaction.atomic
def user_signup(
    *, username: str, password: str, email: str = "", display_name: str = "", language: str = ""
) -> User:
    """Create a person's account and profile. The password must already be validated.

    The email address waits for its verification (``Profile.pending_email``): the
    caller sends the link (accounts.emails). ``language``: the one the person signed up
    in, kept when the site has it (else the default)."""
    taken = UsernameTaken(
        gettext("The username %(username)s is taken.") % {"username": repr(username)}
    )
    if usernames.is_taken(username):
        raise taken
    try:
        with transaction.atomic():  # a savepoint: the same name signed up a moment ago
            user = User.objects.create_user(username=username, password=password)
    except IntegrityError:
        raise taken from None
    profile = user.profile
    profile.display_name = display_name or username
    profile.pending_email = User.objects.normalize_email(email)
    if language in Language.values:
        profile.language = language
    profile.save(update_fields=["display_name", "pending_email", "language"])
    return user


PROFILE_FIELDS = frozenset({"display_name", "bio", "country", "avatar"})


@transaction.atomic
def profile_update(*, user: User, **changes: Any) -> Profile:
    """Change the editable fields of the user's profile (display_name, bio, country, avatar)."""
    unknown = set(changes) - PROFILE_FIELDS
    if unknown:
        raise TypeError(f"not editable: {', '.join(sorted(unknown))}")
    profile = Profile.objects.select_for_update().get(user=user)
    for field, value in changes.items():
        setattr(profile, field, value)
    profile.full_clean()
    profile.save(update_fields=sorted(changes))
    return profile


@transaction.atomic
def token_create(
    *,
    user: User,
    name: str,
    expires_in: timedelta | None = None,
    scopes: Sequence[str] | None = None,
) -> tuple[ApiToken, str]:
    """Create a named API token with ``scopes`` (None: every scope); returns it with
    the raw token, which is not stored."""
    # Lock the user row so that two concurrent creations cannot both pass the limit.
    User.objects.select_for_update().filter(pk=user.pk).first()
    if ApiToken.objects.filter(user=user).count() >= settings.API_TOKENS_PER_USER:
        raise TooManyTokens(
            ngettext(
                "You have %(api_tokens_per_user)s token, the most allowed. Revoke it first.",
                "You have %(api_tokens_per_user)s tokens, the most allowed. Revoke one first.",
                settings.API_TOKENS_PER_USER,
            )
            % {"api_tokens_per_user": settings.API_TOKENS_PER_USER}
        )
    chosen = all_scopes() if scopes is None else [s for s in ALL_SCOPES if s in set(scopes)]
    token, raw = ApiToken.objects.create(user=user, expiry=expires_in, name=name, scopes=chosen)
    return token, raw


@transaction.atomic
def token_revoke(*, user: User, token_id: int) -> None:
    """Delete one of the user's tokens; it stops working at once."""
    deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    if not deleted:
        raise TokenNotFound(gettext("No such token."))


# ------------------------------------------------------------------ bots


@transaction.atomic
def account_upgrade_to_bot(*, user: User) -> Profile:
    """Make the account an external bot account, for good (lichess's "upgrade to bot").

    Only an account that has never played: a seat in a game that started refuses it
    (``AccountHasGames``), so that no person's results become a bot's. The bot has no
    built-in level: the server never plays for it; its program plays through the API
    with the account's tokens, under the same deadlines as anyone.
    """
    from games.models import Seat  # accounts is the lower layer: imported when used

    profile = Profile.objects.select_for_update().get(user=user)
    if profile.is_bot:
        raise AlreadyBot(gettext("This account is already a bot account."))
    played = Seat.objects.filter(user=user, game__started_at__isnull=False).count()
    if played:
        raise AccountHasGames(
            ngettext(
                "This account has played %(played)s game: only an account that has "
                "never played a game can become a bot account. Create a new account for"
                " the bot.",
                "This account has played %(played)s games: only an account that has "
                "never played a game can become a bot account. Create a new account for"
                " the bot.",
                played,
            )
            % {"played": played}
        )
    profile.is_bot = True
    profile.bot_level = None
    profile.save(update_fields=["is_bot", "bot_level"])
    return profile


@dataclass(frozen=True)
class BotSpec:
    username: str
    display_name: str
    level: int
    avatar: str
    bio: str


# The bios are stored in English and shown in the reader's language (games.views).
BUILTIN_BOTS = (
    BotSpec(
        "random-rita", "Random Rita", 1, "🎲", gettext_noop("Plays any legal move. Any at all.")
    ),
    BotSpec(
        "greedy-goran",
        "Greedy Goran",
        2,
        "🐷",
        gettext_noop("Lays down the biggest meld he can, now."),
    ),
    BotSpec(
        "careful-katarina",
        "Careful Katarina",
        3,
        "🦉",
        gettext_noop("Keeps her hand low and waits."),
    ),
    BotSpec("expert-emil", "Expert Emil", 4, "🧠", gettext_noop("Counts every card you pick up.")),
)


@transaction.atomic
def bots_ensure() -> list[User]:
    """Create the built-in bot accounts, or bring them back to their spec. Idempotent."""
    bots = []
    for spec in BUILTIN_BOTS:
        user, created = User.objects.get_or_create(username=spec.username)
        if created or user.has_usable_password():
            user.set_unusable_password()  # nobody logs in as a bot
            user.save(update_fields=["password"])
        user.profile, _ = Profile.objects.update_or_create(
            user=user,
            defaults={
                "display_name": spec.display_name,
                "is_bot": True,
                "bot_level": spec.level,
                "avatar": spec.avatar,
                "bio": spec.bio,
            },
        )
        bots.append(user)
    return bots
