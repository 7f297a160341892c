"""Helpers for the games and API tests: deterministic deals, a simple player, an HTTP
table that plays games through the public API, and the two checks every played game
gets: nothing hidden leaked to anyone, and the log replays to the stored state."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from rest_framework.test import APIClient

from games.engine import (
    Action,
    Card,
    Discard,
    DrawStock,
    LayDown,
    LayOff,
    Match,
    Ruleset,
    action_from_dict,
    card_penalty,
)
from games.engine import Deal as EngineDeal
from games.engine.seating import SeatingDraw, draw_cards
from games.models import Deal, Game, Move
from games.play.act import game_act
from games.read.replay import NON_ENGINE_KINDS, deal_as_dealt, game_replay

DealSource = Callable[..., EngineDeal]


# ------------------------------------------------------------------ deterministic deals


def seeded_deal_source(seed: int) -> DealSource:
    """A ``shuffle.deal_source`` that shuffles with ``random.Random`` seeded from ``seed``."""
    seeds = random.Random(seed)

    def source(ruleset: Ruleset, players: int, *, dealer: int | None, number: int) -> EngineDeal:
        rng = random.Random(seeds.getrandbits(64))
        if dealer is None:
            return Match.new(ruleset, players, rng=rng).deal
        return EngineDeal.new(ruleset, players, dealer=dealer, rng=rng)

    return source


def seeded_seating_source(seed: int) -> Callable[[int], SeatingDraw]:
    """A ``shuffle.seating_source`` that draws with ``random.Random`` seeded from ``seed``."""
    seeds = random.Random(seed)

    def source(players: int) -> SeatingDraw:
        return SeatingDraw.from_draws(draw_cards(players, random.Random(seeds.getrandbits(64))))

    return source


def scripted_deal_source(
    decks: Callable[[Ruleset, int, int], list[Card]], fallback_seed: int = 0
) -> DealSource:
    """A ``deal_source`` that deals ``decks(ruleset, players, dealer)`` (top card first)."""
    fallback = seeded_deal_source(fallback_seed)

    def source(ruleset: Ruleset, players: int, *, dealer: int | None, number: int) -> EngineDeal:
        first = (
            dealer
            if dealer is not None
            else fallback(ruleset, players, dealer=None, number=number).dealer
        )
        deck = decks(ruleset, players, first)
        return EngineDeal.from_deck(
            ruleset, players, dealer=first, deck=deck, reshuffle_seeds=[1, 2, 3, 4]
        )

    return source


# ------------------------------------------------------------------ a simple player


def greedy_action(deal: EngineDeal) -> Action:
    """A plain, quick policy over ``deal.legal_actions()``: draw from the stock; lay the
    biggest meld (the best opening before opening); lay off; discard the card worth
    the most penalty (a joker never)."""
    actions = deal.legal_actions()
    if not deal.drawn:
        return DrawStock() if DrawStock() in actions else actions[0]
    lays = [a for a in actions if isinstance(a, LayDown)]
    if lays:
        return max(lays, key=lambda a: len(a.cards))
    offs = [a for a in actions if isinstance(a, LayOff)]
    if offs:
        return offs[0]
    discards = [a for a in actions if isinstance(a, Discard)]
    ruleset = deal.ruleset
    return max(discards, key=lambda a: (not a.card.is_joker, card_penalty(a.card, ruleset)))


def everyone_moves(game: Game, users: list[Any]) -> Game:
    """Play ``greedy_action`` until every seat (``users[position]``) has made a move of
    its own: a rated game that ends sooner is too short to rate."""
    moved: set[int] = set()
    while len(moved) < len(users):
        game.refresh_from_db()
        deal = current_engine_deal(game)
        mover = deal.to_move
        action = greedy_action(deal)
        game_act(game=game, user=users[mover], action=action, expected_ply=game.ply)
        moved.add(mover)
    game.refresh_from_db()
    return game


def current_engine_deal(game: Game) -> EngineDeal:
    row = Deal.objects.get(game=game, number=game.deal_number)
    return row.restore(game.engine_ruleset())


# ------------------------------------------------------------------ leak checks


def card_pairs(data: Any) -> Iterator[tuple[int, str]]:
    """Every ``{"id": …, "card": …}`` pair anywhere in a JSON value."""
    if isinstance(data, dict):
        if set(data) == {"id", "card"}:
            yield data["id"], data["card"]
            return
        for value in data.values():
            yield from card_pairs(value)
    elif isinstance(data, list):
        for value in data:
            yield from card_pairs(value)


def keys_in(data: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(data, dict):
        for key, value in data.items():
            found.add(key)
            found |= keys_in(value)
    elif isinstance(data, list):
        for value in data:
            found |= keys_in(value)
    return found


SERVER_ONLY_KEYS = {"deck", "card_ids", "reshuffle_seeds", "stock", "hands", "state", "seed"}


class ShownCards:
    """The card ids each deal of a game has shown to everyone so far: its upcard and
    whatever the public form of a move showed (discards, melds, takes, lay-offs,
    swaps). Read incrementally from the log."""

    def __init__(self) -> None:
        self.by_deal: dict[int, set[int]] = {}
        self.ply = 0

    def of(self, game: Game, row: Deal) -> set[int]:
        if row.number not in self.by_deal:
            ruleset = Ruleset.from_dict(game.ruleset)
            self.by_deal[row.number] = set(deal_as_dealt(row, ruleset, game.players).discard_ids)
        for number, public, ply in (
            Move.objects.filter(game=game, ply__gt=self.ply)
            .order_by("ply")
            .values_list("deal__number", "public", "ply")
        ):
            shown = self.by_deal.setdefault(number, set())
            shown |= {card_id for card_id, _ in card_pairs(public)}
            self.ply = ply
        return self.by_deal[row.number]


def assert_view_hides_secrets(
    view: dict[str, Any], viewer: int | None, game: Game, shown: ShownCards | None = None
) -> EngineDeal | None:
    """A game view shows ``viewer`` no card another seat holds privately, nothing of the
    stock, and no server-only field; its own hand exactly. Returns the deal checked
    against (``game`` is read again for it), None for a view without a deal."""
    assert not SERVER_ONLY_KEYS & keys_in(view), SERVER_ONLY_KEYS & keys_in(view)
    if view["deal"] is None:
        return None
    game.refresh_from_db()
    row = Deal.objects.get(game=game, number=game.deal_number)
    deal = row.restore(game.engine_ruleset())
    public = (shown or ShownCards()).of(game, row)
    hidden = set(deal.to_dict()["stock"])
    for seat in range(game.players):
        if seat != viewer:
            hidden |= set(deal.hand_ids(seat))
    visible = dict(card_pairs(view["deal"]))
    leaked = (set(visible) & hidden) - public
    assert not leaked, f"seat {viewer} sees hidden cards {sorted(leaked)}"
    for card_id, text in visible.items():
        assert str(deal.card(card_id)) == text  # the ids are the server's ids
    if viewer is None:
        assert view["deal"]["hand"] is None
    else:
        assert [pair["id"] for pair in view["deal"]["hand"]] == list(deal.hand_ids(viewer))
    return deal


def assert_log_hides_secrets(log: dict[str, Any], viewer: int | None, game: Game) -> None:
    """While the game runs a log entry is the public form, or the private one for the
    viewer's own moves; once over every entry is complete."""
    plies = [entry["ply"] for entry in log["results"]]
    moves = {move.ply: move for move in Move.objects.filter(game=game, ply__in=plies)}
    game.refresh_from_db()
    if not log["complete"]:
        assert not SERVER_ONLY_KEYS & keys_in(log)
    for entry in log["results"]:
        move = moves[entry["ply"]]
        private = move.private if move.private is not None else move.public
        if log["complete"] or entry["seat"] == viewer:
            assert entry["event"] == private
        else:
            assert entry["event"] == move.public


def cards_known_to(game: Game, number: int, seat: int | None) -> set[str]:
    """Every card ``seat`` could know of deal ``number`` while the game runs: the cards
    it held at any moment (none for a spectator) and those the upcard and the public
    log showed. Once the game is over every card is known."""
    row = Deal.objects.get(game=game, number=number)
    deal = deal_as_dealt(row, Ruleset.from_dict(game.ruleset), game.players)
    known = {str(card) for card in deal.discard_pile}
    if seat is not None:
        known |= {str(card) for card in deal.hand(seat)}
    for move in Move.objects.filter(deal=row).order_by("ply"):
        known |= {text for _id, text in card_pairs(move.public)}
        if move.kind not in NON_ENGINE_KINDS:
            deal = deal.apply(action_from_dict(move.payload))
            if seat is not None:
                known |= {str(card) for card in deal.hand(seat)}
    return known


def assert_review_hides_secrets(review: dict[str, Any], viewer: int | None, game: Game) -> None:
    """A deal's review (``GET .../deals/{n}/review``) of a running game holds the
    viewer's own turns only, and names no card the viewer never held nor saw."""
    if review["complete"]:
        return
    assert viewer is not None, "a spectator was given a running game's review"
    assert {turn["seat"] for turn in review["turns"]} <= {viewer}
    named: set[str] = set()
    for turn in review["turns"]:
        if turn["better"]:
            named |= {card for meld in turn["better"]["melds"] for card in meld}
            named |= set(turn["better"]["lay_offs"])
        if turn["fed"]:
            named.add(turn["fed"]["card"])
    leaked = named - cards_known_to(game, review["deal"], viewer)
    assert not leaked, f"seat {viewer} is shown cards it never held nor saw: {sorted(leaked)}"


# ------------------------------------------------------------------ replay


def assert_replays(game: Game) -> None:
    report = game_replay(game)
    assert report.ok, report.problems


def assert_every_game_replays() -> None:
    for game in Game.objects.all():
        assert_replays(game)


# ------------------------------------------------------------------ an HTTP table


class Table:
    """Players at one game, each with their own API client; plays through the API and
    checks every answer for leaks."""

    def __init__(self, game_id: str, clients: list[APIClient], spectator: APIClient | None):
        self.game_id = game_id
        self.clients = clients
        self.spectator = spectator
        self.requests = 0
        self.shown = ShownCards()

    @property
    def game(self) -> Game:
        return Game.objects.get(public_id=self.game_id)

    def url(self, suffix: str = "") -> str:
        return f"/api/v1/games/{self.game_id}{suffix}"

    def view(self, seat: int) -> dict[str, Any]:
        response = self.clients[seat].get(self.url())
        assert response.status_code == 200, response.json()
        data: dict[str, Any] = response.json()
        assert_view_hides_secrets(data, seat, self.game, self.shown)
        return data

    def act(self, seat: int, action: Action, ply: int, **headers: str) -> Any:
        self.requests += 1
        return self.clients[seat].post(
            self.url("/actions"), {"action": action.to_dict(), "ply": ply}, **headers
        )

    def play_turns(self, max_moves: int = 5000, check_every: int = 7) -> int:
        """Play the game to its end with ``greedy_action``; returns the moves made."""
        moves = 0
        game = self.game
        deal = _deal_in_play(game)
        while moves < max_moves:
            if game.status != Game.Status.ACTIVE:
                return moves
            assert deal is not None
            seat = deal.to_move
            response = self.act(seat, greedy_action(deal), game.ply)
            assert response.status_code == 200, response.json()
            body = response.json()
            assert body["move"]["ply"] == game.ply + 1
            # The check reads the game and its deal again: the next move is played on them.
            deal = assert_view_hides_secrets(body["game"], seat, game, self.shown)
            if deal is None:
                deal = _deal_in_play(game)
            moves += 1
            if moves % check_every == 0:
                self.check_everyone(recent=check_every)
        raise AssertionError(f"the game did not end in {max_moves} moves")

    def check_everyone(self, recent: int | None = None) -> None:
        """Every seat and a spectator read the game and the log (the last ``recent``
        moves of it, or all): nothing leaks."""
        game = self.game
        after = 0 if recent is None else max(0, game.ply - recent)
        readers: list[tuple[int | None, APIClient]] = list(enumerate(self.clients))
        if self.spectator is not None:
            readers.append((None, self.spectator))
        for seat, client in readers:
            view = client.get(self.url())
            assert view.status_code == 200
            assert_view_hides_secrets(view.json(), seat, game, self.shown)
            log = read_all(client, self.url(f"/moves?after={after}&page_size=100"))
            assert_log_hides_secrets(log, seat, game)
            if recent is None:
                self.check_reviews(seat, client)

    def check_reviews(self, seat: int | None, client: APIClient) -> None:
        """The review of every ended deal, as ``seat`` reads it: nothing leaks (a review
        not made yet is queued by asking, so it is read twice)."""
        game = self.game
        ended = Deal.objects.filter(game=game, finished_at__isnull=False)
        for number in ended.values_list("number", flat=True):
            for _attempt in range(2):
                response = client.get(self.url(f"/deals/{number}/review"))
                if response.status_code == 200:
                    assert_review_hides_secrets(response.json(), seat, game)
                    break
                watching = seat is None and not game.is_over
                expected = "review_players_only" if watching else "review_not_ready"
                assert response.json()["error"]["code"] == expected, response.json()
                if watching:
                    break


def _deal_in_play(game: Game) -> EngineDeal | None:
    """The deal being played, with ``game`` read again; None once the game is over."""
    game.refresh_from_db()
    return current_engine_deal(game) if game.status == Game.Status.ACTIVE else None


def table_create(
    clients: list[APIClient],
    *,
    preset: str,
    overrides: dict[str, Any] | None = None,
    spectator: APIClient | None = None,
) -> Table:
    """Create a game with ``clients[0]`` as host, the others join, the host starts."""
    players = len(clients)
    response = clients[0].post(
        "/api/v1/games",
        {"preset": preset, "players": players, "overrides": overrides or {}},
        format="json",
    )
    assert response.status_code == 201, response.json()
    game_id = response.json()["id"]
    for client in clients[1:]:
        joined = client.post(f"/api/v1/games/{game_id}/join", {}, format="json")
        assert joined.status_code == 200, joined.json()
    started = clients[0].post(f"/api/v1/games/{game_id}/start")
    assert started.status_code == 200, started.json()
    # Rules that seat the players by drawn cards may have moved them: clients by seat.
    seated = {seat["user"]["username"]: seat["position"] for seat in started.json()["seats"]}
    by_seat = sorted(clients, key=lambda client: seated[client.user.username])
    return Table(game_id, by_seat, spectator)


__all__ = [
    "Table",
    "assert_every_game_replays",
    "assert_log_hides_secrets",
    "assert_replays",
    "assert_review_hides_secrets",
    "assert_view_hides_secrets",
    "card_pairs",
    "current_engine_deal",
    "greedy_action",
    "scripted_deal_source",
    "seeded_deal_source",
    "table_create",
]


# ------------------------------------------------------------------ scripted deals and errors


def deck_with_starter_hand(
    ruleset: Ruleset, players: int, dealer: int, hand: list[Card], seed: int = 0
) -> list[Card]:
    """A full deck (top first) that deals ``hand`` to the starter (the seat after the
    dealer) and the rest of the pack, shuffled from ``seed``, everywhere else."""
    from games.engine import full_pack

    rest = full_pack(ruleset.jokers)
    for card in hand:
        rest.remove(card)
    random.Random(seed).shuffle(rest)
    starter = (dealer + 1) % players
    order = [(starter + k) % players for k in range(players)] * ruleset.hand_size
    order += [starter] * ruleset.starter_extra_card
    assert order.count(starter) == len(hand)
    mine, others = iter(hand), iter(rest)
    deck = [next(mine) if seat == starter else next(others) for seat in order]
    deck.extend(others)
    return deck


def read_all(client: APIClient, path: str) -> dict[str, Any]:
    """A whole paginated list: the first page's own fields and the ``results`` of every
    page, following ``next`` to the end."""
    response = client.get(path)
    assert response.status_code == 200, response.json()
    first = response.json()
    results = list(first["results"])
    page = first
    while page["next"] is not None:
        following = client.get(page["next"])
        assert following.status_code == 200, following.json()
        page = following.json()
        results.extend(page["results"])
    return {**first, "next": None, "results": results}


def error_of(response: Any) -> dict[str, Any]:
    """The error of a response in the API's one error shape."""
    body = response.json()
    assert set(body) == {"error"}, body
    assert set(body["error"]) == {"code", "message", "details"}, body
    error: dict[str, Any] = body["error"]
    return error


# A serbian starter's 15 cards that go out at once: two runs worth 28 + 68, then 5D.
QUICK_HAND = "AS 2S 3S 4S 5S 6S 7S 8H 9H 10H JH QH KH AH 5D"
QUICK_MELDS = ["AS 2S 3S 4S 5S 6S 7S", "8H 9H 10H JH QH KH AH"]


def quick_deal_source() -> DealSource:
    """Serbian deals in which the starter holds ``QUICK_HAND``: a dry hand in one turn."""
    from games.engine import parse_cards

    hand = parse_cards(QUICK_HAND)
    return scripted_deal_source(
        lambda ruleset, players, dealer: deck_with_starter_hand(ruleset, players, dealer, hand)
    )


def quick_actions() -> list[Action]:
    """The starter's turn with ``QUICK_HAND``: lay both runs, discard 5D (dry hand)."""
    from games.engine import parse_cards

    return [LayDown(parse_cards(meld) for meld in QUICK_MELDS), Discard(Card.parse("5D"))]


# ------------------------------------------------------------------ the OpenAPI schema


class SchemaChecker:
    """Checks API responses against the OpenAPI schema the site serves, strictly: an
    object may hold no key the schema does not list (so the schema stays complete)."""

    _cache: dict[str, Any] = {}

    def __init__(self, client: APIClient) -> None:
        if "schema" not in self._cache:
            response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
            assert response.status_code == 200
            self._cache["schema"] = self._strict(response.json())
        self.schema = self._cache["schema"]

    @classmethod
    def _strict(cls, node: Any) -> Any:
        """OpenAPI 3.0 -> JSON Schema: ``nullable`` becomes a null alternative; objects
        with listed properties forbid others."""
        if isinstance(node, list):
            return [cls._strict(item) for item in node]
        if not isinstance(node, dict):
            return node
        out = {key: cls._strict(value) for key, value in node.items()}
        if out.get("type") == "object" and "properties" in out:
            out.setdefault("additionalProperties", False)
        if out.pop("nullable", False):
            return {"anyOf": [out, {"type": "null"}]}
        return out

    def check(self, method: str, path: str, status: int, body: Any) -> None:
        import jsonschema

        operation = self.schema["paths"][path][method.lower()]
        assert str(status) in operation["responses"], f"{method} {path} {status} undocumented"
        content = operation["responses"][str(status)].get("content")
        if content is None:
            assert body in (None, b"", ""), f"{method} {path} {status} documents no body"
            return
        schema = dict(content["application/json"]["schema"])
        schema["components"] = self.schema["components"]
        jsonschema.validate(body, schema)
