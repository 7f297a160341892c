"""Persisted games: the game, its seats, its deals and the append-only move log.

Only the commands of ``games.play`` write these tables. Reads go through
``games.read.selectors``; what a user may see of a deal is always built by the
engine's per-seat view, never from the raw columns below (``Deal.deck`` and
``Deal.state`` hold every hidden card).
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy

from games.engine import Deal as EngineDeal
from games.engine import Ruleset
from games.fields import JSONTextField

# Public ids and invite codes: lowercase letters and digits without look-alikes.
_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


def new_public_id() -> str:
    """A random, non-sequential id for URLs (31**12, about 2**59 values)."""
    return "".join(secrets.choice(_ALPHABET) for _ in range(12))


def new_invite_code() -> str:
    return "".join(secrets.choice(_ALPHABET) for _ in range(10))


class Game(models.Model):
    class Status(models.TextChoices):
        LOBBY = "lobby"
        ACTIVE = "active"
        FINISHED = "finished"
        ABORTED = "aborted"

    class Visibility(models.TextChoices):
        PUBLIC = "public"
        PRIVATE = "private"

    class TimeControl(models.TextChoices):
        LIVE = "live", gettext_lazy("Live")
        CORRESPONDENCE = "correspondence", gettext_lazy("Correspondence")

    public_id = models.CharField(max_length=16, unique=True, default=new_public_id, editable=False)
    # The preset the ruleset was copied from (the "variant" of the game lists) and the
    # whole ruleset as it was at creation, house rules included: editing a preset
    # never changes a running game.
    preset = models.CharField(max_length=32)
    ruleset = models.JSONField()
    players = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.LOBBY)
    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    invite_code = models.CharField(max_length=16, blank=True, default="")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="games_created"
    )

    # Time control (enforced by the live-play part: deadlines and sweeps).
    time_control = models.CharField(
        max_length=16, choices=TimeControl.choices, default=TimeControl.CORRESPONDENCE
    )
    seconds_per_turn = models.PositiveIntegerField(null=True, blank=True)
    days_per_move = models.PositiveSmallIntegerField(null=True, blank=True)
    rated = models.BooleanField(default=False)
    # Timeout policy of this game (live-play part); null: the site's default
    # (settings LIVE_STRIKES / CORRESPONDENCE_STRIKES, LIVE_ABSENT_WAIT_S).
    strike_limit = models.PositiveSmallIntegerField(null=True, blank=True)
    absent_wait_s = models.PositiveIntegerField(null=True, blank=True)
    # Live games: each seat's time bank for the whole game, in seconds (0: none). A
    # turn may run past ``seconds_per_turn`` into the mover's bank (games.clock).
    time_bank_s = models.PositiveIntegerField(default=0)
    # Play chips (games.chips): what each player puts into the pot when the game starts
    # (0: none). The pot is in the chip ledger: the game's stakes, payouts and refunds.
    stake = models.PositiveIntegerField(default=0)
    # The cards drawn for the seats before the first deal, where the ruleset seats by
    # drawn cards (``games.engine.seating.SeatingDraw.to_dict``; null: no draw).
    seating_draw = models.JSONField(null=True, blank=True)

    # The number of moves logged so far: a client's expected ply, the version of the state.
    ply = models.PositiveIntegerField(default=0)
    # The deadline of the current turn; it belongs to ``ply``.
    deadline_at = models.DateTimeField(null=True, blank=True)
    # When the current turn started (a live turn's bank is used from
    # ``turn_started_at + seconds_per_turn`` on).
    turn_started_at = models.DateTimeField(null=True, blank=True)
    # The current turn is a built-in bot's, whose moves a queued task plays. A lost
    # task (a Redis restart) would stall the game: the bot sweep finds these games
    # when ``updated_at`` (their last move) is too old, and plays them.
    bot_to_move = models.BooleanField(default=False)
    # The seat whose turn it is (the current deal's snapshot says the same): a column,
    # so that "whose turn", "my turn" and the sweeps are index lookups, not JSON reads.
    to_move = models.PositiveSmallIntegerField(null=True, blank=True)
    # The deal being played (or the last one played); 0 before the start.
    deal_number = models.PositiveSmallIntegerField(default=0)
    # A live table's pause between deals: when the last deal ended and when the next one
    # is dealt (the deal sweep honours it), and the seats that are ready for it (the
    # next deal starts at once when every person still in is). Null: no pause.
    deal_over_at = models.DateTimeField(null=True, blank=True)
    next_deal_at = models.DateTimeField(null=True, blank=True)
    deal_ready = models.JSONField(default=list, blank=True)
    # Match outcome: the winning positions and why the game ended.
    winners = models.JSONField(default=list, blank=True)
    end_reason = models.CharField(max_length=16, blank=True, default="")

    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            # The game lists: by status (and visibility), by variant, newest first.
            models.Index(
                fields=["status", "visibility", "-created_at"], name="game_status_vis_created"
            ),
            models.Index(fields=["preset", "status", "-created_at"], name="game_preset_created"),
            models.Index(fields=["-created_at"], name="game_created"),
            # The deadline sweep of the live-play part.
            models.Index(
                fields=["deadline_at"],
                name="game_active_deadline",
                condition=Q(status="active", deadline_at__isnull=False),
            ),
            # The sweep of the pauses between deals that are due.
            models.Index(
                fields=["next_deal_at"],
                name="game_active_next_deal",
                condition=Q(status="active", next_deal_at__isnull=False),
            ),
            # The sweep of stalled bot turns.
            models.Index(
                fields=["updated_at"],
                name="game_bot_to_move",
                condition=Q(status="active", bot_to_move=True),
            ),
            # A player's recent games: whether and when each of their games finished,
            # one index-only probe per seat. (The condition is one a query states
            # without a parameter, so that a prepared statement's plan may use it.)
            models.Index(
                fields=["id"],
                include=["status", "finished_at"],
                name="game_finished",
                condition=Q(finished_at__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.preset} game {self.public_id} ({self.status})"

    def get_ruleset(self) -> Ruleset:
        return Ruleset.from_dict(self.ruleset)

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ABORTED)

    @property
    def is_private(self) -> bool:
        return self.visibility == self.Visibility.PRIVATE

    def engine_ruleset(self) -> Ruleset:
        """The match's ruleset, which its deals' snapshots leave out (``Deal.restore``)."""
        return Ruleset.from_dict(self.ruleset)


class Seat(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active"
        LEFT = "left"  # away; the seat, and its total, wait for the same user to rejoin
        OUT = "out"  # resigned or removed: the server plays the seat's turns from now on

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats"
    )
    position = models.PositiveSmallIntegerField()
    # The running match total. It never resets: leaving and rejoining keeps it.
    total = models.IntegerField(default=0)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.ACTIVE)
    # Consecutive turns played by the server on timeout (live-play part).
    strikes = models.PositiveSmallIntegerField(default=0)
    # Live games: how much of the game's ``time_bank_s`` this seat has used (ms).
    time_bank_used_ms = models.PositiveIntegerField(default=0)
    joined_at = models.DateTimeField(auto_now_add=True)
    # When the game ended (finished or aborted; the game's ``finished_at``), copied to
    # every seat in the transaction that ends it; null while it is in the lobby or
    # running. A player's lists read their own seats by it, never every game they
    # ever sat in.
    game_ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_unique_position"),
            models.UniqueConstraint(fields=["game", "user"], name="seat_unique_user"),
        ]
        indexes = [
            models.Index(fields=["user", "game"], name="seat_user_game"),
            # A player's games in the lobby or running: "my games", "my turn".
            models.Index(
                fields=["user", "game"],
                name="seat_user_running",
                condition=Q(game_ended_at__isnull=True),
            ),
            # A player's ended games, the latest first: recent games, the finished tab.
            models.Index(
                fields=["user", "-game_ended_at", "-game"],
                name="seat_user_ended",
                condition=Q(game_ended_at__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.position} of {self.game_id}"


class Deal(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField()  # 1, 2, ... within the match
    dealer = models.PositiveSmallIntegerField()
    # Server-only: the shuffled deck order (top first), the physical id of each deck
    # position and the seeds of any stock reshuffles. Never serialised; with the move
    # log they rebuild the deal exactly (replay).
    deck = models.JSONField()
    card_ids = models.JSONField()
    reshuffle_seeds = models.JSONField(default=list)
    # Snapshot of the engine state after the last move: a cache, the log is the truth.
    # Without the ruleset, which the game row holds once for the whole match; as text,
    # since it is only ever read and written whole (see ``restore`` and ``keep``).
    state = JSONTextField()
    # The engine's result once the deal is over: winner, finish, scores.
    result = models.JSONField(null=True, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="deal_unique_number"),
        ]

    def __str__(self) -> str:
        return f"deal {self.number} of {self.game_id}"

    def restore(self, ruleset: Ruleset) -> EngineDeal:
        """The engine's deal from its snapshot and ``ruleset``, the game's
        (``Game.engine_ruleset``)."""
        return EngineDeal.from_dict(self.state, ruleset=ruleset)

    def keep(self, deal: EngineDeal) -> None:
        """Take ``deal``'s snapshot (saved by the caller)."""
        self.state = deal.to_dict(with_ruleset=False)


class Move(models.Model):
    """One entry of a game's append-only log, numbered by ``ply`` (1, 2, ...)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField()
    deal = models.ForeignKey(
        Deal, on_delete=models.CASCADE, related_name="moves", null=True, blank=True
    )
    seat = models.ForeignKey(Seat, on_delete=models.PROTECT, related_name="moves")
    # Who sent it: the seat's user, or None when the server played it (a seat that is
    # out, a timeout).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        related_name="+",
        null=True,
        blank=True,
    )
    kind = models.CharField(max_length=24)  # the action type: draw_stock, discard, resign ...
    payload = models.JSONField()  # the action as sent (engine ``to_dict``)
    public = models.JSONField()  # what everyone may see of it
    private = models.JSONField(null=True, blank=True)  # what only the mover saw (the card drawn)
    # NULL (not "") is "no key": the partial unique index below skips it.
    idempotency_key = models.CharField(max_length=128, null=True, blank=True)  # noqa: DJ001
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["ply"]
        constraints = [
            models.UniqueConstraint(fields=["game", "ply"], name="move_unique_ply"),
            models.UniqueConstraint(
                fields=["game", "user", "idempotency_key"],
                name="move_unique_idempotency_key",
                condition=Q(idempotency_key__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"ply {self.ply} of {self.game_id}: {self.kind}"


# ---------------------------------------------------------------- live play
# A player's correspondence settings: the vacation allowance, written by
# games.play.vacation, and what the player is told and how (emails, reminders, Web
# Push, time zone, calendar feed), written by games.notify.


# Hours before a correspondence deadline that a player is reminded, unless they chose.
DEFAULT_REMINDER_HOURS = (24, 2)


def default_reminder_hours() -> list[int]:
    return list(DEFAULT_REMINDER_HOURS)


class PlayerSettings(models.Model):
    class EmailTurns(models.TextChoices):
        EACH_MOVE = "each"
        DAILY = "daily"
        OFF = "off"

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="play_settings"
    )
    email_turns = models.CharField(
        max_length=8, choices=EmailTurns.choices, default=EmailTurns.EACH_MOVE
    )
    # Vacation: days left in the allowance as of ``vacation_accrued_at`` (it grows over
    # time up to a cap), and the end of the vacation being taken, if any.
    vacation_days = models.FloatField(default=14.0)
    vacation_accrued_at = models.DateTimeField(auto_now_add=True)
    vacation_started_at = models.DateTimeField(null=True, blank=True)
    vacation_until = models.DateTimeField(null=True, blank=True)
    last_digest_at = models.DateTimeField(null=True, blank=True)
    # Reminders before a correspondence deadline (an event, and an email), this many
    # hours before it (``reminder_hours``: a list, several allowed).
    reminders = models.BooleanField(default=True)
    reminder_hours = models.JSONField(default=default_reminder_hours)
    # The other emails, each of which its own unsubscribe link turns off.
    email_strikes = models.BooleanField(default=True)
    email_game_over = models.BooleanField(default=True)
    # Web Push, opt-in per kind (the browsers are ``PushSubscription`` rows).
    push_turns = models.BooleanField(default=False)
    push_challenges = models.BooleanField(default=False)
    push_game_over = models.BooleanField(default=False)
    # The IANA zone the messages show times in ("": not chosen yet, UTC).
    time_zone = models.CharField(max_length=64, blank=True, default="")
    # The secret of the private calendar feed's URL, made on first use (NULL: none yet;
    # the unique index skips NULLs).
    calendar_secret = models.CharField(  # noqa: DJ001
        max_length=64, null=True, blank=True, unique=True
    )

    def __str__(self) -> str:
        return f"play settings of {self.user_id}"


class GameMute(models.Model):
    """A player asked for no more messages about one game (games.notify)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="mutes")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="game_mute_unique_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} muted {self.game_id}"


class PushSubscription(models.Model):
    """A browser's Web Push subscription (its push service's endpoint and the keys that
    encrypt what is sent to it). An endpoint belongs to one browser profile: whoever
    subscribes it last owns it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1024, unique=True)
    p256dh = models.CharField(max_length=128)  # the browser's P-256 public key (base64url)
    auth = models.CharField(max_length=64)  # its authentication secret (base64url)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"push subscription {self.pk} of {self.user_id}"


class SentReminder(models.Model):
    """A reminder sent: keyed by (seat, deadline, lead time), so that a deadline that
    moves (a vacation, extra time) gets its reminders again, and a reminder is never
    sent twice for one deadline (the unique constraint is the claim). Old rows are
    deleted by the reminder sweep."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    deadline_at = models.DateTimeField()
    lead_hours = models.PositiveSmallIntegerField()
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["seat", "deadline_at", "lead_hours"], name="sent_reminder_unique_key"
            ),
        ]
        indexes = [models.Index(fields=["deadline_at"], name="sent_reminder_deadline")]

    def __str__(self) -> str:
        return f"reminder {self.lead_hours} h before {self.deadline_at} to seat {self.seat_id}"


class AbsentWait(models.Model):
    """docs/rules.md §10 in a live game: the table waiting for the disconnected player to
    move at ``ply``. One row per game and ply (the unique constraint is the claim: a
    lost cache or a second worker can never grant a second wait); written only by
    ``games.play.timeouts`` under the game's row lock.

    ``waiting``: the game waits for the player (``LIVE_ABSENT_WAIT_S``); ``choice``:
    the wait is over, the host may wait longer, continue without the player or end
    the game (the default applies at the game's deadline); ``decided``: done.
    """

    class Stage(models.TextChoices):
        WAITING = "waiting"
        CHOICE = "choice"
        DECIDED = "decided"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="absent_waits")
    ply = models.PositiveIntegerField()
    position = models.PositiveSmallIntegerField()  # the absent seat
    stage = models.CharField(max_length=8, choices=Stage.choices, default=Stage.WAITING)
    waits = models.PositiveSmallIntegerField(default=1)  # waits granted at this ply
    # How it ended: "wait"/"continue"/"end" by the host, or "default".
    choice = models.CharField(max_length=8, blank=True, default="")
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "ply"], name="absent_wait_unique_ply"),
        ]

    def __str__(self) -> str:
        return f"absent seat {self.position} of {self.game_id} at ply {self.ply} ({self.stage})"


# ---------------------------------------------------------------- moderation


class ModerationAccess(models.Model):
    """One look by a moderator at a game's hidden information (every hand, the stock,
    a player's private draws) through the admin. Append-only: written by
    ``games.admin`` when the hidden state is shown, never changed."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="moderation_accesses"
    )
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moderation_accesses")
    deal = models.ForeignKey(Deal, on_delete=models.SET_NULL, null=True, blank=True)
    what = models.CharField(max_length=32)  # "deal_state", "move_private"
    path = models.CharField(max_length=255, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = gettext_lazy("moderation access")
        verbose_name_plural = gettext_lazy("moderation accesses")
        ordering = ["-created_at", "-id"]
        permissions = [
            ("view_hidden_cards", "Can see hidden cards (every hand, the stock) in the admin"),
        ]
        indexes = [models.Index(fields=["game", "-created_at"], name="moderation_game_created")]

    def __str__(self) -> str:
        return f"{self.user_id} saw {self.what} of {self.game_id}"


# ---------------------------------------------------------------- chat

CHAT_MAX_LENGTH = 300


class ChatMessage(models.Model):
    """A line of a game's table chat, written by ``games.play.chat`` only. Seated players
    write; whoever may see the game reads. Moderators hide a line (never delete it,
    so a report can still be judged); hidden lines are shown to nobody but staff."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_messages")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="chat_messages"
    )
    ply = models.PositiveIntegerField()  # the game's ply when it was sent
    text = models.CharField(max_length=CHAT_MAX_LENGTH)
    created_at = models.DateTimeField(auto_now_add=True)
    hidden_at = models.DateTimeField(null=True, blank=True)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["game", "id"], name="chat_game_id")]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.game_id} at ply {self.ply}: {self.text[:40]}"


# ---------------------------------------------------------------- statistics


class PlayerStats(models.Model):
    """A player's counters in one rule family (the game's preset). Written only by
    ``games.stats`` in the transaction of the change they count: a game starting, a
    deal ending, a game ending or aborted; ``manage.py rebuild_stats`` recounts them
    from the games. A missing row counts as zeros."""

    # The unique (user, rules) index below serves the reads by user.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    rules = models.CharField(max_length=32)
    # Signed on purpose: an abort takes back what its game added, and a check
    # constraint must never refuse a move because of a statistic.
    games = models.IntegerField(default=0)  # finished matches
    wins = models.IntegerField(default=0)  # finished matches won (a shared first place counts)
    left_early = models.IntegerField(default=0)  # finished matches left (resigned, put out)
    playing = models.IntegerField(default=0)  # matches under way
    deals = models.IntegerField(default=0)  # deals played to a result, in matches not aborted
    deals_won = models.IntegerField(default=0)  # deals the player went out in
    hands = models.IntegerField(default=0)  # of which in one go (a dry hand)
    deal_points = models.BigIntegerField(default=0)  # the sum of the player's deal scores

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "rules"], name="player_stats_unique_rules"),
        ]

    def __str__(self) -> str:
        return f"statistics of {self.user_id} in {self.rules}"


# ---------------------------------------------------------------- play chips


class ChipAccount(models.Model):
    """A person's play chips. The balance is the sum of the account's ledger rows, kept
    here so that it is read without adding them up: ``games.chips`` writes the row and
    the balance in one transaction, with the account row locked."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="chip_account"
    )
    balance = models.BigIntegerField(default=0)
    # The last day (UTC) the daily top-up was paid: the account's claim on the day.
    topped_up_on = models.DateField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(balance__gte=0), name="chip_account_balance_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"chips of {self.user_id}: {self.balance}"


class ChipLedger(models.Model):
    """One movement of chips into or out of an account. Append-only: rows are only ever
    inserted (on PostgreSQL a trigger refuses UPDATE and DELETE). The unique
    constraints make each movement happen once: one starting grant, one top-up a day,
    one stake, payout and refund per game."""

    class Kind(models.TextChoices):
        GRANT = "grant"  # the starting grant, when the account opens
        TOP_UP = "top_up"  # the daily top-up
        STAKE = "stake"  # into a game's pot when it starts (negative)
        PAYOUT = "payout"  # a share of the pot when the game ends
        REFUND = "refund"  # the stake back when a started game is aborted

    # The (account, -id) index below serves the reads by account.
    account = models.ForeignKey(
        ChipAccount, on_delete=models.PROTECT, related_name="ledger", db_index=False
    )
    kind = models.CharField(max_length=8, choices=Kind.choices)
    amount = models.BigIntegerField()  # signed: what the movement added to the balance
    balance_after = models.BigIntegerField()
    game = models.ForeignKey(
        Game, on_delete=models.PROTECT, null=True, blank=True, related_name="chip_movements"
    )
    day = models.DateField(null=True, blank=True)  # the top-up's day
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["account"], condition=Q(kind="grant"), name="chip_ledger_one_grant"
            ),
            models.UniqueConstraint(
                fields=["account", "day"],
                condition=Q(kind="top_up"),
                name="chip_ledger_one_top_up_a_day",
            ),
            models.UniqueConstraint(
                fields=["account", "game", "kind"],
                condition=Q(game__isnull=False),
                name="chip_ledger_once_per_game",
            ),
            models.CheckConstraint(condition=~Q(amount=0), name="chip_ledger_amount_not_zero"),
        ]
        indexes = [
            # An account's ledger, newest first (the paginated API).
            models.Index(fields=["account", "-id"], name="chip_ledger_account"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.amount:+} to {self.account_id}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise ValueError("the chip ledger is append-only: a row is never changed")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        raise ValueError("the chip ledger is append-only: a row is never deleted")


# ---------------------------------------------------------------- challenges


class Challenge(models.Model):
    """An invitation to a game on stated terms, to a named account (a person, a bot
    account or a built-in bot) or open to anyone. Written only by
    ``games.challenges.services``; accepting it creates and starts the game through
    the commands of ``games.play`` (``game``), with the challenger as host in seat 0."""

    class Status(models.TextChoices):
        PENDING = "pending"
        ACCEPTED = "accepted"
        DECLINED = "declined"
        CANCELLED = "cancelled"

    class DeclineReason(models.TextChoices):
        GENERIC = "generic", gettext_lazy("I am not accepting challenges at the moment.")
        LATER = "later", gettext_lazy("This is not the right time for me, please ask again later.")
        TOO_FAST = "too_fast", gettext_lazy("This time control is too fast for me.")
        TOO_SLOW = "too_slow", gettext_lazy("This time control is too slow for me.")
        TIME_CONTROL = (
            "time_control",
            gettext_lazy("I am not accepting challenges with this time control."),
        )
        RATED = "rated", gettext_lazy("Please send me a rated challenge instead.")
        CASUAL = "casual", gettext_lazy("Please send me a casual challenge instead.")
        RULES = "rules", gettext_lazy("I am not accepting challenges with these rules.")
        NO_BOT = "no_bot", gettext_lazy("I am not accepting challenges from bots.")
        ONLY_BOT = "only_bot", gettext_lazy("I am only accepting challenges from bots.")

    public_id = models.CharField(max_length=16, unique=True, default=new_public_id, editable=False)
    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_sent"
    )
    # Null: an open challenge, which anyone but the challenger may accept.
    destination = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="challenges_received",
    )
    # The terms: what ``games.play.create.game_create`` is called with on acceptance.
    preset = models.CharField(max_length=32)
    overrides = models.JSONField(default=dict, blank=True)
    bots = models.JSONField(default=list, blank=True)  # usernames of extra built-in bots
    players = models.PositiveSmallIntegerField()
    visibility = models.CharField(
        max_length=10, choices=Game.Visibility.choices, default=Game.Visibility.PUBLIC
    )
    time_control = models.CharField(
        max_length=16, choices=Game.TimeControl.choices, default=Game.TimeControl.CORRESPONDENCE
    )
    seconds_per_turn = models.PositiveIntegerField(null=True, blank=True)
    days_per_move = models.PositiveSmallIntegerField(null=True, blank=True)
    time_bank_s = models.PositiveIntegerField(null=True, blank=True)
    rated = models.BooleanField(default=False)

    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    decline_reason = models.CharField(
        max_length=16, choices=DeclineReason.choices, blank=True, default=""
    )
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    game = models.OneToOneField(
        Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="challenge"
    )
    # The finished game this challenge offers again (``games.challenges.rematch``); one
    # to one: a game is offered again once, whatever the answer.
    rematch_of = models.OneToOneField(
        Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="rematch"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [
            # A user's pending challenges, both ways, newest first (lists, the stream).
            models.Index(
                fields=["destination", "-created_at"],
                name="challenge_pending_to",
                condition=Q(status="pending"),
            ),
            models.Index(
                fields=["challenger", "-created_at"],
                name="challenge_pending_from",
                condition=Q(status="pending"),
            ),
            # The open challenges of the lobby.
            models.Index(
                fields=["-created_at"],
                name="challenge_open",
                condition=Q(status="pending", destination__isnull=True),
            ),
        ]

    def __str__(self) -> str:
        to = self.destination_id or "anyone"
        return f"challenge {self.public_id} from {self.challenger_id} to {to} ({self.status})"

    @property
    def is_open(self) -> bool:
        return self.destination_id is None


# ---------------------------------------------------------------- the correspondence day
# A player's private aids at one table: a note, a queued draw, a request for more time.
# Written by games.play.notes, games.play.premoves and games.play.extra_time.

NOTE_MAX_LENGTH = 2000


class Note(models.Model):
    """A player's private note on one game: shown to its author only, never in any
    answer or event of the game itself (only ``/games/{id}/note`` reads it)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.TextField(max_length=NOTE_MAX_LENGTH)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="note_unique_user"),
        ]

    def __str__(self) -> str:
        return f"note of {self.user_id} on {self.game_id}"


class PreMove(models.Model):
    """A correspondence player's queued draw from the stock at their next turn, unless
    the top of the discard pile is one of ``unless`` (card texts: then the turn waits
    for them). Private to the player; applied (or dropped) by ``games.play.premoves``
    when the turn arrives, one turn only."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="premove")
    unless = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"queued draw of seat {self.seat_id} in {self.game_id}"


EXTRA_TIME_MAX_DAYS = 7


class ExtraTimeRequest(models.Model):
    """A player asks the others at a correspondence table for more days on their turn;
    any other player still in the game grants or declines it. Granting moves the
    current deadline while it is still the asker's turn. One request waits at a time."""

    class Status(models.TextChoices):
        PENDING = "pending"
        GRANTED = "granted"
        DECLINED = "declined"
        EXPIRED = "expired"  # the turn passed before an answer

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="extra_time_requests")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    days = models.PositiveSmallIntegerField()
    ply = models.PositiveIntegerField()  # the game's ply when asked: the turn it is for
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game"],
                condition=Q(status="pending"),
                name="extra_time_one_pending",
            ),
            models.CheckConstraint(
                condition=Q(days__gte=1, days__lte=EXTRA_TIME_MAX_DAYS),
                name="extra_time_days_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.days} more day(s) for seat {self.seat_id} in {self.game_id} ({self.status})"
