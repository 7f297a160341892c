"""How a deal ends and what each seat scores for it (docs/rules.md §7, §8)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, TypeAlias, cast

from .cards import Card
from .rulesets import FinishScoring, Ruleset
from .values import hand_penalty

__all__ = ["FINISHES", "DealResult", "Finish", "classify_finish", "score_deal", "void_result"]

Finish: TypeAlias = Literal["normal", "joker", "mixed_hand", "dry_hand", "void"]
FINISHES: Final = ("normal", "joker", "mixed_hand", "dry_hand", "void")


@dataclass(frozen=True, slots=True)
class DealResult:
    """The end of a deal.

    ``winner`` is the seat that went out (None for a void deal); ``finish``
    names the scoring row applied; ``scores`` holds every seat's score for
    the deal, the winner's included; ``penalties`` the plain penalty of the
    cards each seat was left holding (0 for the winner).
    """

    winner: int | None
    finish: Finish
    scores: tuple[int, ...]
    penalties: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "finish": self.finish,
            "scores": list(self.scores),
            "penalties": list(self.penalties),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DealResult:
        finish = data["finish"]
        if finish not in FINISHES:
            raise ValueError(f"unknown finish {finish!r}")
        return cls(
            winner=data["winner"],
            finish=cast(Finish, finish),
            scores=tuple(int(score) for score in data["scores"]),
            penalties=tuple(int(penalty) for penalty in data["penalties"]),
        )


def classify_finish(
    ruleset: Ruleset, *, was_hand: bool, touched_others: bool, last_card: Card
) -> Finish:
    """The scoring row for going out; the first that applies wins, rows never stack.

    Precedence: dry hand > mixed hand > joker close > normal close. A hand
    (going out in the turn the player first laid anything down) that laid
    off onto or swapped from another player's meld is a mixed hand where
    the ruleset has one (serbian), and just a close everywhere else.
    """
    if was_hand and not touched_others:
        return "dry_hand"
    if was_hand and ruleset.mixed_hand and ruleset.mixed_hand_close is not None:
        return "mixed_hand"
    if last_card.is_joker and ruleset.joker_close_row is not None:
        return "joker"
    return "normal"


def _row(ruleset: Ruleset, finish: Finish) -> FinishScoring:
    rows: dict[Finish, FinishScoring | None] = {
        "dry_hand": ruleset.dry_hand_close,
        "mixed_hand": ruleset.mixed_hand_close,
        "joker": ruleset.joker_close_row,
    }
    return rows.get(finish) or ruleset.normal_close


def score_deal(
    ruleset: Ruleset,
    *,
    winner: int,
    finish: Finish,
    hands: Sequence[Sequence[Card]],
    opened: Sequence[bool],
) -> DealResult:
    """Score a deal that ``winner`` ended by going out."""
    row = _row(ruleset, finish)
    penalties = tuple(
        0 if seat == winner else hand_penalty(hand, ruleset) for seat, hand in enumerate(hands)
    )
    scores = tuple(
        row.winner if seat == winner else row.loser_score(penalty, opened=opened[seat])
        for seat, penalty in enumerate(penalties)
    )
    return DealResult(winner, finish, scores, penalties)


def void_result(ruleset: Ruleset, hands: Sequence[Sequence[Card]]) -> DealResult:
    """A deal that ended with the stock exhausted: no winner, everyone scores 0."""
    penalties = tuple(hand_penalty(hand, ruleset) for hand in hands)
    return DealResult(None, "void", (0,) * len(hands), penalties)
