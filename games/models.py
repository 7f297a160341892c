"""Persisted games: the game, its seats, its deals and the append-only move log.

Only ``games.play.services`` writes these tables. Reads go through
``games.read.selectors``; what a user may see of a deal is always built by the
engine's per-seat view, never from the raw columns below (``Deal.deck`` and
``Deal.state`` hold every hidden card).
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.engine import Ruleset

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
        LIVE = "live"
        CORRESPONDENCE = "correspondence"

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
            # The sweep of stalled bot turns.
            models.Index(
                fields=["updated_at"],
                name="game_bot_to_move",
                condition=Q(status="active", bot_to_move=True),
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

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_unique_position"),
            models.UniqueConstraint(fields=["game", "user"], name="seat_unique_user"),
        ]
        indexes = [models.Index(fields=["user", "game"], name="seat_user_game")]

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
    state = models.JSONField()
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
# A player's correspondence settings: "your turn" email preference and the vacation
# allowance. Written only by games.clock (vacation) and the settings API.


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
    # Reminders when most of a move's time is gone (an event, and an email unless
    # ``email_turns`` is off).
    reminders = models.BooleanField(default=True)

    def __str__(self) -> str:
        return f"play settings of {self.user_id}"


class AbsentWait(models.Model):
    """RULES.md §10 in a live game: the table waiting for the disconnected player to
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
