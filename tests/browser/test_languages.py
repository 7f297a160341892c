"""The site in the visitor's language, end to end in a browser: a browser that asks for
Macedonian (or Serbian in Cyrillic) signs up, starts a game against bots and reads the
home page, the lobby and the table, the text the scripts write included, in that
language; the switcher in the footer changes the language of the page it is on."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.player_kit import TIMEOUT_MS, Player

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]

PASSWORD = "correct-horse-battery-staple"
# polish51, 13 cards: the player starts (a bot that starts has played by then).
HAND = "7H 8H 9H 10H QS QD QC KS KD KC 2D 5C 9S"

# What the table's scripts write in English: none of it may be left on a translated table.
ENGLISH_TABLE_TEXT = [
    "Your turn",
    "To move",
    "draw from the stock",
    "Waiting for",
    "against bots",
    "players",
    "days a move",
    "Player",
    "Total",
    "Cards",
    "Stock",
    "Discard",
    "Opening",
    "lowest total wins",
    "selected",
    "cards",
    "pts",
    "dealer",
    "opened",
    "bot",
    "Resign",
    "Cancel game",
    "Your chips",
    "No melds on the table yet",
    "discarded",
    "drew",
    "Deal ",
    # and what the table's template says
    "Lay group",
    "Deselect",
    "Undo take",
    "Scores",
    "Moves",
    "Chat",
    "Send",
    "Keyboard",
    "Rules",
]


# The aria-labels of the nodes a locator finds.
LABELS = "nodes => nodes.map(node => node.getAttribute('aria-label') || '')"
# A card's name in Macedonian ("7 херц", "дама пик", "џокер"), maybe just drawn.
MK_CARD = re.compile(
    r"^((\d+|ас|жандар|дама|крал) (херц|пик|каро|треф)|џокер)(, штотуку извлечена)?$"
)


@pytest.fixture
def speaker(browser: Browser, live_server: Any) -> Iterator[Callable[[str, str], Player]]:
    """``speaker(name, locale)``: a browser context whose language (Accept-Language and
    navigator.language) is ``locale``."""
    players: list[Player] = []

    def make(name: str, locale: str) -> Player:
        context = browser.new_context(viewport={"width": 1400, "height": 900}, locale=locale)
        context.set_default_timeout(TIMEOUT_MS)
        player = Player(context.new_page(), live_server.url, name)
        players.append(player)
        return player

    yield make
    for player in players:
        assert not player.errors, f"{player.name}'s page logged errors: {player.errors}"


def choose_bots(player: Player) -> None:
    """The lobby's "Bots" mode, as a person picks it (its label), once the page's
    script has drawn the rule sets above it: until then the label sits higher."""
    expect(player.page.locator('#presets input[name="preset"]').first).to_be_attached()
    player.page.locator('.segmented label:has(input[name="mode"][value="bots"])').click()
    expect(player.page.locator('input[name="mode"][value="bots"]')).to_be_checked()


def play_bots(player: Player) -> None:
    """From the lobby: Polish Remik 51 (the scripted hand's rules) against bots."""
    page = player.page
    page.locator('label.choice:has(input[value="polish51"])').click()
    choose_bots(player)
    page.click("#create-button")
    page.wait_for_url(re.compile(r"/games/[a-z0-9]+/$"))
    expect(page.locator("#me.me-to-move")).to_be_visible()


def table_text(player: Player) -> str:
    """What a person reads at the table, and the labels of the piles, the cards and
    the seats, the players' names taken out."""
    page = player.page
    parts = [page.locator("#game").inner_text()]
    parts += [
        page.locator(pile).get_attribute("aria-label") or "" for pile in ("#stock", "#discard")
    ]
    parts += page.locator("#hand .pcard, #opponents .seat").evaluate_all(
        "nodes => nodes.map(node => node.getAttribute('aria-label') || '')"
    )
    text = "\n".join(parts)
    for name in page.locator(".seat-label").all_inner_texts():
        text = text.replace(name.strip(), "")
    return text


def test_a_macedonian_browser_plays_bots_in_macedonian(
    speaker: Callable[[str, str], Player], starter_hand: Callable[[str], None], bots: list[Any]
) -> None:
    starter_hand(HAND)
    ana = speaker("ana", "mk")
    ana.sign_up("ana", PASSWORD)
    page = ana.page
    # The home page and the header, from the templates.
    expect(page.locator("html")).to_have_attribute("lang", "mk")
    expect(page.locator("main")).to_contain_text("Балканско реми, онлајн.")
    expect(page.locator(".nav-links")).to_contain_text("Партии")

    ana.goto("/play/")
    expect(page.locator("html")).to_have_attribute("lang", "mk")
    expect(page.locator("main h1")).to_contain_text("Играј реми")
    expect(page.locator(".segmented label:has(input[value=bots])")).to_have_text("Ботови")
    choose_bots(ana)
    # Written by the lobby's script.
    expect(page.locator("#create-button")).to_have_text("Играј сега")
    expect(page.locator("#bots-legend")).to_contain_text("Избери од 1 до")
    expect(page.locator("#presets .choice-facts").first).to_contain_text("џокери")
    play_bots(ana)

    expect(page.locator("#me .turn-tag")).to_contain_text("Твој потег")
    expect(page.locator("#prompt")).to_contain_text("Твој потег: влечи")
    expect(page.locator("#game-meta")).to_contain_text("против ботови")
    expect(page.locator("#game-meta")).to_contain_text("Делење 1 од")
    expect(page.locator("#lay-group")).to_have_text("Спушти терцет")
    expect(page.locator("#log-title")).to_have_text("Потези")
    expect(page.locator("#stock-label")).to_contain_text("Шпил")
    expect(page.locator("#scores th").first).to_have_text("Играч")
    expect(page.locator(".seat .badge-bot")).to_have_text("бот")
    expect(page.locator("#stock")).to_have_attribute(
        "aria-label", re.compile(r"^Влечи од шпилот \(\d+ карти\)$")
    )
    card_names = page.locator("#hand .pcard").evaluate_all(LABELS)
    assert card_names and all(MK_CARD.match(name) for name in card_names), card_names

    ana.draw_and_discard_the_drawn_card()
    # The player's own moves in the second person, the bot's in the third.
    expect(page.locator("#log .log-mine").last).to_contain_text(re.compile(r"^Фрли \S+$"))
    # The bot answers at once (Celery runs eagerly in the tests).
    expect(page.locator("#log")).to_contain_text(re.compile(r"Greedy Goran (фрли|извлече)"))
    expect(page.locator("#prompt")).to_contain_text("Твој потег")
    text = table_text(ana)
    left = [english for english in ENGLISH_TABLE_TEXT if english in text]
    assert not left, f"English left on the Macedonian table: {left}"
    ana.screenshot("languages-mk-table")


def test_a_serbian_cyrillic_browser_reads_cyrillic_at_the_table(
    speaker: Callable[[str, str], Player], starter_hand: Callable[[str], None], bots: list[Any]
) -> None:
    starter_hand(HAND)
    vuk = speaker("vuk", "sr-Cyrl")
    vuk.sign_up("vuk", PASSWORD)
    page = vuk.page
    expect(page.locator("html")).to_have_attribute("lang", "sr-cyrl")
    expect(page.locator("main")).to_contain_text("Балкански реми, онлајн.")
    expect(page.locator(".nav-links")).to_contain_text("Партије")
    vuk.goto("/play/")
    expect(page.locator("main h1")).to_contain_text("Играј реми")
    choose_bots(vuk)
    expect(page.locator("#create-button")).to_have_text("Играј сада")
    play_bots(vuk)

    expect(page.locator("#me .turn-tag")).to_contain_text("Твој потез")
    expect(page.locator("#prompt")).to_contain_text("Твој потез: вуци са гомиле за вучење")
    expect(page.locator("#game-meta")).to_contain_text("против ботова")
    expect(page.locator("#lay-group")).to_have_text("Спусти комбинацију")
    expect(page.locator("#scores-title")).to_have_text("Поени")
    # The heading's line and the prompt: Cyrillic through and through, not a Latin letter.
    for part in ("#game-meta", "#prompt", "#match-info", "#stock-label", "#selection-info"):
        assert not re.search(r"[A-Za-z]", page.locator(part).inner_text()), part
    vuk.draw_and_discard_the_drawn_card()
    expect(page.locator("#log .log-mine").last).to_contain_text(re.compile(r"^Бацаш \S+$"))
    text = table_text(vuk)
    left = [english for english in ENGLISH_TABLE_TEXT if english in text]
    assert not left, f"English left on the Serbian table: {left}"
    vuk.screenshot("languages-sr-cyrl-table")


def test_the_switcher_changes_the_language_of_the_table(
    speaker: Callable[[str, str], Player], starter_hand: Callable[[str], None], bots: list[Any]
) -> None:
    starter_hand(HAND)
    ewa = speaker("ewa", "en-GB")
    ewa.sign_up("ewa", PASSWORD)
    ewa.goto("/play/")
    play_bots(ewa)
    page = ewa.page
    expect(page.locator("#prompt")).to_contain_text("Your turn: draw")
    table = page.url

    page.select_option("#site-language", "pl")
    page.locator("[data-language-form] button[type=submit]").click()
    page.wait_for_url(table)
    expect(page.locator("html")).to_have_attribute("lang", "pl")
    expect(page.locator("#prompt")).to_contain_text("Twój ruch: dobierz")
    expect(page.locator("#me .turn-tag")).to_contain_text("Twój ruch")
    expect(page.locator("#game-meta")).to_contain_text("z botami")
    expect(page.locator("#stock-label")).to_contain_text("Stos zakryty")

    page.select_option("#site-language", "sr-latn")
    page.locator("[data-language-form] button[type=submit]").click()
    expect(page.locator("html")).to_have_attribute("lang", "sr-latn")
    expect(page.locator("#prompt")).to_contain_text("Tvoj potez: vuci sa gomile za vučenje")
