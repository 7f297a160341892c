"""A deal's review as a viewer may see it (``games.review`` makes it after the deal).

While the game is played, a player sees the review of an ended deal for their own turns
only: their own cards, and nothing of another hand (a review shows only what the
player held and what was laid on the table). Once the game is over everyone who may see
the game sees every turn, as the replay shows every hand. A deal still being played has
no review (``deal_not_over``); one whose review is not made yet is "being prepared"
(``review_not_ready``: the interface queues it again, in case its task was lost).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine import parse_cards
from games.engine_words import card_short
from games.errors import Conflict, GameNotFound, NotAllowed
from games.models import Deal, DealReview, Game
from games.read.selectors import User, seat_of, user_card
from remi_site import formats

DEAL_NOT_OVER = "deal_not_over"
NOT_READY = "review_not_ready"
PLAYERS_ONLY = "review_players_only"


def deal_review_for(*, game: Game, number: int, user: User) -> dict[str, Any]:
    """The review of deal ``number`` of ``game`` (which ``user`` may see): the turns
    ``user`` may see, each with what was played and what the solver would have laid."""
    row = Deal.objects.filter(game=game, number=number).only("pk", "finished_at").first()
    if row is None:
        raise GameNotFound(_("no such deal"), code="deal_not_found")
    viewer = seat_of(game, user)
    complete = game.is_over
    if not complete and viewer is None:
        raise NotAllowed(
            _("only the players see a deal's review while the game is played"),
            code=PLAYERS_ONLY,
        )
    if row.finished_at is None:
        raise Conflict(_("the review opens once the deal is over"), code=DEAL_NOT_OVER)
    stored = DealReview.objects.filter(deal=row).first()
    if stored is None:
        raise Conflict(_("the review is being prepared"), code=NOT_READY)
    names = {seat.position: user_card(seat.user) for seat in game.seats.all()}
    own = None if viewer is None else viewer.position
    turns = [turn for turn in stored.turns if complete or turn["seat"] == own]
    return {
        "id": game.public_id,
        "deal": number,
        "complete": complete,
        "seat": own,
        "seats": [{"position": pos, "user": card} for pos, card in sorted(names.items())],
        "turns": [_described(turn, names) for turn in turns],
        "unexamined": sum(1 for turn in turns if not turn["examined"]),
        "computed_at": stored.computed_at,
    }


def _described(turn: dict[str, Any], names: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """A stored turn with its words in the reader's language."""
    better = turn["better"]
    fed = turn["fed"]
    return {
        "seat": turn["seat"],
        "player": names.get(turn["seat"], {}).get("display_name", ""),
        "plies": turn["plies"],
        "played": [_action_text(action) for action in turn["actions"]],
        "examined": turn["examined"],
        "left_penalty": turn["left_penalty"],
        "better": None if better is None else {**better, "text": _better_text(better)},
        "fed": None if fed is None else {**fed, "text": _fed_text(fed, names)},
    }


def _cards(codes: list[str]) -> str:
    return " ".join(card_short(card) for card in parse_cards(" ".join(codes)))


def _action_text(action: dict[str, Any]) -> str:
    kind = action.get("type")
    if kind == "draw":
        return _("drew from the stock")
    if kind == "take":
        return _("took the top of the discard pile")
    if kind == "undo":
        return _("put the taken card back")
    if kind == "lay":
        melds = " | ".join(_cards(meld) for meld in action["melds"])
        return _("laid %(melds)s") % {"melds": melds}
    if kind == "off":
        return _("laid off %(card)s") % {"card": _cards([action["card"]])}
    if kind == "swap":
        return _("swapped a joker out")
    if kind == "discard":
        return _("threw %(card)s") % {"card": _cards([action["card"]])}
    return str(kind)


def _better_text(better: dict[str, Any]) -> str:
    melds = " | ".join(_cards(meld) for meld in better["melds"])
    offs = _cards(better["lay_offs"]) if better["lay_offs"] else ""
    if better["kind"] == "opening":
        said = _("An opening was possible: %(melds)s") % {"melds": melds}
    elif better["kind"] == "lay_down":
        said = _("A larger lay-down was possible: %(melds)s") % {"melds": melds}
    else:
        said = _("Cards could have been laid off: %(cards)s") % {"cards": offs or melds}
    if offs and better["kind"] != "lay_off":
        said = _("%(said)s, then laid off: %(cards)s") % {"said": said, "cards": offs}
    saved = ngettext(
        "%(points)s point fewer in hand", "%(points)s points fewer in hand", better["saved"]
    ) % {"points": formats.number(better["saved"])}
    return f"{said} ({saved})"


def _fed_text(fed: dict[str, Any], names: dict[int, dict[str, Any]]) -> str:
    player = names.get(fed["seat"], {}).get("display_name", "")
    return ngettext(
        "%(player)s took this card and laid it (%(points)s point)",
        "%(player)s took this card and laid it (%(points)s points)",
        fed["points"],
    ) % {"player": player, "points": formats.number(fed["points"]), "card": _cards([fed["card"]])}
