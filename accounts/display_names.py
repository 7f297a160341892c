"""What a display name may not be: a name made to pass for another account's.

Display names are what the table, the chat and the leaderboard show, often
without the username beside them, and unlike usernames they need not be unique
(two players may both be "Marko"). What is refused is passing for someone:

- another account's username, in any spelling that reads the same (case,
  compatibility forms, look-alike letters of another alphabet; the rule of
  ``accounts.usernames``): "Marko" beside the account "marko";
- a built-in bot's display name: "Expert Emil" is the site's bot;
- a word that mixes look-alike alphabets ("Мarko" with a Cyrillic "М"), the
  way such a name is made to pass for another. Different words may be in
  different alphabets: "Марко (Marko)".

A name that does not change is never refused: an account keeps the display
name it has even if a look-alike username signed up after it.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db.models import Q, QuerySet
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts import usernames
from accounts.models import BUILTIN_BOTS, Profile

ANOTHERS_USERNAME = _("Choose a name of your own: this one reads as another player's username.")
A_BOTS_NAME = _("Choose a name of your own: this one reads as a bot's name.")
MIXED_ALPHABETS = _(
    "Write each word of the name in one alphabet: a word mixes letters of different "
    "alphabets that look alike."
)


def reading(name: str) -> str:
    """How ``name`` reads: its look-alike letters in Latin, case and spacing folded."""
    return " ".join(usernames.latin_reading(usernames.stored_form(name)).casefold().split())


def named_apart(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``entries`` (each with a ``display_name``), each marked ``named_apart`` where another
    entry's display name reads the same: a list of people then shows their usernames."""
    counts = Counter(reading(entry["display_name"]) for entry in entries)
    return [
        {**entry, "named_apart": counts[reading(entry["display_name"])] > 1} for entry in entries
    ]


def named_alone(display_name: str, username: str) -> str:
    """How a person is named with nobody beside them (a challenge's mail and push): the
    display name, and the username after it unless the name reads as it, so that nobody
    passes for a friend by taking their display name (``static/js/names.js`` names
    people the same way on the pages)."""
    if reading(display_name) == reading(username):
        return display_name
    return gettext("%(name)s (@%(username)s)") % {"name": display_name, "username": username}


def refuse_posing(name: str, *, account: User | None) -> None:
    """Raise ``ValidationError`` if ``name`` would let ``account`` (None: one being
    signed up) pass for another account."""
    if account is not None and name == _current(account):
        return
    for word in usernames.stored_form(name).split():
        if usernames.is_mixed(word):
            raise ValidationError(MIXED_ALPHABETS, code="mixed_alphabets")
    others = User.objects.all() if account is None else User.objects.exclude(pk=account.pk)
    if " " not in name.strip() and _reads_as_a_username(name.strip(), others):
        raise ValidationError(ANOTHERS_USERNAME, code="anothers_name")
    bots = others.filter(BUILTIN_BOTS).values_list("profile__display_name", flat=True)
    if reading(name) in {reading(bot) for bot in bots}:
        raise ValidationError(A_BOTS_NAME, code="anothers_name")


def _current(account: User) -> str:
    """The account's display name as stored (``account.profile`` may be an older read)."""
    return str(Profile.objects.values_list("display_name", flat=True).get(user=account))


def _reads_as_a_username(name: str, accounts: QuerySet[User]) -> bool:
    if not name:
        return False
    form = usernames.stored_form(name)
    same = Q(username__iexact=form) | Q(username__iregex=usernames.same_reading_pattern(form))
    return accounts.filter(same).exists()
