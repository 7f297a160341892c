"""What happens after a game change commits: events, private hands, presence.

``games.live.outbox`` calls :func:`game_committed` once a transaction that changed a
game has committed, with the public events the services registered (moves in
their public form, deal and game over, joins and leaves) and, from the hot path
(a move), the committed state the service had in memory. It sends, in one trip
to the channel layer and only to groups that have a member:

- the public events, then a public ``turn`` event (seat to move, phase, deadline),
  to the game's group ``game-<public id>``;
- a seated person's own view of the deal (their hand) to their user group
  ``user-<id>`` only, when their hand changed or it is their turn: no other
  connection ever receives it;
- and queues the background work of the new position (the Celery tasks of
  ``games.tasks``, by name): the bot's move when a bot is to move, and, when a new
  turn starts in a correspondence game, a "your turn" email for a player who may
  want one.

Nothing else sends an event: the services hand their events to the outbox
(``games.live.outbox``), which calls this once the transaction commits.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from asgiref.sync import async_to_sync
from celery import current_app
from channels.layers import get_channel_layer
from django.conf import settings
from django.urls import reverse

from accounts.models import is_builtin_bot
from games import clock
from games.engine import Deal as EngineDeal
from games.engine.legal import legal_moves
from games.live.listening import groups_with_members
from games.models import Deal, Game, PlayerSettings, PreMove, Seat
from games.stream_events import game_finish_event, game_start_event, your_turn_event
from remi_site.prepared import PreparedQuery

logger = logging.getLogger(__name__)


def game_group(public_id: str) -> str:
    """The Channels group of a game's players and spectators."""
    return f"game-{public_id}"


def publish_game_event(game_id: str, ply: int, event: Mapping[str, Any]) -> None:
    """Send a public game event to the game's group, if a channel layer is configured."""
    publish_game_events(game_id, [(ply, event)])


def publish_game_events(game_id: str, batch: Sequence[tuple[int, Mapping[str, Any]]]) -> None:
    """Send public game events, in order, to the game's group (one trip to the event
    loop for all of them), if a channel layer is configured.

    ``game_id`` is the game's public id. A broken channel layer must never turn a
    committed move into an error response, so failures are logged, not raised.
    """
    layer = get_channel_layer()
    if layer is None or not batch:
        return
    group = game_group(game_id)
    messages = [
        {"type": "game.event", "game": game_id, "ply": ply, "event": dict(event)}
        for ply, event in batch
    ]

    async def send_all() -> None:
        for message in messages:
            await layer.group_send(group, message)

    try:
        async_to_sync(send_all)()
    except Exception:
        logger.exception("could not publish %d event(s) of game %s", len(messages), game_id)


@dataclass
class CommittedState:
    """A game as the transaction that changed it committed it, from the service's
    memory: the after-commit work (``games.live.publisher``) uses it instead of
    reading the game, its deal and its seats again."""

    game: Game
    deal: EngineDeal | None
    seats: Sequence[Seat]
    # Positions whose hand changed (None: every seat's, e.g. a new deal).
    hands: frozenset[int] | None = None
    # A new turn started (the turn passed, or a deal began): the turn's deadline was
    # set and its "your turn" work is due. None: not known.
    new_turn: bool | None = None
    # Per-seat views of ``deal`` built so far (``view``): the private updates and the
    # API's answer share them.
    views: dict[int, dict[str, Any]] = field(default_factory=dict)

    def view(self, position: int) -> dict[str, Any]:
        """The engine's view of the deal for ``position``, as a dict (built once)."""
        built = self.views.get(position)
        if built is None:
            assert self.deal is not None
            built = self.views[position] = self.deal.view(position).to_dict()
        return built

    def private_view(self, position: int) -> dict[str, Any]:
        """``view`` with ``legal``: what the seat may do now, move by move (the same
        object as ``deal.legal`` of the REST game view), null unless it is to move. A
        bot then needs no read per turn."""
        assert self.deal is not None
        moves = legal_moves(self.deal) if position == self.deal.to_move else None
        return {**self.view(position), "legal": None if moves is None else moves.to_dict()}


PROTOCOL_VERSION = 1


def user_group(user_id: int) -> str:
    """The Channels group of one user's connections: their private updates."""
    return f"user-{user_id}"


# ------------------------------------------------------------------ sending


def _send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:
        logger.exception("could not send %s to %s", message.get("type"), group)


def publish_user_event(user_id: int, game_id: str, ply: int, event: Mapping[str, Any]) -> None:
    """A private event for one user's connections only (their own hand)."""
    _send(
        user_group(user_id),
        {"type": "user.event", "game": game_id, "ply": ply, "event": dict(event)},
    )


def publish_access_ended(user_id: int, game_id: str) -> None:
    """The user may no longer see the game: their connections leave its group
    (``game_access_ended`` in ``games.live.consumers``)."""
    _send(user_group(user_id), {"type": "game.access_ended", "game": game_id})


def publish_stream_events(events: Sequence[tuple[int, Mapping[str, Any]]]) -> None:
    """Frames of users' event streams, ``(user id, frame)``, to those users' connections
    (only those subscribed to the stream pass them on): one trip for all of them."""
    messages = [(user_group(user_id), _stream_message(event)) for user_id, event in events]
    _publish(messages, [], None)
    _schedule_challenge_notices(events)


def _schedule_challenge_notices(events: Sequence[tuple[int, Mapping[str, Any]]]) -> None:
    """Queue the message that tells an account it was challenged (the task follows
    their settings)."""
    try:
        for user_id, event in events:
            if event.get("type") != "challenge" or event.get("direction") != "in":
                continue
            challenge = event["challenge"]
            _task("games.tasks.challenge_notice").delay(
                user_id,
                challenge["challenger"]["display_name"],
                # Their games' page, which lists the challenges.
                reverse("games:list") + "#challenges",
                challenge["preset"],
                str(challenge.get("id", "")),
                challenge["challenger"]["username"],
            )
    except Exception:
        logger.exception("could not queue the challenge messages of a commit")


def _stream_message(event: Mapping[str, Any]) -> dict[str, Any]:
    return {"type": "stream.event", "event": dict(event)}


def publish_public_event(game_id: str, ply: int, event: Mapping[str, Any]) -> None:
    _send(
        game_group(game_id),
        {"type": "game.event", "game": game_id, "ply": ply, "event": dict(event)},
    )


def publish_game_notice(game_id: str, event: Mapping[str, Any]) -> None:
    """Send ``event``, which changes nothing in the game, to the game's group if it has
    a member, at the game's current ply (read now: the notice may come long after the
    change it is about, from a worker)."""
    ply = Game.objects.filter(public_id=game_id).values_list("ply", flat=True).first()
    if ply is None:
        return  # the game was deleted meanwhile
    message = {"type": "game.event", "game": game_id, "ply": ply, "event": dict(event)}
    _publish([(game_group(game_id), message)], [], None)


# ------------------------------------------------------------------ after commit

# (game, ply, deal) already handled by this process when the state is read again
# after the commit (a service nested in an outer transaction: several commit hooks
# of one commit see the same, final, state). The deal counts too: a live table's next
# deal, dealt after the pause between deals, starts at the ply the last one ended.
_handled: OrderedDict[tuple[str, int, int], None] = OrderedDict()
_handled_lock = threading.Lock()


def _first_time(game_id: str, ply: int, deal: int = 0) -> bool:
    with _handled_lock:
        key = (game_id, ply, deal)
        if key in _handled:
            return False
        _handled[key] = None
        while len(_handled) > 10_000:
            _handled.popitem(last=False)
        return True


def game_committed(
    game_id: str,
    events: Sequence[tuple[int, Mapping[str, Any]]] = (),
    state: CommittedState | None = None,
) -> None:
    """Run once a transaction that changed game ``game_id`` has committed: publish its
    public ``events``, then (a running game) the ``turn`` event and the private views,
    all in one trip to the channel layer, then schedule the background work.

    ``state`` is the committed game as the service had it in memory; without it the
    game, its deal and its seats are read again. With it, private views go only to
    the seats whose hand changed and the seat to move (the others' hands are as they
    were; the public events say what happened), and the "your turn" work is scheduled
    only when a new turn started.
    """
    group = game_group(game_id)
    messages: list[tuple[str, dict[str, Any]]] = [
        (group, {"type": "game.event", "game": game_id, "ply": ply, "event": dict(event)})
        for ply, event in events
    ]
    live: CommittedState | None = None
    try:
        live = state if state is not None else _read_state(game_id, events)
    except Exception:
        logger.exception("could not read game %s after its commit", game_id)
    committed = live  # its seats, for the event streams, whatever the game's status
    if live is not None and live.game.status != Game.Status.ACTIVE:
        live = None  # over (or not started): its public events say everything
    private: list[Seat] = []
    game = live.game if live is not None else None
    deal = live.deal if live is not None else None
    if live is not None and game is not None and deal is not None and not deal.is_over:
        deadline = None if game.deadline_at is None else game.deadline_at.isoformat()
        turn = {
            "type": "turn",
            "seat": deal.to_move,
            "phase": "play" if deal.drawn else "draw",
            "deadline_at": deadline,
            **clock.turn_clock(game, live.seats[deal.to_move]),
        }
        messages.append(
            (group, {"type": "game.event", "game": game_id, "ply": game.ply, "event": turn})
        )
    if live is not None and game is not None and deal is not None:
        private = [
            seat
            for seat in live.seats
            if not is_builtin_bot(seat.user)
            and (live.hands is None or seat.position in live.hands or seat.position == deal.to_move)
        ]
    messages.extend(_stream_messages(game_id, events, committed, live))
    _publish(messages, private, live)
    _schedule_notices(game_id, events)
    if live is None or game is None or deal is None or deal.is_over:
        return
    seat = live.seats[deal.to_move]
    _schedule_work(
        game,
        seat,
        is_bot=is_builtin_bot(seat.user),
        new_turn=live.new_turn,
        bots_only=_others_are_bots(live.seats, seat),
    )


# ------------------------------------------------------------------ event streams

_STARTS_OR_ENDS = frozenset({"game_started", "game_over", "game_aborted"})


def _stream_messages(
    game_id: str,
    events: Sequence[tuple[int, Mapping[str, Any]]],
    committed: CommittedState | None,
    live: CommittedState | None,
) -> list[tuple[str, dict[str, Any]]]:
    """The commit's frames for the players' event streams: the game started or ended
    (to everyone seated but the built-in bots) and a new turn (to its mover, a person or
    a bot account still in the game)."""
    out: list[tuple[str, dict[str, Any]]] = []
    started = False
    if any(event.get("type") in _STARTS_OR_ENDS for _ply, event in events):
        seats = committed.seats if committed is not None else _seats_of(game_id)
        players = [seat for seat in seats if not is_builtin_bot(seat.user)]
        for ply, event in events:
            kind = event.get("type")
            if kind not in _STARTS_OR_ENDS:
                continue
            started = started or kind == "game_started"
            for seat in players:
                if kind == "game_started":
                    frame = game_start_event(game_id, ply, seat.position)
                else:
                    over = kind == "game_over"
                    frame = game_finish_event(
                        game_id,
                        ply,
                        seat.position,
                        status="finished" if over else "aborted",
                        winners=event.get("winners") if over else None,
                        totals=event.get("totals") if over else None,
                    )
                out.append((user_group(seat.user_id), _stream_message(frame)))
        if started:
            # The first turn goes with the start, after it: a transaction that also made
            # the game (a challenge accepted) may commit it in more than one batch.
            out.extend(_first_turn(game_id, players))
            return out
    if live is None or live.deal is None or live.deal.is_over or live.new_turn is False:
        return out
    if live.game.ply == 0:
        return out  # the first turn: sent with the batch that holds ``game_started``
    mover = live.seats[live.deal.to_move]
    if is_builtin_bot(mover.user) or mover.status == Seat.Status.OUT:
        return out
    out.append((user_group(mover.user_id), _your_turn(live.game, mover)))
    return out


def _first_turn(game_id: str, players: Sequence[Seat]) -> list[tuple[str, dict[str, Any]]]:
    game = Game.objects.filter(public_id=game_id).only("ply", "to_move", "deadline_at").first()
    if game is None or game.to_move is None:
        return []
    movers = [seat for seat in players if seat.position == game.to_move]
    return [(user_group(seat.user_id), _your_turn(game, seat)) for seat in movers]


def _your_turn(game: Game, mover: Seat) -> dict[str, Any]:
    deadline = None if game.deadline_at is None else game.deadline_at.isoformat()
    return _stream_message(your_turn_event(game.public_id, game.ply, mover.position, deadline))


def _seats_of(game_id: str) -> list[Seat]:
    return list(Seat.objects.filter(game__public_id=game_id).select_related("user__profile"))


# ------------------------------------------------------------------ background work


def _task(name: str) -> Any:
    """The Celery task registered as ``name``. Work is queued by name: the tasks are
    the outermost interface (they call the services), so nothing below imports them."""
    registry = current_app.tasks
    if name not in registry:
        # A web server has not loaded the task modules (a worker loads them at start):
        # the same discovery the worker runs, by one thread at a time (the first
        # commits of a freshly started server come on several threads at once, and one
        # that looked while another was importing found no task).
        with _discovery_lock:
            if name not in registry:
                current_app.loader.import_default_modules()
    return registry[name]


_discovery_lock = threading.Lock()


def _schedule_work(
    game: Game, seat: Seat, *, is_bot: bool, new_turn: bool | None, bots_only: bool = False
) -> None:
    """Queue the background work of a committed position, with ``seat`` to move.

    ``new_turn``: whether the commit started a new turn (the turn passed to
    ``seat``, or a deal began), None when not known. A "your turn" message is queued
    only for a new turn (a player's own draw is not news to them), never when the
    others at the table are all bots (``bots_only``: they answer at once, a message
    after each reply would flood the player), and only when it could be sent: the
    user has an address and wants an email each move, or opted in to pushes (the
    task checks again when it runs, and skips a connected player)."""
    if is_bot:
        delay = 0.0 if bots_only else float(settings.BOT_PAUSE_MIN_S)  # games.play.bot_pause
        _task("games.tasks.bot_move").apply_async((game.pk, game.ply), countdown=delay)
        return
    if game.time_control == Game.TimeControl.LIVE:
        # Live deadlines are enforced by the beat sweep (every DEADLINE_SWEEP_S). Per-move
        # ETA tasks were measured unreliable with acks_late and prefetch 1 on the Redis
        # broker (held, not run, within the turn): none is scheduled.
        return
    if new_turn is not False and _queued_draw(seat):
        # The player queued a draw for this turn (games.play.premoves).
        _task("games.tasks.premove_apply").delay(game.pk, game.ply)
    if new_turn is False or bots_only or not _may_notify(seat.user):
        return
    _task("games.tasks.your_turn_email").delay(game.pk, game.ply, seat.user_id)


# Whether a seat queued a draw (games.play.premoves), asked after every correspondence
# move: compiled to SQL once.
_PREMOVE_OF_SEAT = PreparedQuery(
    lambda seat_id: PreMove.objects.filter(seat_id=seat_id).only("id")[:1], -(2**62) - 3
)


def _queued_draw(seat: Seat) -> bool:
    """Whether the seat's player queued a draw: read with the seat where the seats are
    read for play (``store.seats``, ``store.lock_for_move``, ``_read_state``), asked
    for a seat read another way."""
    if Seat.premove.is_cached(seat):
        return Seat.premove.related.get_cached_value(seat) is not None
    return bool(_PREMOVE_OF_SEAT(seat.pk))


def _others_are_bots(seats: Sequence[Seat], seat: Seat) -> bool:
    """Whether everyone at the table but ``seat`` is a bot account (built in or not)."""
    others = [other for other in seats if other.user_id != seat.user_id]
    return bool(others) and all(
        getattr(other.user, "profile", None) is not None and other.user.profile.is_bot
        for other in others
    )


def _may_notify(user: Any) -> bool:
    """Whether a "your turn" message could go to ``user``, from what is loaded: the
    address (when loaded) and the play settings (when loaded with the user)."""
    if "email" in user.get_deferred_fields():
        return True  # not loaded: the task decides
    if not type(user).play_settings.related.is_cached(user):
        return True  # not loaded: the task decides
    try:
        prefs = user.play_settings
    except PlayerSettings.DoesNotExist:
        return bool(user.email)  # none yet: the default is an email each move
    if "push_turns" in prefs.get_deferred_fields() or prefs.push_turns:
        return True
    return bool(user.email) and prefs.email_turns == PlayerSettings.EmailTurns.EACH_MOVE


def _schedule_notices(game_id: str, events: Sequence[tuple[int, Mapping[str, Any]]]) -> None:
    """Queue the work that a commit's events call for: a timeout's strike to its player,
    a game's result to its players (the tasks decide who is told), a deal's review."""
    try:
        for ply, event in events:
            kind = event.get("type")
            if kind == "timed_out":
                _task("games.tasks.strike_notice").delay(
                    game_id, ply, event["seat"], event["strikes"], bool(event["out"])
                )
            elif kind == "game_over":
                _task("games.tasks.game_over_notice").delay(game_id)
            elif kind == "deal_over":  # the deal's review (games.review)
                _task("games.tasks.deal_review").delay(game_id, event["deal"])
    except Exception:
        logger.exception("could not queue the messages of game %s", game_id)


def _read_state(
    game_id: str, events: Sequence[tuple[int, Mapping[str, Any]]] = ()
) -> CommittedState | None:
    """The committed state of an active game, read from the database (once per ply),
    with the hands its ``events`` changed (``_hands_changed``)."""
    game = Game.objects.filter(public_id=game_id).first()
    # (Lobby events share ply 0 with the start: only an active game is marked handled.)
    if game is None or game.status != Game.Status.ACTIVE:
        return None
    if events and max(ply for ply, _event in events) < game.ply:
        # Moves came after these events (a bot's turn, one hook per move): the hook that
        # holds the last of them sends the turn and the views, after every move event.
        return None
    if not _first_time(game_id, game.ply, game.deal_number):
        return None
    row = Deal.objects.filter(game=game, number=game.deal_number).only("state").first()
    if row is None:
        return None
    seats = list(Seat.objects.filter(game=game).select_related("user__profile", "premove"))
    return CommittedState(
        game=game,
        deal=row.restore(game.engine_ruleset()),
        seats=seats,
        hands=_hands_changed(events, game.deal_number),
    )


# Events that change no one's hand (the seat to move gets its view anyway).
_HANDS_KEPT = frozenset(
    {"turn", "timed_out", "waiting_for_player", "absent_choice", "absent_decided", "chat"}
    | {"deadline_changed", "deal_ready", "player_left", "player_returned", "chat_hidden"}
)


def _hands_changed(
    events: Sequence[tuple[int, Mapping[str, Any]]], deal: int
) -> frozenset[int] | None:
    """The seats whose hand a commit's ``events`` changed (its moves' movers), for a
    commit whose service could not hand over its state (a bot's turn, several moves in
    one transaction); None, every hand, for a new deal (or moves of an earlier one than
    ``deal``, the deal committed) or an event not known to keep them."""
    if not events:
        return None
    seats: set[int] = set()
    for _ply, event in events:
        kind = event.get("type")
        move = event.get("move")
        if kind == "move" and isinstance(move, Mapping) and event.get("deal") == deal:
            seats.add(move["seat"])
        elif kind not in _HANDS_KEPT:
            return None
    return frozenset(seats)


def _publish(
    messages: list[tuple[str, dict[str, Any]]],
    private: list[Seat],
    live: CommittedState | None,
) -> None:
    """Send ``messages`` and each ``private`` seat's view to the groups that have a
    member (one look at the channel layer for all of them), in one trip to the
    event loop. Failures are logged: a committed move must not become an error."""
    layer = get_channel_layer()
    if layer is None or not (messages or private):
        return
    try:
        by_user = {user_group(seat.user_id): seat for seat in private}
        listening = groups_with_members(layer, {group for group, _ in messages} | set(by_user))
        out = [(group, message) for group, message in messages if group in listening]
        if live is not None and live.deal is not None:
            game = live.game
            for group, seat in by_user.items():
                if group in listening:
                    event = {
                        "type": "private",
                        "deal": game.deal_number,
                        "view": live.private_view(seat.position),
                    }
                    out.append(
                        (
                            group,
                            {
                                "type": "user.event",
                                "game": game.public_id,
                                "ply": game.ply,
                                "event": event,
                            },
                        )
                    )
        if not out:
            return

        async def send_all() -> None:
            for group, message in out:
                await layer.group_send(group, message)

        async_to_sync(send_all)()
    except Exception:
        logger.exception("could not publish the events of a commit")
