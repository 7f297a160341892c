"""Seating by drawn cards, before the first deal (Remik 51).

Each player draws one card from a shuffled pack; the highest card starts and the
others follow clockwise in the order of their cards. Only the value counts: aces
are high (A > K > … > 2) and suits break no tie. Players whose cards tie draw again,
among themselves, until every tie is broken; the cards already drawn stay out of the
pack (should it ever run out, it is gathered and shuffled again). The pack is the
two decks without jokers: a joker has no value of its own before it stands for a
card.

Seats are a circle, so only the clockwise order is fixed by the cards; of the
rotations that give it, the one that leaves the most players where they sat is
chosen (with two players nobody ever moves: the draw only says who starts).

Everything here is a function of its arguments: the random source is passed in,
and ``SeatingDraw.from_draws`` rebuilds (and checks) the seats from recorded cards.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .cards import ACE, STANDARD_CARDS, Card

__all__ = ["SeatingDraw", "draw_cards", "draw_value", "order_by_draws", "seats_for_order"]

# The pack the cards are drawn from: both decks, no jokers.
DRAW_PACK: Final[tuple[Card, ...]] = (*STANDARD_CARDS, *STANDARD_CARDS)


def draw_value(card: Card) -> int:
    """What a drawn card is worth for the seating: 2 to 10, J 11, Q 12, K 13, A 14."""
    if card.is_joker:
        raise ValueError("a joker is not drawn for the seating")
    return 14 if card.rank == ACE else card.rank


@dataclass(frozen=True, slots=True)
class SeatingDraw:
    """The cards each player drew and the seats that follow from them.

    Players are numbered by the seat they held before the draw (the lobby's order).
    ``draws[p]`` holds the cards player ``p`` drew: the first, then one more for each
    tie they were in. ``seats[p]`` is the seat player ``p`` takes.
    """

    draws: tuple[tuple[Card, ...], ...]
    seats: tuple[int, ...]

    @classmethod
    def from_draws(cls, draws: Sequence[Sequence[Card]]) -> SeatingDraw:
        """The seating that recorded ``draws`` give; ``ValueError`` if they settle nothing
        (a tie left standing, a redraw without a tie)."""
        cards = tuple(tuple(player) for player in draws)
        return cls(draws=cards, seats=seats_for_order(order_by_draws(cards)))

    @property
    def players(self) -> int:
        return len(self.draws)

    @property
    def order(self) -> tuple[int, ...]:
        """Players, highest card first: clockwise from the starter."""
        return order_by_draws(self.draws)

    @property
    def starter(self) -> int:
        """The seat of the highest card: it plays first."""
        return self.seats[self.order[0]]

    @property
    def dealer(self) -> int:
        """The seat before the starter (a deal starts at the seat after its dealer)."""
        return (self.starter - 1) % self.players

    def drawn_by_seat(self) -> tuple[tuple[Card, ...], ...]:
        """``draws`` indexed by the new seats."""
        by_seat: list[tuple[Card, ...]] = [()] * self.players
        for player, seat in enumerate(self.seats):
            by_seat[seat] = self.draws[player]
        return tuple(by_seat)

    def view(self) -> dict[str, Any]:
        """What the players are shown, by their seats now: the cards each drew (a tie's
        redraws after the first), the seat that starts, and the seat each held before."""
        lobby = [0] * self.players
        for before, after in enumerate(self.seats):
            lobby[after] = before
        return {
            "cards": [[str(card) for card in cards] for cards in self.drawn_by_seat()],
            "starter": self.starter,
            "lobby_seats": lobby,
        }

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe: the cards as text (``"KH"``), per player, and each player's new seat."""
        return {
            "draws": [[str(card) for card in player] for player in self.draws],
            "seats": list(self.seats),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeatingDraw:
        """Inverse of ``to_dict``; the seats are recomputed from the cards and must agree."""
        drawn = cls.from_draws([[Card.parse(text) for text in player] for player in data["draws"]])
        if list(drawn.seats) != list(data["seats"]):
            raise ValueError(f"the recorded seats {data['seats']} do not follow from the cards")
        return drawn

    def __repr__(self) -> str:
        cards = [" ".join(str(card) for card in player) for player in self.draws]
        return f"<SeatingDraw draws={cards} seats={list(self.seats)}>"


def draw_cards(
    players: int, rng: random.Random, *, pack: Sequence[Card] = DRAW_PACK
) -> tuple[tuple[Card, ...], ...]:
    """Each of ``players`` draws a card from ``pack`` shuffled with ``rng``; tied players
    draw again until no two players' cards are level."""
    if players < 1:
        raise ValueError("the seating needs at least one player")
    if players > 1 and len({draw_value(card) for card in pack}) < 2:
        raise ValueError("the pack needs cards of two values at least, or ties never end")
    stock: list[Card] = []
    draws: list[list[Card]] = [[] for _ in range(players)]
    tied = [list(range(players))]
    while tied:
        for group in tied:
            for player in group:
                if not stock:
                    stock = list(pack)
                    rng.shuffle(stock)
                draws[player].append(stock.pop())
        tied = [level for group in tied for level in _ties(group, draws)]
    return tuple(tuple(player) for player in draws)


def _ties(group: Sequence[int], draws: Sequence[Sequence[Card]]) -> list[list[int]]:
    """The players of ``group`` whose latest cards are level, in groups of two or more."""
    by_value: dict[int, list[int]] = {}
    for player in group:
        by_value.setdefault(draw_value(draws[player][-1]), []).append(player)
    return [level for level in by_value.values() if len(level) > 1]


def order_by_draws(draws: Sequence[Sequence[Card]]) -> tuple[int, ...]:
    """Players by their cards, highest first: the first card decides, a redraw breaks a
    tie. ``ValueError`` when a tie was left standing (a player level with another did
    not draw again), or a player drew again without a tie to break."""
    if not draws or any(not player for player in draws):
        raise ValueError("every player draws at least one card")
    keys = [tuple(draw_value(card) for card in player) for player in draws]
    for player, key in enumerate(keys):
        if len(key) > 1 and not any(
            other != player and keys[other][: len(key) - 1] == key[:-1]
            for other in range(len(keys))
        ):
            raise ValueError(f"player {player} drew again without a tie")
    for player, key in enumerate(keys):
        if any(other != player and keys[other][: len(key)] == key for other in range(len(keys))):
            raise ValueError(f"player {player} tied and did not draw again")
    return tuple(sorted(range(len(keys)), key=lambda player: keys[player], reverse=True))


def seats_for_order(order: Sequence[int]) -> tuple[int, ...]:
    """The seat of each player when ``order`` (players, starter first) goes clockwise.

    Of the rotations that do, the one that leaves the most players in their seats;
    between equals, the one that puts the starter in the lowest seat.
    """
    players = len(order)
    if sorted(order) != list(range(players)):
        raise ValueError(f"the order must name each of the {players} players once")

    def stay(shift: int) -> int:
        return sum(player == (shift + place) % players for place, player in enumerate(order))

    best = max(range(players), key=lambda shift: (stay(shift), -shift)) if players else 0
    seats = [0] * players
    for place, player in enumerate(order):
        seats[player] = (best + place) % players
    return tuple(seats)
