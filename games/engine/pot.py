"""Splitting a game's pot when it ends (Remik 51's prize pool, played for chips).

The rule, from the Polish rules: the pot is shared out by penalty points; the winner
gets at least 75 %, and the other 25 % goes to the other players who finished with
fewer than 50 penalty points. How that quarter is shared is ours to say, and the
rule's "by penalty points" says it: in proportion to how far below 50 each one
finished (50 − points), so 10 points earns four times what 40 points does.

Chips are whole, so:

- the quarter is ``pot * 25 // 100`` (rounded down: the winner's part rounds up and is
  never below 75 %);
- each share of it is rounded down, and what rounding leaves over goes to the winner;
- with nobody below 50 the winner takes the whole pot;
- tied winners split the winner's part evenly, and the chips that do not divide go
  one each to the tied winners from the lowest seat up.

A seat marked as not in the game (it resigned, or was put out) shares nothing.
Everything here is integer arithmetic on its arguments; the shares add up to the pot.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Final

__all__ = ["OTHERS_PERCENT", "SHARE_BELOW", "PotSplit", "split_pot"]

# The part of the pot (percent) for the players other than the winner.
OTHERS_PERCENT: Final = 25
# A player shares that part with fewer penalty points than this.
SHARE_BELOW: Final = 50


@dataclass(frozen=True, slots=True)
class PotSplit:
    """What each seat receives from the pot; ``payouts`` adds up to ``pot``."""

    pot: int
    payouts: tuple[int, ...]
    winners_part: int  # what the winners receive together (at least 75 % of the pot)

    @property
    def others_part(self) -> int:
        """What the other players receive together (at most 25 % of the pot)."""
        return self.pot - self.winners_part


def split_pot(
    pot: int,
    penalties: Sequence[int],
    winners: Collection[int],
    *,
    in_game: Sequence[bool] | None = None,
) -> PotSplit:
    """Split ``pot`` chips between the seats, which finished with ``penalties`` points.

    ``winners`` are the seats that won (ties share); ``in_game[s]`` is False for a seat
    that left the game (it shares nothing). ``ValueError`` for a negative pot, no
    winner, or a winner that is not a seat.
    """
    seats = len(penalties)
    if pot < 0:
        raise ValueError(f"a pot cannot be negative: {pot}")
    won = set(winners)
    if not won or any(not 0 <= seat < seats for seat in won):
        raise ValueError(f"the winners {sorted(won)} must be seats from 0 to {seats - 1}")
    playing = list(in_game) if in_game is not None else [True] * seats
    if len(playing) != seats:
        raise ValueError("in_game must say for every seat whether it is still in the game")

    quarter = pot * OTHERS_PERCENT // 100
    weights = [
        SHARE_BELOW - penalty if seat not in won and playing[seat] and penalty < SHARE_BELOW else 0
        for seat, penalty in enumerate(penalties)
    ]
    total_weight = sum(weights)
    payouts = [quarter * weight // total_weight if total_weight else 0 for weight in weights]

    rest = pot - sum(payouts)
    ordered = sorted(won)
    each, odd = divmod(rest, len(ordered))
    for place, seat in enumerate(ordered):
        payouts[seat] = each + (1 if place < odd else 0)
    return PotSplit(pot=pot, payouts=tuple(payouts), winners_part=rest)
