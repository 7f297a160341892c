"""A person plays a whole game against bots through the public API and the websocket
only, as a third-party client would: create a play-now game with an API token,
connect ``/ws/v1/`` with the token, and from then on react to events (an event →
GET the state; your turn → act). Bots are Celery tasks (eager in tests).

The person's policy uses only what the view shows: draw; open when the view says
``lay`` is possible and the engine's solver finds an opening in its OWN hand; lay
more melds once open; discard the card worth the most penalty (never a joker).
Afterwards: the game finished, the results agree everywhere, and no event or
answer ever carried a card the person was not allowed to see.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games.engine import Card, Ruleset, best_opening, card_penalty, opening_for_turn
from games.models import Deal, Game, Move
from games.read.replay import deal_as_dealt
from tests.gamekit import (
    SERVER_ONLY_KEYS,
    SchemaChecker,
    ShownCards,
    assert_view_hides_secrets,
    card_pairs,
    keys_in,
)
from tests.live.ws_kit import websocket

pytestmark = pytest.mark.django_db(transaction=True)

GAME_TIMEOUT_S = 180.0


# ------------------------------------------------------------------ the person's policy


def choose(state: dict[str, Any]) -> dict[str, Any] | None:
    """The next action from the game view alone (None: nothing to do)."""
    actions = state["can"]["act"]
    deal = state["deal"]
    if not actions or deal is None:
        return None
    if "draw" in actions:
        return {"type": "draw"}
    ruleset = Ruleset.from_dict(state["ruleset"])
    hand = [Card.parse(pair["card"]) for pair in deal["hand"]]
    if "lay" in actions:
        opened = deal["opened"][state["you"]]
        melds = best_opening(hand, ruleset, keep=1) if opened else opening_for_turn(hand, ruleset)
        if melds:
            return {"type": "lay", "melds": [[str(card) for card in meld.cards] for meld in melds]}
    return discard(state)


def discard(state: dict[str, Any]) -> dict[str, Any]:
    deal = state["deal"]
    if deal["must_return"]:
        return {"type": "discard", "card": deal["must_return"]}
    ruleset = Ruleset.from_dict(state["ruleset"])
    hand = [Card.parse(pair["card"]) for pair in deal["hand"]]
    worst = max(hand, key=lambda card: (not card.is_joker, card_penalty(card, ruleset)))
    return {"type": "discard", "card": str(worst)}


# ------------------------------------------------------------------ the client


class Player:
    """One person's client: an API client with a token and a websocket connection."""

    def __init__(self, api: Any, game_id: str, me: int) -> None:
        self.api = api
        self.game_id = game_id
        self.me = me
        self.known_ply = -1  # the newest state read: older events are old news
        self.events: list[dict[str, Any]] = []
        self.acted = 0
        self.refused = 0
        self.shown = ShownCards()
        self.ws: WebsocketCommunicator | None = None

    async def connect(self, ply: int) -> None:
        self.ws = websocket(self.api.token)
        connected, _ = await self.ws.connect()
        assert connected
        hello = await self.ws.receive_json_from()
        assert hello["type"] == "hello" and hello["user"] == self.api.user.username
        await self.ws.send_json_to({"type": "subscribe", "game": self.game_id, "ply": ply})

    async def next_event(self, timeout: float = 20.0) -> dict[str, Any]:
        assert self.ws is not None
        end = time.monotonic() + timeout
        # (A timed-out receive would cancel the application: ask first.)
        while await self.ws.receive_nothing(timeout=0.05):
            if time.monotonic() > end:
                raise AssertionError(f"no event for {timeout} s; last: {self.events[-3:]}")
        event: dict[str, Any] = await self.ws.receive_json_from()
        self.events.append(event)
        return event

    async def get_state(self) -> dict[str, Any]:
        response = await database_sync_to_async(self.api.get)(f"/api/v1/games/{self.game_id}")
        assert response.status_code == 200, response.json()
        state: dict[str, Any] = response.json()
        self.known_ply = max(self.known_ply, state["ply"])
        game = await database_sync_to_async(Game.objects.get)(public_id=self.game_id)
        await database_sync_to_async(assert_view_hides_secrets)(
            state, state["you"], game, self.shown
        )
        return state

    async def post_action(self, action: dict[str, Any], ply: int) -> Any:
        return await database_sync_to_async(self.api.post)(
            f"/api/v1/games/{self.game_id}/actions", {"action": action, "ply": ply}, format="json"
        )

    async def act(self, state: dict[str, Any]) -> None:
        """One action of our turn (the next event tells us what follows). A lay the
        engine refuses (400) is dropped for a discard."""
        action = choose(state)
        if action is None:
            return
        response = await self.post_action(action, state["ply"])
        if response.status_code == 400 and action["type"] == "lay":
            self.refused += 1
            action = discard(state)
            response = await self.post_action(action, state["ply"])
        assert response.status_code == 200, (action, response.json())
        self.acted += 1
        assert response.json()["move"]["seat"] == self.me
        self.known_ply = max(self.known_ply, response.json()["game"]["ply"])


async def play_to_the_end(player: Player) -> dict[str, Any]:
    """React to events until the game is over: on an event that may concern us, GET
    the state; when it is our turn, act. Returns the last state read."""
    end = time.monotonic() + GAME_TIMEOUT_S
    acted_at: set[int] = set()
    while time.monotonic() < end:
        event = await player.next_event()
        kind = event["type"]
        if kind not in ("subscribed", "resync") and event["ply"] < player.known_ply:
            continue  # we have read a newer state already (the protocol: ignore it)
        wakes = (
            kind in ("subscribed", "resync", "game_over", "deal_over")
            or (kind == "turn" and event["seat"] == player.me)
            or (kind == "private" and event["view"]["actions"])
        )
        if not wakes:
            continue
        state = await player.get_state()
        if state["status"] == "finished":
            return state
        assert state["status"] == "active", state["status"]
        if state["can"]["act"] and state["ply"] not in acted_at:
            acted_at.add(state["ply"])
            await player.act(state)
    raise AssertionError("the game did not end in time")


# ------------------------------------------------------------------ the checks


def assert_no_event_shows_hidden_cards(events: list[dict[str, Any]], game: Game, me: int) -> None:
    """Every card in every event was public or the person's own at the event's ply (and
    once a deal is over, the hands it ended with)."""
    game.refresh_from_db()
    ruleset = Ruleset.from_dict(game.ruleset)
    rows = {row.number: row for row in Deal.objects.filter(game=game)}
    moves = list(Move.objects.filter(game=game).select_related("deal", "seat").order_by("ply"))
    for event in events:
        assert not SERVER_ONLY_KEYS & keys_in(event), event
        if event["type"] == "private":
            assert event["view"]["seat"] == me and event["view"]["hand"] is not None
        pairs = dict(card_pairs(event))
        if not pairs:
            continue
        assert "deal" in event, event
        row = rows[event["deal"]]
        dealt = deal_as_dealt(row, ruleset, game.players)
        allowed = set(dealt.hand_ids(me)) | set(dealt.discard_ids)
        if event["type"] == "deal_over":
            # A finished deal's hands are laid open for the count (the deal's result).
            final = row.restore(ruleset)
            allowed |= {card_id for seat in range(game.players) for card_id in final.hand_ids(seat)}
        for move in moves:
            if move.deal_id != row.pk or move.ply > event["ply"]:
                continue
            allowed |= {card_id for card_id, _ in card_pairs(move.public)}
            if move.seat.position == me and move.private is not None:
                allowed |= {card_id for card_id, _ in card_pairs(move.private)}
        leaked = set(pairs) - allowed
        assert not leaked, f"{event['type']} at ply {event['ply']} shows hidden cards {leaked}"
        for card_id, text in pairs.items():
            assert str(dealt.card(card_id)) == text


@pytest.mark.parametrize("bots_count", [1, 3])
async def test_a_person_plays_a_whole_game_against_bots_over_the_api_and_websocket(
    user_factory: Callable[..., Any],
    client_for: Callable[[Any], Any],
    bots: list[Any],
    deals_seeded: Callable[[int], None],
    bots_count: int,
) -> None:
    person = await database_sync_to_async(user_factory)(username="ana")
    api = await database_sync_to_async(client_for)(person)

    created = await database_sync_to_async(api.post)(
        "/api/v1/games/play-now",
        {"preset": "polish51", "bots": bots_count, "level": 2},
        format="json",
    )
    assert created.status_code == 201, created.json()
    start = created.json()
    assert start["status"] == "active" and start["deals_in_match"] == 1
    player = Player(api, start["id"], start["you"])
    await player.connect(start["ply"])

    final = await play_to_the_end(player)
    # The last events of the last commits may still be on their way.
    while not any(event["type"] == "game_over" for event in player.events):
        await player.next_event(timeout=10)
    while not await player.ws.receive_nothing(timeout=0.3):
        player.events.append(await player.ws.receive_json_from())
    await player.ws.disconnect()

    # The game finished, and everyone agrees on its result.
    assert final["status"] == "finished" and final["end_reason"] == "completed"
    assert player.acted > 0
    totals = [seat["total"] for seat in final["seats"]]
    assert final["winners"] == [p for p, total in enumerate(totals) if total == min(totals)]
    over = [e for e in player.events if e["type"] == "game_over"]
    assert len(over) == 1
    assert over[0]["winners"] == final["winners"] and over[0]["totals"] == totals
    deal_over = [e for e in player.events if e["type"] == "deal_over"]
    assert len(deal_over) == 1 and deal_over[0]["deal"] == 1
    assert deal_over[0]["result"]["scores"] == totals
    assert final["deal"]["result"]["scores"] == totals
    log = await database_sync_to_async(api.get)(f"/api/v1/games/{player.game_id}/moves?limit=1000")
    assert log.status_code == 200
    assert log.json()["complete"] is True and log.json()["deals"][0]["result"]["scores"] == totals

    def check_schema() -> None:
        checker = SchemaChecker(api)
        checker.check("GET", "/api/v1/games/{game_id}/moves", 200, log.json())
        checker.check("GET", "/api/v1/games/{game_id}", 200, final)

    await database_sync_to_async(check_schema)()
    # The events saw every move: their plies cover the log.
    game = await database_sync_to_async(Game.objects.get)(public_id=player.game_id)
    move_plies = sorted(e["ply"] for e in player.events if e["type"] == "move")
    assert move_plies[-1] == game.ply
    # Nothing hidden in any event or answer.
    await database_sync_to_async(assert_no_event_shows_hidden_cards)(
        player.events, game, start["you"]
    )
    # (And the check does catch a card of another hand.)
    secret, before_any_move = await database_sync_to_async(a_card_dealt_to_another)(
        game, start["you"]
    )
    forged = {"type": "private", "deal": 1, "ply": before_any_move, "view": {"seat": start["you"]}}
    forged["view"]["hand"] = [secret]
    with pytest.raises(AssertionError, match="hidden cards"):
        await database_sync_to_async(assert_no_event_shows_hidden_cards)(
            [forged], game, start["you"]
        )


def a_card_dealt_to_another(game: Game, me: int) -> tuple[dict[str, Any], int]:
    """A card dealt to the next seat in deal 1, and the ply just before the deal's first
    move, when no card of that hand had been shown. (A card hidden at the game's end
    would do only when one is left: a long deal whose stock was turned over shows every
    card.)"""
    row = Deal.objects.get(game=game, number=1)
    dealt = deal_as_dealt(row, Ruleset.from_dict(game.ruleset), game.players)
    card_id = dealt.hand_ids((me + 1) % game.players)[0]
    first = Move.objects.filter(deal=row).order_by("ply").values_list("ply", flat=True).first()
    assert first is not None and first > 0
    return {"id": card_id, "card": str(dealt.card(card_id))}, first - 1
