"""A match: deals one after another with running totals (docs/rules.md §9).

Like a deal, a ``Match`` is immutable: ``apply`` and ``next_deal`` return a
new match. A finished deal stays current until the caller starts the next
one, so the platform can persist each new deal's deck (``deal.deck``,
``deal.card_ids``, ``deal.reshuffle_seeds``) before play goes on. A replay
builds the same deals with ``Deal.from_deck`` and hands them in through
``Match.start`` and ``with_next_deal``.

Totals never reset: they are the sum of every finished deal's scores.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from .actions import Action
from .deal import Deal
from .rulesets import Ruleset, StarterChoice
from .scoring import DealResult

__all__ = ["Match"]


class Match:
    __slots__ = ("_deal", "_past")

    _deal: Deal
    _past: tuple[DealResult, ...]  # results of the deals before the current one

    def __init__(self, deal: Deal, past: tuple[DealResult, ...] = ()) -> None:
        self._deal = deal
        self._past = past

    @classmethod
    def new(cls, ruleset: Ruleset, num_players: int, *, rng: random.Random) -> Match:
        """A match whose first deal is shuffled with ``rng``.

        Seat 0 starts (the first dealer is the last seat), or a random seat
        where the ruleset draws for the start (polish51).
        """
        if ruleset.starter is StarterChoice.RANDOM:
            dealer = rng.randrange(num_players)
        else:
            dealer = num_players - 1
        return cls.start(Deal.new(ruleset, num_players, dealer=dealer, rng=rng))

    @classmethod
    def start(cls, first_deal: Deal) -> Match:
        """A match whose first deal is ``first_deal`` (e.g. rebuilt with ``Deal.from_deck``)."""
        return cls(first_deal)

    @property
    def ruleset(self) -> Ruleset:
        return self._deal.ruleset

    @property
    def num_players(self) -> int:
        return self._deal.num_players

    @property
    def deal(self) -> Deal:
        """The current deal (finished until ``next_deal`` starts another)."""
        return self._deal

    @property
    def deal_number(self) -> int:
        """1 for the first deal."""
        return len(self._past) + 1

    @property
    def deals_in_match(self) -> int:
        return self.ruleset.deals_in_match(self.num_players)

    @property
    def results(self) -> tuple[DealResult, ...]:
        """The results of every finished deal, the current one included once over."""
        current = self._deal.result()
        return self._past if current is None else (*self._past, current)

    @property
    def totals(self) -> tuple[int, ...]:
        totals = [0] * self.num_players
        for result in self.results:
            for seat, score in enumerate(result.scores):
                totals[seat] += score
        return tuple(totals)

    @property
    def is_over(self) -> bool:
        """The current deal is over and it was the last one, or someone reached the end score."""
        if not self._deal.is_over:
            return False
        if self.deal_number >= self.deals_in_match:
            return True
        end = self.ruleset.match_end_score
        return end is not None and any(total >= end for total in self.totals)

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats with the lowest total (ties share); meaningful once ``is_over``."""
        totals = self.totals
        best = min(totals)
        return tuple(seat for seat, total in enumerate(totals) if total == best)

    @property
    def next_dealer(self) -> int:
        """Dealer and starter move one seat on for each new deal."""
        return (self._deal.dealer + 1) % self.num_players

    def apply(self, action: Action) -> Match:
        """The match after ``action`` in the current deal; ``self`` is unchanged."""
        return Match(self._deal.apply(action), self._past)

    def next_deal(self, rng: random.Random) -> Match:
        """Start the next deal, shuffled with ``rng``."""
        self._check_may_deal()
        deal = Deal.new(self.ruleset, self.num_players, dealer=self.next_dealer, rng=rng)
        return self.with_next_deal(deal)

    def with_next_deal(self, deal: Deal) -> Match:
        """Start the next deal with a given one (a replay's ``Deal.from_deck``)."""
        self._check_may_deal()
        if deal.ruleset != self.ruleset or deal.num_players != self.num_players:
            raise ValueError("the next deal must have the match's ruleset and players")
        if deal.dealer != self.next_dealer:
            raise ValueError(f"the next deal's dealer is seat {self.next_dealer}")
        return Match(deal, self.results)

    def _check_may_deal(self) -> None:
        if not self._deal.is_over:
            raise ValueError("the current deal is not over")
        if self.is_over:
            raise ValueError("the match is over")

    def to_dict(self) -> dict[str, Any]:
        """The full server-side state (the current deal's deck included), JSON-safe."""
        return {
            "past": [result.to_dict() for result in self._past],
            "deal": self._deal.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Match:
        past = tuple(DealResult.from_dict(result) for result in data["past"])
        return cls(Deal.from_dict(data["deal"]), past)

    def __repr__(self) -> str:
        return (
            f"<Match {self.ruleset.name} deal {self.deal_number}/{self.deals_in_match} "
            f"totals={self.totals}>"
        )
