"""The hand and the keyboard at the table: the hand arranged by dragging (mouse and
touch) and by keys, kept for the deal; a whole deal played by the keyboard alone;
the four-colour deck; jokers that say what they stand for; melds that never overlap."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, Page, expect

from games.engine import Card, Discard, LayDown, parse_cards
from games.models import Game
from games.play.act import game_act
from tests.browser.boxes import first_box
from tests.browser.player_kit import TIMEOUT_MS, Player
from tests.browser.table_kit import started_game
from tests.gamekit import current_engine_deal

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]

PASSWORD = "correct-horse-battery-staple"
# polish51, 13 cards: 7-8-9♥ and Q♠ Q♦ Q♣ open (54); K♠ K♦ K♣ and 2-3-4♦ go down after,
# the 10♥ is laid off on the hearts, the card drawn is discarded: out in one turn.
POLISH_HAND = "7H 8H 9H 10H QS QD QC KS KD KC 2D 3D 4D"
# serbian, 15 cards: two runs worth 96 go down and the 5♦ is discarded: a dry hand.
QUICK_HAND = "AS 2S 3S 4S 5S 6S 7S 8H 9H 10H JH QH KH AH 5D"
# serbian: 2♣ 🃏 4♣, 7-8-9♥ and Q♠ Q♦ 🃏 open (63).
JOKER_HAND = "7H 8H 9H QS QD QC 2C 3C 4C JK 5D KS 10H AS JK"


def _game(preset: str, hand: str, starter_hand: Callable[[str], None]) -> tuple[Game, Any, Any]:
    """A started 2-player game whose starter holds ``hand``: (game, starter, other)."""
    starter_hand(hand)
    game, users = started_game(preset, ("lena", "mark"))
    starter = users[current_engine_deal(game).to_move]
    return game, starter, users[1] if starter is users[0] else users[0]


def _at_table(player: Player, user: Any, game: Game) -> Page:
    player.log_in(user.username, PASSWORD)
    player.goto(f"/games/{game.public_id}/")
    expect(player.page.locator("#hand .pcard").first).to_be_visible()
    return player.page


def _starter_at_table(
    preset: str,
    hand: str,
    player_factory: Callable[..., Player],
    starter_hand: Callable[[str], None],
) -> tuple[Game, Any, Player, Page]:
    """A started 2-player game whose starter holds ``hand``; the starter, and the table in
    the starter's browser."""
    game, starter, _ = _game(preset, hand, starter_hand)
    player = player_factory(starter.username)
    return game, starter, player, _at_table(player, starter, game)


def _strip(page: Page, card: str) -> tuple[float, float]:
    """The middle of a hand card's visible strip (cards overlap to the right). A refresh
    of the table may be drawing the hand anew: its card has no box until it is back."""
    box = first_box(page, f'#hand .pcard[data-card="{card}"]')
    return box["x"] + 8, box["y"] + box["height"] / 2


def _wait_until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def test_a_mouse_drag_reorders_the_hand_for_the_deal_and_a_new_deal_resets_it(
    player_factory: Callable[..., Player], starter_hand: Callable[[str], None]
) -> None:
    game, starter, player, page = _starter_at_table(
        "serbian", QUICK_HAND, player_factory, starter_hand
    )
    page.click("#sort-suit")
    before = player.hand()
    assert before[:3] == ["AS", "2S", "3S"]

    # Drag the A♠ over the 4♠: it takes that place. A drag selects nothing.
    x, y = _strip(page, "AS")
    tx, ty = _strip(page, "4S")
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 20, y, steps=4)
    page.mouse.move(tx, ty, steps=8)
    page.mouse.up()
    arranged = player.hand()
    assert arranged[:4] == ["2S", "3S", "4S", "AS"]
    expect(page.locator("#hand .pcard.selected")).to_have_count(0)
    expect(page.locator("#hand-announce")).to_have_text(re.compile("is now card 4 of 15"))

    # A press that does not travel is still a click: it selects.
    player.select("5D")
    expect(page.locator('#hand .pcard[data-card="5D"]')).to_have_class(re.compile("selected"))

    # The order is kept for the deal.
    page.reload()
    expect(page.locator("#hand .pcard").first).to_be_visible()
    assert player.hand() == arranged

    # A new deal starts from the order dealt, and the old deal's order is forgotten.
    game.refresh_from_db()
    for action in (
        LayDown(parse_cards(meld) for meld in ("AS 2S 3S 4S 5S 6S 7S", "8H 9H 10H JH QH KH AH")),
        Discard(Card.parse("5D")),
    ):
        game_act(game=game, user=starter, action=action, expected_ply=game.ply)
        game.refresh_from_db()
    _wait_until(lambda: Game.objects.get(pk=game.pk).deal_number == 2, "the second deal")
    page.reload()
    expect(page.locator("#game-meta")).to_contain_text("Deal 2")
    expect(page.locator("#hand .pcard").first).to_be_visible()
    dealt = page.evaluate(
        "url => fetch(url).then(r => r.json()).then(v => v.deal.hand.map(p => p.card))",
        f"/api/v1/games/{game.public_id}",
    )
    assert player.hand() == dealt
    keys = page.evaluate("() => Object.keys(localStorage).filter(k => k.endsWith(':order'))")
    assert keys == [f"remi:{game.public_id}:2:order"]


def test_the_keyboard_picks_a_card_up_moves_it_and_puts_it_down(
    player_factory: Callable[..., Player], starter_hand: Callable[[str], None]
) -> None:
    game, _, player, page = _starter_at_table("polish51", POLISH_HAND, player_factory, starter_hand)
    page.keyboard.press("1")  # sorted by suit
    assert player.hand()[:4] == ["QS", "KS", "7H", "8H"]

    player.card("QS").focus()
    page.keyboard.press("Enter")  # picked up
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#hand-announce")).to_have_text(
        re.compile("queen of spades is now card 3 of 13")
    )
    page.keyboard.press("Enter")  # put down
    assert player.hand()[:4] == ["KS", "7H", "QS", "8H"]
    expect(page.locator("#hand .pcard.selected")).to_have_count(0)
    expect(player.card("QS")).to_be_focused()

    page.reload()
    expect(page.locator("#hand .pcard").first).to_be_visible()
    assert player.hand()[:4] == ["KS", "7H", "QS", "8H"]


def test_a_finger_drags_a_card_to_another_place(
    browser: Browser, live_server: Any, starter_hand: Callable[[str], None]
) -> None:
    game, starter, _ = _game("polish51", POLISH_HAND, starter_hand)
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.new_page()
        player = Player(page, live_server.url, starter.username)
        _at_table(player, starter, game)
        page.click("#sort-suit")
        assert player.hand()[:3] == ["QS", "KS", "7H"]
        touch = context.new_cdp_session(page)
        x, y = _strip(page, "QS")
        tx, ty = _strip(page, "8H")

        def finger(kind: str, points: list[dict[str, float]]) -> None:
            touch.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

        finger("touchStart", [{"x": x, "y": y}])
        for step in range(1, 11):
            finger("touchMove", [{"x": x + (tx - x) * step / 10, "y": y + (ty - y) * step / 10}])
        finger("touchEnd", [])
        expect(page.locator("#hand-announce")).to_have_text(
            re.compile("queen of spades is now card")
        )
        assert player.hand()[:4] == ["KS", "7H", "8H", "QS"]
        expect(page.locator("#hand .pcard.selected")).to_have_count(0)
        assert not player.errors, player.errors
    finally:
        context.close()


def _focused_card(page: Page) -> str | None:
    return page.evaluate(
        "() => document.activeElement && document.activeElement.dataset.card || null"
    )


def _select_by_keys(page: Page, *cards: str) -> None:
    """Walk the focus along the hand to each card (Shift+arrow once one is selected)
    and select it with Enter."""
    page.keyboard.press("h")
    for card in cards:
        hand = page.locator("#hand .pcard").evaluate_all("els => els.map(e => e.dataset.card)")
        for _ in range(2 * len(hand)):
            here = _focused_card(page)
            if here == card:
                break
            direction = "ArrowRight" if hand.index(card) > hand.index(here) else "ArrowLeft"
            page.keyboard.press(f"Shift+{direction}")
        assert _focused_card(page) == card
        page.keyboard.press("Enter")
        expect(page.locator(f'#hand .pcard.selected[data-card="{card}"]')).to_have_count(1)


def test_a_whole_deal_played_by_the_keyboard_alone(
    player_factory: Callable[..., Player], starter_hand: Callable[[str], None]
) -> None:
    game, _, player, page = _starter_at_table("polish51", POLISH_HAND, player_factory, starter_hand)

    page.keyboard.press("?")
    expect(page.locator("#keyboard-help")).to_be_visible()
    expect(page.locator("#keyboard-help")).to_contain_text("Draw from the stock")
    page.keyboard.press("Escape")
    expect(page.locator("#keyboard-help")).to_be_hidden()

    page.keyboard.press("d")
    expect(page.locator("#hand .pcard")).to_have_count(14)
    drawn = page.locator("#hand .card-fresh").get_attribute("data-card")
    assert drawn is not None
    expect(page.locator("#hand .card-fresh")).to_be_focused()

    # The opening: two melds staged with L, laid with O.
    _select_by_keys(page, "7H", "8H", "9H")
    page.keyboard.press("l")
    _select_by_keys(page, "QS", "QD", "QC")
    page.keyboard.press("l")
    expect(page.locator("#staging-total")).to_have_text("54 / 51")
    page.keyboard.press("o")
    expect(page.locator("#melds .meld")).to_have_count(2)

    # Opened: melds go straight down; the 10♥ is laid off on the hearts from the keys.
    _select_by_keys(page, "KS", "KD", "KC")
    page.keyboard.press("l")
    expect(page.locator("#melds .meld")).to_have_count(3)
    _select_by_keys(page, "2D", "3D", "4D")
    page.keyboard.press("l")
    expect(page.locator("#melds .meld")).to_have_count(4)
    _select_by_keys(page, "10H")
    page.keyboard.press("m")
    for _ in range(4):
        focused = page.evaluate("() => document.activeElement.getAttribute('aria-label') || ''")
        if "7♥" in focused:
            break
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    hearts = page.locator("#melds .meld", has=page.locator('.pcard[data-card="7H"]'))
    expect(hearts.locator('.pcard[data-card="10H"]')).to_have_count(1)

    # The card drawn is the last: X discards it and the deal is over.
    _select_by_keys(page, drawn)
    page.keyboard.press("x")
    expect(page.locator("#summary h2")).to_have_text("You won the game!")


def test_the_four_colour_deck_is_the_accounts_and_shows_diamonds_in_blue(
    player_factory: Callable[..., Player], starter_hand: Callable[[str], None]
) -> None:
    game, starter, player, page = _starter_at_table(
        "polish51", POLISH_HAND, player_factory, starter_hand
    )
    diamond = player.card("QD")
    expect(diamond).to_have_css("color", "rgb(198, 40, 40)")

    page.click("#deck-colours")
    expect(page.locator("#deck-colours")).to_have_attribute("aria-pressed", "true")
    expect(diamond).to_have_css("color", "rgb(13, 71, 161)")
    expect(player.card("QC")).to_have_css("color", "rgb(27, 94, 32)")
    _wait_until(
        lambda: get_user_model().objects.get(pk=starter.pk).profile.card_colours == "four",
        "the setting saved",
    )

    page.reload()
    expect(player.card("QD")).to_have_css("color", "rgb(13, 71, 161)")
    expect(page.locator("#deck-colours")).to_have_attribute("aria-pressed", "true")
    player.goto("/settings/")
    expect(page.locator("#id_card_colours")).to_have_value("four")


def test_a_joker_on_the_table_says_what_it_stands_for(
    player_factory: Callable[..., Player], starter_hand: Callable[[str], None]
) -> None:
    game, _, player, page = _starter_at_table("serbian", JOKER_HAND, player_factory, starter_hand)
    jokers = page.locator('#hand .pcard[data-card="JK"]')
    player.select("2C", "4C")
    jokers.nth(0).click(position={"x": 6, "y": 40})
    page.click("#lay-group")
    player.select("7H", "8H", "9H")
    page.click("#lay-group")
    player.select("QS", "QD")
    jokers.nth(0).click(position={"x": 6, "y": 40})
    page.click("#lay-group")
    expect(page.locator("#open-button")).to_be_enabled()
    page.click("#open-button")
    expect(page.locator("#melds .meld")).to_have_count(3)

    run = page.locator("#melds .meld", has=page.locator('.pcard[data-card="2C"]'))
    expect(run).to_have_attribute("aria-label", re.compile("2♣ Joker as 3♣ 4♣"))
    expect(run.locator(".joker-stands")).to_have_text("= 3♣")
    group = page.locator("#melds .meld", has=page.locator('.pcard[data-card="QS"]'))
    expect(group).to_have_attribute("aria-label", re.compile("Joker as any Q"))
    expect(group.locator(".joker-stands")).to_have_text("= Q")
    player.screenshot("table-joker-stand-ins")


def _many_melds(route: Any) -> None:
    """The game view with a table full of melds of every length (a run of 13 too)."""
    response = route.fetch()
    view = response.json()
    deal = view.get("deal")
    if deal:
        suits = "SHDC"
        melds = []
        for index in range(18):
            suit = suits[index % 4]
            length = 3 + (index * 5) % 11
            cards = [f"{rank}{suit}" for rank in ["A", *map(str, range(2, 11)), "J", "Q", "K"]]
            cards = cards[:length]
            jokers = []
            if index % 3 == 0:
                jokers = [{"position": 1, "rank": "2", "card": f"2{suit}"}]
                cards[1] = "JK"
            melds.append(
                {
                    "index": index,
                    "owner": index % 2,
                    "kind": "run",
                    "cards": [
                        {"id": 1000 + index * 20 + i, "card": c} for i, c in enumerate(cards)
                    ],
                    "jokers": jokers,
                }
            )
        deal["table"] = melds
    route.fulfill(response=response, json=view)


@pytest.mark.parametrize("width", [360, 768, 1280])
def test_melds_never_overlap_at_any_width(
    width: int, player_factory: Callable[..., Player], starter_hand: Callable[[str], None]
) -> None:
    game, starter, _ = _game("polish51", POLISH_HAND, starter_hand)
    player = player_factory(starter.username, width=width, height=900)
    player.page.route(re.compile(rf".*/api/v1/games/{game.public_id}$"), _many_melds)
    page = _at_table(player, starter, game)
    expect(page.locator("#melds .meld")).to_have_count(18)
    boxes = page.locator("#melds .meld").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return [r.left, r.top, r.right, r.bottom]; })"
    )
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
            assert apart, f"melds overlap at {width} px: {a} and {b}"
    felt = page.locator("#felt").bounding_box()
    assert felt is not None
    assert max(box[2] for box in boxes) <= felt["x"] + felt["width"] + 1
    player.screenshot(f"table-many-melds-{width}")


def test_a_tap_on_a_card_is_not_lost_when_the_table_is_drawn_again_meanwhile(
    player_factory: Callable[..., Player], starter_hand: Callable[[str], None]
) -> None:
    game, _, player, page = _starter_at_table("serbian", QUICK_HAND, player_factory, starter_hand)
    page.click("#sort-suit")
    expect(page.locator("#hand .pcard").first).to_have_attribute("data-card", "AS")
    by_suit = player.hand()

    # Pressed on the 2♠; before the release, the table is drawn again with the hand
    # as it was (sorting a sorted hand; the chips or the log arriving do the same).
    x, y = _strip(page, "2S")
    page.mouse.move(x, y)
    page.mouse.down()
    page.keyboard.press("1")
    page.mouse.up()
    expect(player.card("2S")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#hand .pcard.selected")).to_have_count(1)

    # A hand in another order is drawn anew, the selection on its new buttons.
    page.click("#sort-rank")
    _wait_until(lambda: player.hand() != by_suit, "the hand sorted by rank")
    expect(player.card("2S")).to_have_attribute("aria-pressed", "true")


# The keys of a Macedonian Cyrillic layout, as navigator.keyboard.getLayoutMap() reports
# them on such a system (the test's chromium runs on a US layout; the map is the only
# thing a page learns of the layout).
CYRILLIC_LAYOUT = {
    "KeyD": "д",
    "KeyT": "т",
    "KeyX": "џ",
    "KeyL": "л",
    "KeyO": "о",
    "KeyH": "х",
    "KeyM": "м",
}
CYRILLIC_LAYOUT_MAP = (
    "(() => { const keys = new Map(Object.entries(%s));"
    " Object.defineProperty(navigator, 'keyboard', { value: { getLayoutMap: async () => keys } });"
    " })()"
)


def _press_physical_key(page: Page, code: str, typed: str) -> None:
    """The key ``code`` pressed on a layout where it types ``typed``: the browser's own
    key events, as the system's keyboard sends them (not a script's dispatch)."""
    session = page.context.new_cdp_session(page)
    virtual_key = ord(code.removeprefix("Key"))
    event = {"key": typed, "code": code, "windowsVirtualKeyCode": virtual_key}
    session.send("Input.dispatchKeyEvent", {"type": "keyDown", "text": typed, **event})
    session.send("Input.dispatchKeyEvent", {"type": "keyUp", **event})
    session.detach()


def test_the_physical_d_key_draws_on_a_cyrillic_layout(
    player_factory: Callable[..., Player], starter_hand: Callable[[str], None]
) -> None:
    game, _, player, page = _starter_at_table("polish51", POLISH_HAND, player_factory, starter_hand)
    page.locator("#hand .pcard").first.focus()
    _press_physical_key(page, "KeyD", "д")
    expect(page.locator("#hand .pcard")).to_have_count(14)
    expect(page.locator("#hand .card-fresh")).to_be_focused()

    # The Latin X on a layout that types "џ" there: the card drawn is discarded.
    drawn = page.locator("#hand .card-fresh").get_attribute("data-card")
    assert drawn is not None
    player.select(drawn)
    _press_physical_key(page, "KeyX", "џ")
    expect(page.locator("#hand .pcard")).to_have_count(13)
    expect(page.locator("#discard .pcard[data-card]")).to_have_attribute("data-card", drawn)


def test_the_key_hints_show_the_keys_as_the_players_layout_prints_them(
    player_factory: Callable[..., Player], starter_hand: Callable[[str], None]
) -> None:
    game, starter, _ = _game("polish51", POLISH_HAND, starter_hand)
    player = player_factory(starter.username)
    player.page.add_init_script(CYRILLIC_LAYOUT_MAP % json.dumps(CYRILLIC_LAYOUT))
    page = _at_table(player, starter, game)
    help_keys = page.locator("#keyboard-help kbd[data-key]")
    expect(help_keys).to_have_text(["Д", "Т", "Х", "Л", "О", "М", "Џ"])
    expect(page.locator("#lay-group")).to_have_attribute("title", re.compile(r"\(key Л\)$"))
    expect(page.locator("#discard-button")).to_have_attribute("title", re.compile(r"\(key Џ\)$"))


def test_without_the_layout_the_key_hints_keep_the_latin_letters(
    player_factory: Callable[..., Player], starter_hand: Callable[[str], None]
) -> None:
    game, starter, _ = _game("polish51", POLISH_HAND, starter_hand)
    player = player_factory(starter.username)
    # Firefox and Safari have no navigator.keyboard.
    player.page.add_init_script(
        "Object.defineProperty(navigator, 'keyboard', { value: undefined })"
    )
    page = _at_table(player, starter, game)
    expect(page.locator("#keyboard-help kbd[data-key]")).to_have_text(
        ["D", "T", "H", "L", "O", "M", "X"]
    )
    expect(page.locator("#lay-group")).to_have_attribute("title", re.compile(r"\(key L\)$"))
