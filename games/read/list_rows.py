"""The rows of a player's "My games" page, each said in words once, here.

Fifty rows of template tags (a dozen translations, a URL and a time span each) were
half of the page's time; a row's words are built from its summary
(``selectors.game_summary``) in plain Python, with the same catalogue entries, and the
template only prints them. What every row says alike (the fixed words, a day's date,
the link's path) is worked out once per page.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop, ngettext

from games.read.catalogue import preset_name
from remi_site import formats

# The words of the rows, translated once per page (``_Page.word``).
_DEAL = gettext_noop("Deal %(deal)s")
_FINISHED_ON = gettext_noop("Finished %(date)s")
_YOUR_TOTAL = gettext_noop("your total %(total)s")
_THEIR_TURN = gettext_noop("their turn")
_TURN_ENDS_IN = gettext_noop("your turn ends in %(left)s")
_AGAINST_BOTS = gettext_noop("against bots")
_WON = gettext_noop("won")
_LOST = gettext_noop("lost")
_YOUR_TURN = gettext_noop("your turn")
_WAITING = gettext_noop("waiting")
_PLAYING = gettext_noop("playing")
_ABORTED = gettext_noop("aborted")
_VISIBILITY = {"public": gettext_noop("public"), "private": gettext_noop("private")}


@dataclass(frozen=True)
class Opponent:
    name: str
    title: str | None  # what a client shows by the name of a bot


@dataclass(frozen=True)
class ListRow:
    href: str
    my_turn: bool
    preset: str
    opponents: tuple[Opponent, ...]  # none: the game waits for players
    meta: str  # the deal, the player's total, the turn, the company
    pill: str
    pill_class: str  # "", "won" or "your-turn"


def list_rows(summaries: Iterable[Mapping[str, Any]], now: datetime | None = None) -> list[ListRow]:
    """The rows of ``summaries`` (the viewer's games, as the lists show them), in the
    active language and time zone."""
    page = _Page(now or timezone.now())
    return [page.row(summary) for summary in summaries]


@dataclass
class _Page:
    now: datetime
    # The game's path with its id left out (a public id is letters and digits, which a
    # path takes as they are).
    path: tuple[str, str] = field(default_factory=lambda: _path_around("0"))
    words: dict[str, str] = field(default_factory=dict)
    days: dict[date, str] = field(default_factory=dict)
    presets: dict[str, str] = field(default_factory=dict)

    def row(self, game: Mapping[str, Any]) -> ListRow:
        you = game["you"]
        others = [seat for seat in game["seats"] if seat["position"] != you]
        mine = next((seat for seat in game["seats"] if seat["position"] == you), None)
        preset = game["preset"]
        if preset not in self.presets:
            self.presets[preset] = preset_name(preset)
        pill, pill_class = self.pill(game, you)
        return ListRow(
            href=f"{self.path[0]}{game['id']}{self.path[1]}",
            my_turn=bool(game["my_turn"]),
            preset=self.presets[preset],
            opponents=tuple(
                Opponent(seat["user"]["display_name"], seat["user"]["title"]) for seat in others
            ),
            meta=" · ".join(self.meta(game, mine, others)),
            pill=pill,
            pill_class=pill_class,
        )

    def word(self, text: str) -> str:
        found = self.words.get(text)
        if found is None:
            found = self.words[text] = gettext(text)
        return found

    def day(self, moment: datetime) -> str:
        local = timezone.localtime(moment)
        found = self.days.get(local.date())
        if found is None:
            found = self.days[local.date()] = formats.day(local)
        return found

    def meta(
        self,
        game: Mapping[str, Any],
        mine: Mapping[str, Any] | None,
        others: list[Mapping[str, Any]],
    ) -> list[str]:
        status = game["status"]
        parts = []
        if status == "lobby":
            players = game["players"]
            parts.append(
                ngettext(
                    "%(taken)s of %(players)s seat taken",
                    "%(taken)s of %(players)s seats taken",
                    players,
                )
                % {"taken": formats.number(len(game["seats"])), "players": formats.number(players)}
            )
        elif status == "active":
            parts.append(self.word(_DEAL) % {"deal": formats.number(game["deal_number"])})
        else:
            parts.append(self.word(_FINISHED_ON) % {"date": self.day(game["created_at"])})
        if mine is not None and status != "lobby":
            parts.append(self.word(_YOUR_TOTAL) % {"total": formats.number(mine["total"])})
        if status == "active":
            if not game["my_turn"]:
                parts.append(self.word(_THEIR_TURN))
            elif game["deadline_at"] is not None:
                left = formats.duration(game["deadline_at"] - self.now)
                parts.append(self.word(_TURN_ENDS_IN) % {"left": left})
        parts.append(self.company(game, others))
        return parts

    def company(self, game: Mapping[str, Any], others: list[Mapping[str, Any]]) -> str:
        if others and all(seat["user"]["is_bot"] for seat in others):
            return self.word(_AGAINST_BOTS)
        visibility = game["visibility"]
        if visibility in _VISIBILITY:
            return self.word(_VISIBILITY[visibility])
        return str(visibility)

    def pill(self, game: Mapping[str, Any], you: int | None) -> tuple[str, str]:
        status = game["status"]
        if status == "finished":
            if game["winners"] is not None and you in game["winners"]:
                return self.word(_WON), "won"
            return self.word(_LOST), ""
        if game["my_turn"]:
            return self.word(_YOUR_TURN), "your-turn"
        if status == "lobby":
            return self.word(_WAITING), ""
        if status == "active":
            return self.word(_PLAYING), ""
        if status == "aborted":
            return self.word(_ABORTED), ""
        return str(status), ""


def _path_around(marker: str) -> tuple[str, str]:
    path = reverse("games:detail", args=[marker])
    before, _, after = path.rpartition(marker)
    return before, after
