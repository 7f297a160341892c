"""The game, its seats, its deals and the append-only move log.

Only the commands of ``games.play`` write these tables. Reads go through
``games.read``; what a user may see of a deal is always built by the engine's
per-seat view, never from the raw columns below (``Deal.deck`` and ``Deal.state`` hold
every hidden card).
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.engine import Deal as EngineDeal
from games.engine import Ruleset
from games.engine_words import preset_display_name
from games.fields import JSONTextField
from remi_site import formats

# Public ids and invite codes: lowercase letters and digits without look-alikes.


_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


def new_public_id() -> str:
    """A random, non-sequential id for URLs (31**12, about 2**59 values)."""
    return "".join(secrets.choice(_ALPHABET) for _ in range(12))


def new_invite_code() -> str:
    return "".join(secrets.choice(_ALPHABET) for _ in range(10))


class Game(models.Model):
    class Status(models.TextChoices):
        LOBBY = "lobby", pgettext_lazy("game status", "In the lobby")
        ACTIVE = "active", pgettext_lazy("game status", "Being played")
        FINISHED = "finished", pgettext_lazy("game status", "Finished")
        ABORTED = "aborted", pgettext_lazy("game status", "Aborted")

    class Visibility(models.TextChoices):
        PUBLIC = "public", pgettext_lazy("game visibility", "Public")
        PRIVATE = "private", pgettext_lazy("game visibility", "Private")

    class TimeControl(models.TextChoices):
        LIVE = "live", _("Live")
        CORRESPONDENCE = "correspondence", _("Correspondence")

    public_id = models.CharField(
        _("public ID"), max_length=16, unique=True, default=new_public_id, editable=False
    )
    # The preset the ruleset was copied from (the "variant" of the game lists) and the
    # whole ruleset as it was at creation, house rules included: editing a preset
    # never changes a running game.
    preset = models.CharField(
        _("rules"), max_length=32, help_text=_("The preset the game's rules were copied from.")
    )
    ruleset = models.JSONField(
        _("ruleset"),
        help_text=_("The whole ruleset as it was when the game was created, house rules included."),
    )
    players = models.PositiveSmallIntegerField(_("players"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.LOBBY
    )
    visibility = models.CharField(
        _("visibility"), max_length=10, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    invite_code = models.CharField(_("invite code"), max_length=16, blank=True, default="")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="games_created",
        verbose_name=_("host"),
    )

    # Time control (enforced by the live-play part: deadlines and sweeps).
    time_control = models.CharField(
        _("time control"),
        max_length=16,
        choices=TimeControl.choices,
        default=TimeControl.CORRESPONDENCE,
    )
    seconds_per_turn = models.PositiveIntegerField(_("seconds per turn"), null=True, blank=True)
    days_per_move = models.PositiveSmallIntegerField(_("days per move"), null=True, blank=True)
    rated = models.BooleanField(_("rated"), default=False)
    # Timeout policy of this game (live-play part); null: the site's default
    # (settings LIVE_STRIKES / CORRESPONDENCE_STRIKES, LIVE_ABSENT_WAIT_S).
    strike_limit = models.PositiveSmallIntegerField(
        _("timeouts allowed"),
        null=True,
        blank=True,
        help_text=_(
            "Turns in a row the server may play for a player before their seat is out. "
            "Empty: the site's default."
        ),
    )
    absent_wait_s = models.PositiveIntegerField(
        _("wait for an absent player, in seconds"),
        null=True,
        blank=True,
        help_text=_("Empty: the site's default."),
    )
    # Live games: each seat's time bank for the whole game, in seconds (0: none). A
    # turn may run past ``seconds_per_turn`` into the mover's bank (games.clock).
    time_bank_s = models.PositiveIntegerField(
        _("time bank, in seconds"), default=0, help_text=_("Each seat's, for the whole game.")
    )
    # Play chips (games.chips): what each player puts into the pot when the game starts
    # (0: none). The pot is in the chip ledger: the game's stakes, payouts and refunds.
    stake = models.PositiveIntegerField(
        _("stake"), default=0, help_text=_("Chips each player puts into the pot (0: none).")
    )
    # The cards drawn for the seats before the first deal, where the ruleset seats by
    # drawn cards (``games.engine.seating.SeatingDraw.to_dict``; null: no draw).
    seating_draw = models.JSONField(
        _("cards drawn for the seats"),
        null=True,
        blank=True,
        help_text=_("Before the first deal, where the rules seat the players by drawn cards."),
    )

    # The number of moves logged so far: a client's expected ply, the version of the state.
    ply = models.PositiveIntegerField(
        _("moves logged"), default=0, help_text=_("The number of moves logged so far.")
    )
    # The deadline of the current turn; it belongs to ``ply``.
    deadline_at = models.DateTimeField(_("turn deadline"), null=True, blank=True)
    # When the current turn started (a live turn's bank is used from
    # ``turn_started_at + seconds_per_turn`` on).
    turn_started_at = models.DateTimeField(_("turn started at"), null=True, blank=True)
    # The current turn is a built-in bot's, whose moves a queued task plays. A lost
    # task (a Redis restart) would stall the game: the bot sweep finds these games
    # when ``updated_at`` (their last move) is too old, and plays them.
    bot_to_move = models.BooleanField(_("a built-in bot to move"), default=False)
    # The seat whose turn it is (the current deal's snapshot says the same): a column,
    # so that "whose turn", "my turn" and the sweeps are index lookups, not JSON reads.
    to_move = models.PositiveSmallIntegerField(_("seat to move"), null=True, blank=True)
    # The deal being played (or the last one played); 0 before the start.
    deal_number = models.PositiveSmallIntegerField(
        _("deal number"),
        default=0,
        help_text=_("The deal being played, or the last one; 0 before the start."),
    )
    # A live table's pause between deals: when the last deal ended and when the next one
    # is dealt (the deal sweep honours it), and the seats that are ready for it (the
    # next deal starts at once when every person still in is). Null: no pause.
    deal_over_at = models.DateTimeField(_("last deal ended at"), null=True, blank=True)
    next_deal_at = models.DateTimeField(_("next deal at"), null=True, blank=True)
    deal_ready = models.JSONField(_("seats ready for the next deal"), default=list, blank=True)
    # Match outcome: the winning positions and why the game ended.
    winners = models.JSONField(
        _("winners"), default=list, blank=True, help_text=_("The winning seats.")
    )
    end_reason = models.CharField(_("end reason"), max_length=16, blank=True, default="")

    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
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
            # The sweep of stalled bot turns: the few games where a bot is to move,
            # whose ``updated_at`` the sweep reads from the rows. Not keyed on
            # ``updated_at``: every move changes it, and a change to any column an
            # index names (key or condition) stops PostgreSQL from updating the row
            # in place of the old one (a heap-only update, which adds no entry to any
            # of the table's indexes). A draw changes no indexed column now.
            models.Index(
                fields=["id"],
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
        # Translators: a game as the admin names it, e.g. "Serbian Remi game 6kjkwg82km4t
        # (Finished)": its rules, its public id and its status.
        return pgettext("a game in the admin", "%(rules)s game %(public_id)s (%(status)s)") % {
            "rules": preset_display_name(self.preset),
            "public_id": self.public_id,
            "status": self.get_status_display(),
        }

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
        ACTIVE = "active", pgettext_lazy("seat status", "Playing")
        # away; the seat, and its total, wait for the same user to rejoin
        LEFT = "left", pgettext_lazy("seat status", "Away")
        # resigned or removed: the server plays the seat's turns from now on
        OUT = "out", pgettext_lazy("seat status", "Out of the game")

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="seats", verbose_name=_("game")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="seats",
        verbose_name=_("player"),
    )
    position = models.PositiveSmallIntegerField(_("seat number"))
    # The running match total. It never resets: leaving and rejoining keeps it.
    total = models.IntegerField(_("total"), default=0)
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.ACTIVE
    )
    # Consecutive turns played by the server on timeout (live-play part).
    strikes = models.PositiveSmallIntegerField(
        _("timeouts in a row"),
        default=0,
        help_text=_("Turns in a row the server played for the player when their time ran out."),
    )
    # Live games: how much of the game's ``time_bank_s`` this seat has used (ms).
    time_bank_used_ms = models.PositiveIntegerField(_("time bank used, in milliseconds"), default=0)
    joined_at = models.DateTimeField(_("joined at"), auto_now_add=True)
    # When the game ended (finished or aborted; the game's ``finished_at``), copied to
    # every seat in the transaction that ends it; null while it is in the lobby or
    # running. A player's lists read their own seats by it, never every game they
    # ever sat in.
    game_ended_at = models.DateTimeField(_("game ended at"), null=True, blank=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
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
        return gettext("Seat %(seat)s: %(player)s") % {
            "seat": formats.number(self.position),
            "player": self.user.get_username(),
        }


class Deal(models.Model):
    # (No index of its own: the unique (game, number) below leads with it.)
    game = models.ForeignKey(
        Game,
        on_delete=models.CASCADE,
        related_name="deals",
        db_index=False,
        verbose_name=_("game"),
    )
    number = models.PositiveSmallIntegerField(_("number"))  # 1, 2, ... within the match
    dealer = models.PositiveSmallIntegerField(_("dealer"), help_text=_("The dealer's seat."))
    # Server-only: the shuffled deck order (top first), the physical id of each deck
    # position and the seeds of any stock reshuffles. Never serialised; with the move
    # log they rebuild the deal exactly (replay).
    deck = models.JSONField(_("deck order"))
    card_ids = models.JSONField(_("card IDs"))
    reshuffle_seeds = models.JSONField(_("reshuffle seeds"), default=list)
    # Snapshot of the engine state after the last move: a cache, the log is the truth.
    # Without the ruleset, which the game row holds once for the whole match; as text,
    # since it is only ever read and written whole (see ``restore`` and ``keep``).
    state = JSONTextField(_("state"))
    # The engine's result once the deal is over: winner, finish, scores.
    result = models.JSONField(_("result"), null=True, blank=True)
    started_at = models.DateTimeField(_("started at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="deal_unique_number"),
        ]

    def __str__(self) -> str:
        return gettext("Deal %(number)s of game %(game)s") % {
            "number": formats.number(self.number),
            "game": self.game.public_id,
        }

    def restore(self, ruleset: Ruleset) -> EngineDeal:
        """The engine's deal from its snapshot and ``ruleset``, the game's
        (``Game.engine_ruleset``)."""
        return EngineDeal.from_dict(self.state, ruleset=ruleset)

    def keep(self, deal: EngineDeal) -> None:
        """Take ``deal``'s snapshot (saved by the caller). The row remembers which deal
        the snapshot stands for (``kept``), until its state is set another way."""
        self.state = deal.to_dict(with_ruleset=False)
        self._kept = (deal, self.state)

    def kept(self) -> EngineDeal | None:
        """The engine deal whose snapshot ``state`` is, when ``keep`` took it (and the
        state was not replaced since)."""
        kept: tuple[EngineDeal, Any] | None = self.__dict__.get("_kept")
        return kept[0] if kept is not None and kept[1] is self.state else None


class Move(models.Model):
    """One entry of a game's append-only log, numbered by ``ply`` (1, 2, ...)."""

    class Kind(models.TextChoices):
        """The engine's actions (``games.engine.actions``) and the seat going out."""

        DRAW = "draw", pgettext_lazy("move kind", "Draw")
        TAKE = "take", pgettext_lazy("move kind", "Take the discard")
        UNDO = "undo", pgettext_lazy("move kind", "Undo the take")
        LAY = "lay", pgettext_lazy("move kind", "Lay down")
        OFF = "off", pgettext_lazy("move kind", "Lay off")
        SWAP = "swap", pgettext_lazy("move kind", "Swap a joker")
        DISCARD = "discard", pgettext_lazy("move kind", "Discard")
        # Resigned, timed out, away, banned or adjudicated: the payload says which.
        RESIGN = "resign", pgettext_lazy("move kind", "Out of the game")

    # (No index of its own: the unique (game, ply) below leads with it. Every move
    # inserts a row, and each index of the table is one more entry to write.)
    game = models.ForeignKey(
        Game,
        on_delete=models.CASCADE,
        related_name="moves",
        db_index=False,
        verbose_name=_("game"),
    )
    ply = models.PositiveIntegerField(_("move number"))
    deal = models.ForeignKey(
        Deal,
        on_delete=models.CASCADE,
        related_name="moves",
        null=True,
        blank=True,
        verbose_name=_("deal"),
    )
    seat = models.ForeignKey(
        Seat, on_delete=models.PROTECT, related_name="moves", verbose_name=_("seat")
    )
    # Who sent it: the seat's user, or None when the server played it (a seat that is
    # out, a timeout).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("sent by"),
        help_text=_("Empty: the server played it."),
    )
    kind = models.CharField(_("kind"), max_length=24, choices=Kind.choices)
    # the action as sent (engine ``to_dict``)
    payload = models.JSONField(_("action as sent"))
    public = models.JSONField(_("what everyone sees"))
    # what only the mover saw (the card drawn)
    private = models.JSONField(_("what only the mover saw"), null=True, blank=True)
    # NULL (not "") is "no key": the partial unique index below skips it.
    idempotency_key = models.CharField(  # noqa: DJ001
        _("idempotency key"), max_length=128, null=True, blank=True
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
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
        return gettext("Move %(number)s of game %(game)s: %(kind)s") % {
            "number": formats.number(self.ply),
            "game": self.game.public_id,
            "kind": self.get_kind_display(),
        }
