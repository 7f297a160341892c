"""The match's score sheet: one line per finished deal with each seat's points and why,
who closed and how, and the running totals, under the match's target. Built from the
deals' results (``games.read.results``, the game view's ``deals``) and the ruleset's
scoring rows: nothing the API does not already show. The table's script builds the same
sheet from the game view (static/js/table/score-sheet.js); the finished game's page is
rendered from this one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine import FinishScoring, Ruleset
from games.models import Game, Seat
from games.read.results import finished_deals
from remi_site import formats

_HOW = {
    "normal": lambda: _("closed"),
    "joker": lambda: _("closed with a joker"),
    "mixed_hand": lambda: _("closed with a mixed hand"),
    "dry_hand": lambda: _("closed with the whole hand"),
}


def finish_row(ruleset: Ruleset, finish: str) -> FinishScoring:
    """The scoring row of a way of going out (as ``games.engine.scoring`` picks it)."""
    rows = {
        "joker": ruleset.joker_close_row,
        "mixed_hand": ruleset.mixed_hand_close,
        "dry_hand": ruleset.dry_hand_close,
    }
    return rows.get(finish) or ruleset.normal_close


def seat_reason(ruleset: Ruleset, result: Mapping[str, Any], position: int) -> str:
    """Why a seat scored what it did in a finished deal, in words."""
    finish = result["finish"]
    if result["winner"] is None or finish == "void":
        return _("void deal: nobody scores")
    row = finish_row(ruleset, finish)
    if position == result["winner"]:
        return _HOW.get(finish, _HOW["normal"])()
    if not result["opened"][position] and row.unopened is not None:
        return _("did not open")
    penalty = result["penalties"][position]
    text = ngettext("%(points)s point left in hand", "%(points)s points left in hand", penalty) % {
        "points": formats.number(penalty)
    }
    if row.multiplier > 1:
        text = _("%(left)s, ×%(times)s") % {"left": text, "times": formats.number(row.multiplier)}
    if row.bonus:
        text = _("%(left)s, %(bonus)s") % {"left": text, "bonus": formats.signed(row.bonus)}
    return text


def closed_by(result: Mapping[str, Any], names: Sequence[str]) -> str:
    """Who closed the deal and how (``"Ana closed with a joker"``)."""
    if result["winner"] is None or result["finish"] == "void":
        return _("Void deal: the stock ran out")
    how = _HOW.get(result["finish"], _HOW["normal"])()
    return _("%(name)s %(how)s") % {"name": names[result["winner"]], "how": how}


def score_sheet(game: Game, seats: Sequence[Seat]) -> dict[str, Any]:
    """The sheet of ``game`` (its seats by position): ``target`` (the score that ends the
    match, or None), ``deals_in_match``, ``names``, one ``line`` per finished deal and
    the ``winners``' names once the game is over."""
    ruleset = Ruleset.from_dict(game.ruleset)
    names = [seat.user.get_username() for seat in seats]
    lines = []
    for result in finished_deals(game):
        lines.append(
            {
                "number": result["number"],
                "closed_by": closed_by(result, names),
                "cells": [
                    {
                        "points": result["scores"][position],
                        "reason": seat_reason(ruleset, result, position),
                        "total": result["totals"][position],
                        "closer": position == result["winner"],
                    }
                    for position in range(len(names))
                ],
            }
        )
    winners = game.winners if game.status == Game.Status.FINISHED else []
    return {
        "target": ruleset.match_end_score,
        "deals_in_match": ruleset.deals_in_match(game.players),
        "names": names,
        "lines": lines,
        "winners": [names[position] for position in winners],
    }
