"""The one path of an account's lifecycle: a ban, a deletion, a deactivation, a playban
or a mute is one ``Change`` that every feature holding something of the account
honours.

A feature registers a handler (``handler_register``) for the changes it cares about,
once, when its app is ready (``games.apps`` registers the games' handlers: challenges,
lobby seats, running games, the calendar feed, push subscriptions, open websockets).
The services that make a change call ``account_changed`` (``on_commit``: after the
change has committed, so that every check reading the sanction or the account already
refuses it). A new feature adds its handler here and cannot be forgotten by the
services; docs/accounts.md lists what each change does.

This module imports nothing of ``games``: moderation's services may not import the
games' writers, and the handlers come to it instead.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

logger = logging.getLogger(__name__)


class Change(enum.StrEnum):
    BAN = "ban"
    DELETION = "deletion"
    DEACTIVATION = "deactivation"
    PLAYBAN = "playban"
    MUTE = "mute"


# The changes after which the account takes part in nothing at all.
CLOSING = frozenset({Change.BAN, Change.DELETION, Change.DEACTIVATION})

# A handler gets the account and the change, and returns a summary of what it did
# (public ids of games, a count) for the caller to show, or None.
Run = Callable[[User, Change], Any]


@dataclass(frozen=True)
class Handler:
    name: str
    changes: frozenset[Change]
    run: Run


_handlers: dict[str, Handler] = {}


def handler_register(name: str, *, changes: Iterable[Change], run: Run) -> None:
    """Register what ``changes`` do to what the feature ``name`` holds of an account.
    Registering a name again replaces its handler (an app made ready twice)."""
    _handlers[name] = Handler(name=name, changes=frozenset(changes), run=run)


def handlers_for(change: Change) -> list[Handler]:
    return [handler for handler in _handlers.values() if change in handler.changes]


def account_changed(*, user: User, change: Change) -> dict[str, Any]:
    """Run every handler registered for ``change`` on ``user``, in the order they were
    registered; returns each one's summary by name. One handler failing is logged and
    does not keep the others from running: a broken feed must not leave a banned
    account's challenges open. Every handler is idempotent (run twice, it finds
    nothing more to do)."""
    done: dict[str, Any] = {}
    for handler in handlers_for(change):
        try:
            done[handler.name] = handler.run(user, change)
        except Exception:
            logger.exception("account %s, %s: the %s handler failed", user.pk, change, handler.name)
    return done


def account_changed_on_commit(*, user: User, change: Change) -> dict[str, Any]:
    """``account_changed`` once the current transaction commits (at once outside one).
    The returned dict is filled when the handlers have run, so a caller outside a
    transaction reads their summaries from it."""
    done: dict[str, Any] = {}
    transaction.on_commit(lambda: done.update(account_changed(user=user, change=change)))
    return done
