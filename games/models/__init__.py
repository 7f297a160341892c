"""Persisted games and what players and moderators keep beside them, a module each:
``play`` (the game, its seats, deals and the append-only move log), ``live`` (players'
settings, mutes, push subscriptions, reminders, the absent player's wait), ``chat``,
``bot_decision`` (a bot's move waiting out its pause), ``challenges``, ``chips``,
``stats``, ``bot_ratings`` (the built-in bots' ratings from their games against people),
``correspondence`` (notes, queued draws, extra time) and ``moderation`` (each look at
hidden cards).

Only the commands of ``games.play`` write the game tables. ``Deal.deck`` and
``Deal.state`` hold every hidden card: what a user may see is always built by the
engine's per-seat view.
"""

from games.models.bot_decision import BotDecision
from games.models.bot_ratings import BotRating, BotRatingWatermark
from games.models.challenges import Challenge, ChallengeInvitee
from games.models.chat import CHAT_MAX_LENGTH, ChatMessage
from games.models.chips import ChipAccount, ChipLedger
from games.models.correspondence import (
    EXTRA_TIME_MAX_DAYS,
    NOTE_MAX_LENGTH,
    ExtraTimeRequest,
    Note,
    PreMove,
)
from games.models.live import (
    DEFAULT_REMINDER_HOURS,
    AbsentWait,
    GameMute,
    PlayerSettings,
    PushSubscription,
    SentReminder,
    default_reminder_hours,
)
from games.models.moderation import ModerationAccess
from games.models.play import Deal, Game, Move, Seat, new_invite_code, new_public_id
from games.models.review import DealReview
from games.models.stats import PlayerStats

__all__ = [
    "AbsentWait",
    "BotDecision",
    "BotRating",
    "BotRatingWatermark",
    "CHAT_MAX_LENGTH",
    "Challenge",
    "ChallengeInvitee",
    "ChatMessage",
    "ChipAccount",
    "ChipLedger",
    "DealReview",
    "DEFAULT_REMINDER_HOURS",
    "Deal",
    "EXTRA_TIME_MAX_DAYS",
    "ExtraTimeRequest",
    "Game",
    "GameMute",
    "ModerationAccess",
    "Move",
    "NOTE_MAX_LENGTH",
    "Note",
    "PlayerSettings",
    "PlayerStats",
    "PreMove",
    "PushSubscription",
    "Seat",
    "SentReminder",
    "default_reminder_hours",
    "new_invite_code",
    "new_public_id",
]
