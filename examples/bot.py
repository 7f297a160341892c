"""A complete Remi bot in one file, built on the public API alone: REST for the state
and the moves, one websocket for everything that happens (docs/api.md).

    pip install httpx websockets
    python examples/bot.py --server http://127.0.0.1:8000 --token remi_...
    python examples/bot.py --server ... --token ... --challenge random-rita --games 1

The account of the token should be a bot account (``POST /api/v1/me/bot``, once, with
that token). The bot:

- opens ``/ws/v1/`` with its token and subscribes to its event stream: first the state
  (pending challenges, games under way, turns waiting), then each change;
- accepts casual challenges made to it and declines rated ones (reason ``casual``);
  with ``--challenge NAME`` it challenges that account itself (a built-in bot accepts
  at once);
- on ``your_turn`` reads the game (``GET /api/v1/games/{id}``) and plays its whole
  turn: it draws, lays down the melds it finds in its hand once the server says they
  open (``POST /api/v1/games/{id}/melds/check``), lays off what the seat's ``legal``
  moves allow, and discards the card least likely to make a meld. Every move carries
  the ``ply`` it was read at and an ``Idempotency-Key``; a ``409 stale_ply`` means:
  read again;
- waits out ``429 throttled`` and ``503 service_unavailable`` (the site's database
  restarting) for the ``Retry-After`` seconds and sends the same request again: a move
  that did commit is then refused as stale, never made twice.

``--trace`` prints every websocket frame (``<`` received, ``>`` sent) as one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}
SUITS = "SHDC"
MAX_ACTIONS_PER_TURN = 40


# ---------------------------------------------------------------- cards and melds


def parse_card(text: str) -> tuple[int, str] | None:
    """``"10H"`` -> ``(10, "H")``; a joker (``"JK"``) -> None."""
    if text == "JK":
        return None
    rank, suit = text[:-1], text[-1]
    return (RANKS[rank] if rank in RANKS else int(rank)), suit


def card_points(text: str) -> int:
    """What a card left in the hand costs, roughly: aces and faces 10, jokers most."""
    parsed = parse_card(text)
    if parsed is None:
        return 50
    rank, _suit = parsed
    return 10 if rank == 1 or rank > 10 else rank


def find_melds(hand: list[dict[str, Any]]) -> list[list[int]]:
    """Runs (three or more of a suit in a row, the ace low or high) and sets (three or
    four of a rank in different suits) among the natural cards of ``hand``, by card
    id, each card in one meld at most. The server decides whether they are melds."""
    naturals: list[tuple[int, int, str]] = []
    for pair in hand:
        parsed = parse_card(pair["card"])
        if parsed is not None:
            naturals.append((pair["id"], *parsed))
    used: set[int] = set()
    melds: list[list[int]] = []
    for suit in SUITS:
        by_rank: dict[int, int] = {}
        for card_id, rank, card_suit in naturals:
            if card_suit == suit and card_id not in used:
                by_rank.setdefault(rank, card_id)
        if 1 in by_rank:
            by_rank[14] = by_rank[1]  # the ace above the king
        for run in _runs(sorted(by_rank)):
            ids = [by_rank[rank] for rank in run]
            if len(set(ids)) == len(ids) and not used & set(ids):
                melds.append(ids)
                used.update(ids)
    ranks: dict[int, dict[str, int]] = {}
    for card_id, rank, suit in naturals:
        if card_id not in used:
            ranks.setdefault(rank, {}).setdefault(suit, card_id)
    for by_suit in ranks.values():
        if len(by_suit) >= 3:
            ids = list(by_suit.values())[:4]
            melds.append(ids)
            used.update(ids)
    jokers = [pair["id"] for pair in hand if parse_card(pair["card"]) is None]
    left = [card for card in naturals if card[0] not in used]
    for pair in _joker_pairs(left):
        if not jokers:
            break
        melds.append([*pair, jokers.pop()])  # one joker completes a set or a run
        used.update(pair)
    return melds


def _joker_pairs(cards: list[tuple[int, int, str]]) -> list[tuple[int, int]]:
    """Two cards that a joker makes a meld of: a rank in two suits, or two cards of a
    suit one or two apart; the most valuable first, each card once."""
    options: list[tuple[int, int, int]] = []
    for index, (first, rank, suit) in enumerate(cards):
        for second, other_rank, other_suit in cards[index + 1 :]:
            same_rank = rank == other_rank and suit != other_suit
            near = suit == other_suit and 1 <= abs(rank - other_rank) <= 2
            if same_rank or near:
                options.append((rank + other_rank, first, second))
    pairs: list[tuple[int, int]] = []
    taken: set[int] = set()
    for _value, first, second in sorted(options, reverse=True):
        if first not in taken and second not in taken:
            pairs.append((first, second))
            taken.update((first, second))
    return pairs


def partners(text: str, hand: list[str]) -> int:
    """How many cards of ``hand`` could make a meld with ``text``: the same rank in
    another suit, or the same suit one or two ranks away."""
    card = parse_card(text)
    if card is None:
        return 99  # a joker fits anywhere: never thrown away while there is a choice
    rank, suit = card
    count = 0
    for other in hand:
        parsed = parse_card(other)
        if parsed is None or other == text:
            continue
        other_rank, other_suit = parsed
        if (other_rank == rank and other_suit != suit) or (
            other_suit == suit and 1 <= abs(other_rank - rank) <= 2
        ):
            count += 1
    return count


def _runs(ranks: list[int]) -> list[list[int]]:
    """The stretches of three or more consecutive ranks, longest first."""
    stretches: list[list[int]] = []
    current: list[int] = []
    for rank in ranks:
        if current and rank == current[-1] + 1:
            current.append(rank)
        else:
            current = [rank]
            stretches.append(current)
    return sorted((s for s in stretches if len(s) >= 3), key=len, reverse=True)


# ---------------------------------------------------------------- the bot


class Refused(Exception):
    """The site answered a request with an error (its JSON error says why)."""


class Patient(httpx.AsyncBaseTransport):
    """``inner``, sending a request again after a 429 or a 503 once its ``Retry-After``
    seconds are over (at most a minute each, ``tries`` in all)."""

    def __init__(self, inner: httpx.AsyncBaseTransport, tries: int = 6) -> None:
        self.inner = inner
        self.tries = tries

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        for _ in range(self.tries - 1):
            response = await self.inner.handle_async_request(request)
            if response.status_code not in (429, 503):
                return response
            wait = response.headers.get("Retry-After", "1")
            await response.aclose()
            await asyncio.sleep(min(float(wait) if wait.isdigit() else 1.0, 60.0))
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()


@dataclass
class Bot:
    server: str
    token: str
    challenge: str | None = None
    preset: str = "polish51"
    house_rules: dict[str, Any] = field(default_factory=dict)  # over the preset's rules
    games: int | None = None  # stop after this many games finished
    trace: bool = False
    finished: list[str] = field(default_factory=list)
    _api: httpx.AsyncClient | None = None

    @property
    def api(self) -> httpx.AsyncClient:
        assert self._api is not None
        return self._api

    async def run(self) -> None:
        headers = {"Authorization": f"Bearer {self.token}"}
        patient = Patient(httpx.AsyncHTTPTransport())
        async with httpx.AsyncClient(
            base_url=self.server, headers=headers, timeout=30, transport=patient
        ) as self._api:
            me = await self.get("/api/v1/me")
            self.say(f"signed in as {me['username']} (bot account: {me['is_bot']})")
            url = self.server.replace("http", "ws", 1).rstrip("/") + "/ws/v1/"
            async with connect(url, additional_headers=headers) as ws:
                await self.listen(ws)

    async def listen(self, ws: ClientConnection) -> None:
        hello = await self.receive(ws)
        assert hello["type"] == "hello", hello
        await self.send(ws, {"type": "subscribe", "stream": "events"})
        async for raw in ws:
            frame = json.loads(raw)
            self.trace_frame("<", frame)
            if frame["type"] == "subscribed" and frame.get("stream") == "events":
                if self.challenge is not None:
                    await self.make_challenge(self.challenge)
                continue
            await self.handle(frame)
            if self.games is not None and len(self.finished) >= self.games:
                return

    async def handle(self, frame: dict[str, Any]) -> None:
        kind = frame["type"]
        if kind == "challenge" and frame["direction"] == "in":
            await self.answer_challenge(frame["challenge"])
        elif kind == "challenge_declined" and frame["direction"] == "out":
            reason = frame["challenge"]["decline_reason"]
            self.say(f"challenge {frame['challenge']['id']} declined ({reason})")
        elif kind == "game_start":
            self.say(f"game {frame['game']} under way, in seat {frame['seat']}")
        elif kind == "your_turn":
            await self.play_turn(frame["game"])
        elif kind == "game_finish" and frame["game"] not in self.finished:
            self.finished.append(frame["game"])
            self.say(f"game {frame['game']} {frame['status']}, winners {frame['winners']}")
        elif kind == "error":
            self.say(f"the server refused a frame: {frame['code']}: {frame['message']}")

    # ------------------------------------------------------------ challenges

    async def make_challenge(self, username: str) -> None:
        body = {"to": username, "preset": self.preset, "rated": False}
        if self.house_rules:
            body["overrides"] = self.house_rules
        challenge = await self.post("/api/v1/challenges", body)
        self.say(f"challenged {username}: {challenge['status']}")

    async def answer_challenge(self, challenge: dict[str, Any]) -> None:
        if challenge["status"] != "pending":
            return
        path = f"/api/v1/challenges/{challenge['id']}"
        if challenge["rated"]:
            await self.post(f"{path}/decline", {"reason": "casual"})
            self.say(f"declined {challenge['id']}: rated")
            return
        accepted = await self.post(f"{path}/accept", {})
        self.say(f"accepted {challenge['id']} from {challenge['challenger']['username']}")
        assert accepted["game"], accepted

    # ------------------------------------------------------------ playing

    async def play_turn(self, game_id: str) -> None:
        """Play while it is this bot's turn: a turn is a draw, melds and lay-offs, a
        discard. Each step reads the answer's game, so a stale read costs one retry."""
        game = await self.get(f"/api/v1/games/{game_id}")
        for _ in range(MAX_ACTIONS_PER_TURN):
            if game["status"] != "active" or game["to_move"] != game["you"]:
                return
            action = await self.choose(game)
            moved = await self.act(game, action)
            game = moved if moved is not None else await self.get(f"/api/v1/games/{game_id}")

    async def choose(self, game: dict[str, Any]) -> dict[str, Any]:
        view = game["deal"]
        legal = view.get("legal") or {}
        hand = view["hand"]
        if view["phase"] == "draw":
            if legal.get("draw", "draw" in view["actions"]):
                return {"type": "draw"}
            return {"type": "take"}
        if len(hand) > 1:
            lay = await self.melds_to_lay(game)
            if lay:
                return {"type": "lay", "melds": lay}
            for lay_off in legal.get("lay_offs") or ():
                if len(hand) > 2:
                    return dict(lay_off)
        return {"type": "discard", "card": self.discard_choice(view, legal)}

    async def melds_to_lay(self, game: dict[str, Any]) -> list[list[str]]:
        """Melds from the hand that the server accepts now (an opening only if it reaches
        the minimum), always keeping a card to discard."""
        view = game["deal"]
        opened = view["opened"][game["you"]]
        allowed = (view.get("legal") or {}).get("lay", "lay" in view["actions"])
        if not allowed:
            return []
        melds = find_melds(view["hand"])
        while melds and sum(len(meld) for meld in melds) >= len(view["hand"]):
            melds.pop()  # keep a card for the discard
        if not melds:
            return []
        path = f"/api/v1/games/{game['id']}/melds/check"
        check = await self.post(path, {"melds": melds})
        valid = [
            [pair["id"] for pair in answer["cards"]] for answer in check["melds"] if answer["valid"]
        ]
        if not valid:
            return []
        if len(valid) < len(melds):
            # An opening is judged on the melds laid together: ask about the good ones.
            check = await self.post(path, {"melds": valid})
        if not opened and not check["opening"]["valid"]:
            return []
        return [[pair["card"] for pair in answer["cards"]] for answer in check["melds"]]

    @staticmethod
    def discard_choice(view: dict[str, Any], legal: dict[str, Any]) -> str:
        """The card least likely to make a meld, the highest of those: it costs most."""
        hand = [pair["card"] for pair in view["hand"]]
        candidates = legal.get("discards") or hand
        return min(candidates, key=lambda card: (partners(card, hand), -card_points(card)))

    async def act(self, game: dict[str, Any], action: dict[str, Any]) -> dict[str, Any] | None:
        """Send ``action`` at the game's ply: the game after it, or None to read again."""
        response = await self.api.post(
            f"/api/v1/games/{game['id']}/actions",
            json={"action": action, "ply": game["ply"]},
            headers={"Idempotency-Key": str(uuid.uuid4())},
        )
        if response.status_code == 200:
            after: dict[str, Any] = response.json()["game"]
            return after
        error = response.json()["error"]
        if response.status_code == 400 and action["type"] != "discard":
            # The server said no (a rule this bot does not know): discard instead.
            self.say(f"{action['type']} refused ({error['code']}): discarding")
            view = game["deal"]
            card = self.discard_choice(view, view.get("legal") or {})
            return await self.act(game, {"type": "discard", "card": card})
        if response.status_code != 409:  # 409 stale_ply: read the game again
            self.say(f"{action} refused: {error['code']}: {error['message']}")
        return None

    # ------------------------------------------------------------ plumbing

    async def get(self, path: str) -> dict[str, Any]:
        response = await self.api.get(path)
        if response.is_error:
            raise Refused(f"GET {path}: {response.status_code} {response.text}")
        body: dict[str, Any] = response.json()
        return body

    async def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        response = await self.api.post(path, json=body)
        if response.is_error:
            raise Refused(f"POST {path}: {response.status_code} {response.text}")
        answer: dict[str, Any] = response.json()
        return answer

    async def receive(self, ws: ClientConnection) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(await ws.recv())
        self.trace_frame("<", frame)
        return frame

    async def send(self, ws: ClientConnection, frame: dict[str, Any]) -> None:
        self.trace_frame(">", frame)
        await ws.send(json.dumps(frame))

    def trace_frame(self, direction: str, frame: dict[str, Any]) -> None:
        if self.trace:
            print(direction, json.dumps(frame), flush=True)

    def say(self, text: str) -> None:
        print(f"# {text}", flush=True)


def json_object(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise argparse.ArgumentTypeError(f"not JSON: {error}") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError("a JSON object of rules and values is needed")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000", help="the site's URL")
    parser.add_argument("--token", required=True, help="an API token of the bot account")
    parser.add_argument("--challenge", metavar="USERNAME", help="challenge this account")
    parser.add_argument("--preset", default="polish51", help="the rules of --challenge")
    parser.add_argument(
        "--house-rules",
        type=json_object,
        default={},
        metavar="JSON",
        help="house rules of --challenge, e.g. '{\"match_deals\": [1, 1, 1, 1, 1]}': one deal",
    )
    parser.add_argument("--games", type=int, help="stop after this many games finished")
    parser.add_argument("--trace", action="store_true", help="print every websocket frame")
    args = parser.parse_args(argv)
    bot = Bot(
        server=args.server,
        token=args.token,
        challenge=args.challenge,
        preset=args.preset,
        house_rules=args.house_rules,
        games=args.games,
        trace=args.trace,
    )
    try:
        asyncio.run(bot.run())
    except KeyboardInterrupt:
        return 130
    except Refused as refusal:
        # A bad token, bad house rules, a move the rules refuse: said, not a traceback.
        print(f"bot.py: the site refused {refusal}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
