"""The walk over every way information leaves the site (tests/seams/test_every_way_out.py):
each output as text with whom it reaches, the card codes hidden from that receiver,
and the search for them in a text.

A card is found by its code as the engine writes it ("7H", "10S", "JK") or as the pages
draw it ("7♥", "10♠"), as a whole token and case-sensitive. What is not the site's
output about a game but a secret of the request or the page (a CSP nonce, a CSRF token,
a subresource hash, a signed link) is cut out first: random text may spell a card."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

import httpx
from django.utils.translation import gettext

from games.engine import Card
from games.engine import Deal as EngineDeal
from games.engine.cards import JOKER, STANDARD_CARDS
from games.engine_words import card_short
from games.models import Deal, Game
from tests.gamekit import SERVER_ONLY_KEYS, ShownCards, card_pairs, cards_known_to

OPERATORS = "operators (the logs)"


@dataclass(frozen=True)
class WayOut:
    """One output of the site and the one who receives it."""

    way: str  # "email 'Your turn…'", "page /games/…/", "calendar feed"
    receiver: str  # a username, or OPERATORS
    seat: int | None  # the receiver's seat in the game walked; None: no hand of theirs
    text: str
    data: Any = None  # the JSON it carried, if any (checked for server-only keys)


# ------------------------------------------------------------------ what is hidden


def hidden_codes(game: Game, seat: int | None) -> set[str]:
    """The codes of the cards in the other hands and in the stock of the deal being
    played, but those ``seat`` may know of (``gamekit.cards_known_to``: its own cards
    and what the table showed; with two decks a code may be both hidden and shown)."""
    row, deal, ids = _hidden(game, seat)
    hidden = {str(deal.card(card_id)) for card_id in ids}
    # What the table shows everyone now names cards too: the card a joker in a meld
    # stands for ("jokers": [{"card": "KC"}]), which is no physical card of a hand.
    shown = codes_in(deal.view(None).to_dict())
    return hidden - cards_known_to(game, row.number, seat) - shown


def hidden_ids(game: Game, seat: int | None) -> set[int]:
    """The ids of the cards in the other hands and the stock that the table has not
    shown: a JSON output names a card by its id too, which tells the twins apart."""
    row, _deal, ids = _hidden(game, seat)
    return ids - ShownCards().of(game, row)


def _hidden(game: Game, seat: int | None) -> tuple[Deal, EngineDeal, set[int]]:
    """The deal being played (its row and the engine's deal) and the ids of the cards in
    its stock and in every hand but ``seat``'s."""
    game.refresh_from_db()
    row = Deal.objects.get(game=game, number=game.deal_number)
    deal = row.restore(game.engine_ruleset())
    ids = set(deal.to_dict()["stock"])
    for other in range(game.players):
        if other != seat:
            ids |= set(deal.hand_ids(other))
    return row, deal, ids


def codes_in(data: Any) -> set[str]:
    """Every string in a JSON value that is a card's code."""
    if isinstance(data, dict):
        return set().union(*(codes_in(value) for value in data.values()))
    if isinstance(data, list):
        return set().union(*(codes_in(value) for value in data))
    return {data} if isinstance(data, str) and data in _CODES else set()


_CODES = frozenset(str(card) for card in (*STANDARD_CARDS, JOKER))


def spellings(codes: Iterable[str]) -> set[str]:
    """Each code and its drawn form ("7H", "7♥"); a joker by its code alone (its word,
    "Joker", is also the rules' word for any joker)."""
    out = set(codes)
    for code in codes:
        card = Card.parse(code)
        if not card.is_joker:
            out.add(card_short(card))
    return out


def card_pattern(codes: Iterable[str]) -> re.Pattern[str]:
    words = sorted(spellings(codes), key=len, reverse=True)
    assert words, "nothing is hidden: the walk would find nothing"
    alternatives = "|".join(re.escape(word) for word in words)
    return re.compile(r"(?<![A-Za-z0-9])(?:" + alternatives + r")(?![A-Za-z0-9])")


def leaks(ways: Iterable[WayOut], game: Game) -> list[str]:
    """Every hidden card found, each as "<way> to <receiver>: <card> in …<context>…"
    (in a JSON output also by its id), and every server-only key of a JSON output."""
    patterns: dict[int | None, re.Pattern[str]] = {}
    ids: dict[int | None, set[int]] = {}
    found = []
    for way in ways:
        if way.seat not in patterns:
            patterns[way.seat] = card_pattern(hidden_codes(game, way.seat))
            ids[way.seat] = hidden_ids(game, way.seat)
        for card_id, code in card_pairs(way.data):
            if card_id in ids[way.seat]:
                found.append(f"{way.way} to {way.receiver}: {code} (card #{card_id})")
        for match in patterns[way.seat].finditer(way.text):
            context = way.text[max(0, match.start() - 60) : match.end() + 60]
            found.append(f"{way.way} to {way.receiver}: {match.group()} in …{context!r}…")
        keys = server_only_keys(way.data)
        if keys:
            found.append(f"{way.way} to {way.receiver}: server-only keys {sorted(keys)}")
    return found


def server_only_keys(data: Any) -> set[str]:
    """The keys of ``gamekit.SERVER_ONLY_KEYS`` in a JSON value, but a count that goes by
    one of their names (a player's statistics' ``hands``: deals won in one go)."""
    found: set[str] = set()
    if isinstance(data, dict):
        for key, value in data.items():
            counted = isinstance(value, int) and key != "seed"
            if key in SERVER_ONLY_KEYS and not counted:
                found.add(key)
            found |= server_only_keys(value)
    elif isinstance(data, list):
        for value in data:
            found |= server_only_keys(value)
    return found


# ------------------------------------------------------------------ outputs as text

# Secrets of a message or a page, not information about a game.
_SECRETS = (
    re.compile(r"/unsubscribe/[^/\s\"'<>]+/"),  # a signed link
    re.compile(r"/calendar/[^/\s\"'<>]+\.ics"),  # the feed's secret
    re.compile(r"\"push_public_key\": ?\"[^\"]*\""),  # the site's VAPID key
)
_STATIC_HASH = re.compile(r"(/static/[^\"'\s?#]*?)\.[0-9a-f]{8,}(\.[A-Za-z0-9]+)")
_SKIPPED_ATTRIBUTES = {"nonce", "integrity", "data-public-key"}


def without_secrets(text: str) -> str:
    for secret in _SECRETS:
        text = secret.sub(" ", text)
    return text


class _PageText(HTMLParser):
    """What a page says: its text, every attribute's value (``data-*``, ``title``,
    ``aria-label``, links) and the JSON it embeds, without its scripts' and styles'
    code, CSP nonces, subresource hashes and CSRF tokens."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        # How cards are written, shown as an example in a field (the queued draw's), the
        # same words on every table whatever its game.
        self.examples = {gettext("e.g. 7♥ 10♠ (optional)")}
        self.parts: list[str] = []
        self.data: list[Any] = []
        self.in_code = False
        self.in_json = False
        # The profile's list of countries by their ISO codes, the same on every page
        # whatever the game: Cambodia's code is the king of hearts' ("KH").
        self.in_countries = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        for name, value in attrs:
            if value is None or name in _SKIPPED_ATTRIBUTES or value in self.examples:
                continue
            if name == "value" and named.get("name") == "csrfmiddlewaretoken":
                continue
            if name == "content" and "csrf" in (named.get("name") or ""):
                continue
            if name == "value" and tag == "option" and self.in_countries:
                continue
            self.parts.append(_STATIC_HASH.sub(r"\1\2", value))
            if value[:1] in "{[":
                self.data.append(_json_or_none(value))
        if tag == "select":
            self.in_countries = named.get("name") == "country"
        if tag in ("script", "style"):
            self.in_json = tag == "script" and "json" in (named.get("type") or "")
            self.in_code = not self.in_json

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self.in_countries = False
        if tag in ("script", "style"):
            self.in_code = self.in_json = False

    def handle_data(self, data: str) -> None:
        if self.in_code:
            return
        self.parts.append(data)
        if self.in_json:
            self.data.append(_json_or_none(data))


def _json_or_none(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def page_text(html: str) -> tuple[str, list[Any]]:
    """A page's text (see ``_PageText``), one part a line, and the JSON it embeds."""
    parser = _PageText()
    parser.feed(without_secrets(html))
    parser.close()
    return "\n".join(parser.parts), parser.data


def calendar_text(ics: str) -> str:
    """An ICS feed's text: folded lines joined, escapes undone."""
    unfolded = re.sub(r"\r?\n[ \t]", "", ics)
    return re.sub(r"\\([,;\\nN])", lambda m: "\n" if m.group(1) in "nN" else m.group(1), unfolded)


# ------------------------------------------------------------------ collecting them


def answer_way(way: str, receiver: str, seat: int | None, response: Any) -> WayOut:
    """An API answer (JSON, a CSV, a download streamed) as a way out."""
    assert response.status_code < 500, (way, response.status_code)
    if response.streaming:
        body = b"".join(response.streaming_content).decode()
    else:
        body = response.content.decode()
    json_body = response.get("Content-Type", "").startswith("application/json") and body
    data = json.loads(body) if json_body else None
    return WayOut(f"{way} ({response.status_code})", receiver, seat, without_secrets(body), data)


def page_way(way: str, receiver: str, seat: int | None, client: Any, url: str) -> WayOut:
    """A page as ``client`` reads it (following redirects: where it is sent is what it sees)."""
    response = client.get(url, follow=True)
    assert response.status_code < 500, (url, response.status_code)
    text, data = page_text(response.content.decode())
    return WayOut(f"{way} {url} ({response.status_code})", receiver, seat, text, data)


def email_ways(
    outbox: Iterable[Any], receivers: dict[str, tuple[str, int | None]]
) -> Iterator[WayOut]:
    """Each email to each of its recipients (``receivers``: by address, their name and
    seat): its subject, its text and its HTML."""
    for message in outbox:
        parts = [message.subject, str(message.body)]
        parts += [page_text(str(content))[0] for content, _kind in message.alternatives]
        text = without_secrets("\n".join(parts))
        for address in [*message.to, *message.cc, *message.bcc]:
            name, seat = receivers[address]
            yield WayOut(f"email {message.subject!r}", name, seat, text)


class WebPushes:
    """Stands for ``pywebpush.webpush`` (patched into ``games.notify.push``): keeps what
    would be sent to each browser's endpoint."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []

    def __call__(self, subscription_info: dict[str, Any], data: str, **_: Any) -> None:
        self.sent.append((subscription_info["endpoint"], data))


class Stream:
    """An NDJSON stream read through the whole site, each line awaited at most as long
    as ``client``'s read timeout (less than the stream's keep-alive: a wait for a frame
    that never comes fails instead of hanging)."""

    def __init__(self, stack: ExitStack, client: httpx.Client, url: str) -> None:
        response = stack.enter_context(client.stream("GET", url))
        assert response.status_code == 200, response.read()
        self.frames: list[dict[str, Any]] = []
        self._lines = response.iter_lines()

    def read_until(self, done: Callable[[dict[str, Any]], bool]) -> None:
        try:
            for line in self._lines:
                if line.strip():
                    self.frames.append(json.loads(line))
                    if done(self.frames[-1]):
                        return
        except httpx.ReadTimeout:
            pass
        raise AssertionError(f"the frame awaited did not come; the last: {self.frames[-3:]}")

    def way(self, way: str, receiver: str, seat: int | None) -> WayOut:
        text = "\n".join(json.dumps(frame, ensure_ascii=False) for frame in self.frames)
        return WayOut(way, receiver, seat, text, self.frames)
