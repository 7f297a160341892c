"""The web UI in a real browser: two people meet in the lobby and play a turn at the
table, and one plays bots. With REMI_SCREENSHOTS=1, each step is photographed into
var/screens/."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.models import Game, Move
from games.play.act import game_act
from tests.browser.boxes import shown_boxes
from tests.browser.deal_end import DRY_HAND, LAST_CARD, PASSWORD, stage_the_dry_hand
from tests.browser.network_kit import Held, record_frames
from tests.browser.table_kit import OPENING_HAND, bot_cards, started_game
from tests.gamekit import current_engine_deal

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    # whitenoise's static files under ASGI (settings.py hides it outside pytest)
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]


def _to_move(*players: Any) -> tuple[Any, Any]:
    """(the player whose turn it is, the other) once both tables show the deal."""
    for player in players:
        expect(player.page.locator("#hand .pcard").first).to_be_visible()
    first, second = players
    mover = first if first.page.locator("#me.me-to-move").count() else second
    return mover, second if mover is first else first


def test_two_people_meet_in_the_lobby_and_play_an_opening_turn(
    player_factory: Callable[..., Any], starter_hand: Callable[[str], None]
) -> None:
    starter_hand(OPENING_HAND)
    get_user_model().objects.create_user(username="bob", password=PASSWORD)
    ana = player_factory("ana")
    bob = player_factory("bob")

    # Ana signs up and creates a public 2-player Polish game.
    ana.sign_up("ana", PASSWORD, display_name="Ana")
    ana.goto("/play/")
    expect(ana.page.locator("#presets .choice")).to_have_count(4)
    ana.page.locator("label.choice", has_text="Polish Remik 51").click()
    ana.screenshot("lobby")
    ana.page.click("#create-button")
    ana.page.wait_for_url(re.compile(r"/games/[a-z0-9]+/$"))
    game_url = ana.page.url.removeprefix(ana.base_url)
    expect(ana.page.locator("#waiting")).to_contain_text("Waiting for players")
    expect(ana.page.locator("#waiting")).to_contain_text("1 of 2 seats taken")
    ana.screenshot("table-waiting")

    # Bob logs in, finds the game among the open ones and joins it.
    bob.log_in("bob", PASSWORD)
    bob.goto("/play/")
    bob.page.get_by_role("button", name=re.compile("Join Polish Remik 51")).click()
    bob.page.wait_for_url(re.compile(re.escape(game_url) + "$"))

    # Ana's page notices and she starts.
    ana.page.get_by_role("button", name="Start the game").first.click()
    mover, other = _to_move(ana, bob)
    assert sorted(mover.hand()) == sorted(OPENING_HAND.split())
    expect(mover.page.locator("#prompt")).to_contain_text("Your turn: draw")
    expect(other.page.locator("#prompt")).to_contain_text("Waiting for")
    page = mover.page

    # Sorting and moving cards are the player's own business.
    page.click("#sort-rank")
    assert mover.hand()[:3] == ["2D", "5C", "7H"]
    page.click("#sort-suit")
    assert mover.hand()[:4] == ["9S", "QS", "KS", "7H"]
    mover.select("9S")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert mover.hand()[:3] == ["QS", "KS", "9S"]
    page.keyboard.press("Escape")
    expect(page.locator("#hand .pcard.selected")).to_have_count(0)

    # Draw from the stock: the new card is marked.
    page.click("#stock")
    expect(page.locator("#hand .pcard")).to_have_count(14)
    expect(page.locator("#hand .card-fresh")).to_have_count(1)
    expect(page.locator("#prompt")).to_contain_text("Open with melds worth 51")

    # Stage the opening: a run, then a set; the total runs toward 51.
    # The server says what the staged melds are worth; until it has, the row says so.
    mover.select("7H", "8H", "9H", "10H")
    expect(page.locator("#selection-info")).to_have_text("Run worth 34")
    checks = Held(page, "**/melds/check")
    page.click("#lay-group")
    expect(page.locator("#staging-total")).to_have_text("checking…")
    expect(page.locator("#open-button")).to_be_disabled()
    checks.first()
    mover.screenshot("table-opening-checking")
    checks.release()
    expect(page.locator("#staging-total")).to_have_text("34 / 51")
    expect(page.locator("#open-button")).to_be_disabled()
    mover.select("QS", "QD", "QC")
    page.keyboard.press("l")
    expect(page.locator("#staging-total")).to_have_text("64 / 51")
    expect(page.locator("#hand .pcard")).to_have_count(7)
    expect(page.locator("#open-button")).to_be_enabled()
    mover.screenshot("table-opening-staged")

    # The server judges each staged meld: one that is none is marked with its reason
    # and holds the opening back until it is put back in the hand.
    mover.select("2D", "5C", "9S")
    page.click("#lay-group")
    bad = page.locator("#staging .meld-invalid")
    expect(bad).to_have_count(1)
    expect(page.locator("#staging-note")).to_contain_text(
        "a run must be of one suit and a set of one rank"
    )
    expect(page.locator("#staging-total")).to_have_text("64 / 51")
    expect(page.locator("#open-button")).to_be_disabled()
    mover.screenshot("table-opening-staged-invalid")
    bad.locator(".meld-remove").click()
    expect(page.locator("#open-button")).to_be_enabled()

    # Cancel returns the cards; stage again and open.
    page.click("#cancel-opening")
    expect(page.locator("#staging")).to_be_hidden()
    expect(page.locator("#hand .pcard")).to_have_count(14)
    mover.select("7H", "8H", "9H", "10H")
    page.click("#lay-group")
    mover.select("QS", "QD", "QC")
    page.click("#lay-group")
    expect(page.locator("#staging-total")).to_have_text("64 / 51")
    page.click("#open-button")
    expect(page.locator(".meld-group[data-owner] .meld")).to_have_count(2)
    expect(page.locator("#me .badge-opened")).to_be_visible()

    # The server judges what the page sends: its message is shown as it is.
    mover.select("2D", "5C", "9S")
    page.click("#lay-group")
    expect(page.locator(".toast-error").last).to_contain_text(
        "a run must be of one suit and a set of one rank"
    )
    page.keyboard.press("ArrowDown")

    # Opened: a group goes straight to the table.
    mover.select("KS", "KD", "KC")
    page.click("#lay-group")
    expect(page.locator(".meld-group .meld")).to_have_count(3)

    # Discard: select one card, click the discard pile. The turn passes.
    mover.select("9S")
    page.click("#discard")
    expect(page.locator('#discard .pcard[data-card="9S"]')).to_be_visible()
    expect(page.locator("#prompt")).to_contain_text("Waiting for")
    mover.screenshot("table-after-turn")

    # The other table sees it all (by polling the REST state).
    seen = other.page
    expect(seen.locator('#discard .pcard[data-card="9S"]')).to_be_visible()
    expect(seen.locator(".meld-group .meld")).to_have_count(3)
    expect(seen.locator(".seat[data-seat] .fan-count")).to_have_text(str(len(mover.hand())))
    expect(seen.locator(".seat .badge-opened")).to_be_visible()
    expect(seen.locator("#prompt")).to_contain_text("Your turn: draw from the stock, or take")
    expect(seen.locator("#log")).to_contain_text("discarded 9♠")
    other.screenshot("table-other-player")

    # The other player takes the 9♠ from the discard pile: it is marked as taken.
    seen.click("#discard")
    expect(seen.locator("#hand .card-taken")).to_have_attribute("data-card", "9S")
    expect(seen.locator("#discard > .pcard:last-child")).not_to_have_attribute("data-card", "9S")

    game = Game.objects.get()
    kinds = list(Move.objects.filter(game=game).order_by("ply").values_list("kind", flat=True))
    assert kinds == ["draw", "lay", "lay", "discard", "take"]


def test_a_phone_shows_the_whole_hand_and_the_starter_lays_off_and_swaps(
    serbian_game: tuple[Game, list[Any]], player_factory: Callable[..., Any]
) -> None:
    game, users = serbian_game
    phones = [player_factory(user.username, width=390, height=844) for user in users]
    for phone, user in zip(phones, users, strict=True):
        phone.log_in(user.username, PASSWORD)
        phone.goto(f"/games/{game.public_id}/")
        expect(phone.page.locator("#hand .pcard").first).to_be_visible()
    mover = next(p for p in phones if p.page.locator("#me.me-to-move").count())
    page = mover.page
    # The serbian starter has 15 cards and plays without drawing.
    expect(page.locator("#hand .pcard")).to_have_count(15)
    last = shown_boxes(page, "#hand .pcard")[-1]
    assert last["x"] + last["width"] <= 390
    page.click("#sort-suit")
    mover.screenshot("table-phone")

    # Open with a run holding a joker (2♣ 🃏 4♣ = 9), 7-8-9♥ (24) and Q♠ Q♦ Q♣ (30).
    mover.select("2C", "4C")
    page.locator('#hand .pcard[data-card="JK"]').last.click(position={"x": 6, "y": 40})
    expect(page.locator("#selection-info")).to_have_text("Run worth 9")
    page.click("#lay-group")
    mover.select("7H", "8H", "9H")
    page.click("#lay-group")
    mover.select("QS", "QD", "QC")
    page.click("#lay-group")
    expect(page.locator("#staging-total")).to_have_text("63 / 51")
    page.click("#open-button")
    expect(page.locator(".meld-group .meld")).to_have_count(3)

    # Lay off the 10♥ on the hearts, then swap the 3♣ for the joker in the clubs.
    run = page.locator("#melds .meld", has=page.locator('.pcard[data-card="7H"]'))
    mover.select("10H")
    run.click()
    expect(run.locator(".pcard")).to_have_count(4)
    clubs = page.locator("#melds .meld", has=page.locator('.pcard[data-card="2C"]'))
    mover.select("3C")
    clubs.locator('.pcard[data-card="JK"]').click(position={"x": 5, "y": 20})
    expect(clubs.locator('.pcard[data-card="JK"]')).to_have_count(0)
    expect(page.locator('#hand .pcard[data-card="JK"]')).to_have_count(2)
    expect(page.locator("#log")).to_contain_text("swapped 3♣ for a joker")
    mover.screenshot("table-phone-opened")


def test_play_now_against_a_bot(
    player_factory: Callable[..., Any], starter_hand: Callable[[str], None], bots: list[Any]
) -> None:
    starter_hand(OPENING_HAND)
    get_user_model().objects.create_user(username="vera", password=PASSWORD)
    vera = player_factory("vera")
    vera.log_in("vera", PASSWORD)
    vera.goto("/play/")
    vera.page.locator("label.choice", has_text="Polish Remik 51").click()
    vera.page.locator(".segmented label", has_text="Bots").click()
    expect(vera.page.locator("#create-button")).to_have_text("Play now")
    vera.page.click("#create-button")
    vera.page.wait_for_url(re.compile(r"/games/[a-z0-9]+/$"))
    page = vera.page
    expect(page.locator(".seat .badge-bot")).to_be_visible()
    expect(page.locator("#me.me-to-move")).to_be_visible()  # a bot that starts has played
    # A game against bots alone is neither "private" nor "public" to its player.
    expect(page.locator("#game-meta")).to_contain_text("against bots")
    expect(page.locator("#game-meta")).not_to_contain_text("private")

    vera.draw_and_discard_the_drawn_card()
    # The bot answers at once (Celery runs eagerly in the tests): Vera is to move again.
    expect(page.locator("#log")).to_contain_text("Greedy Goran discarded")
    expect(page.locator("#prompt")).to_contain_text("Your turn: draw")
    expect(page.locator(".seat .fan-count")).to_have_text(str(bot_cards()))
    vera.screenshot("table-vs-bot")


def test_a_private_game_by_invite_link_and_the_deal_summary(
    player_factory: Callable[..., Any], starter_hand: Callable[[str], None]
) -> None:
    starter_hand(DRY_HAND)
    for name in ("zora", "ivan"):
        get_user_model().objects.create_user(username=name, password=PASSWORD)
    zora = player_factory("zora")
    ivan = player_factory("ivan")
    zora.log_in("zora", PASSWORD)
    zora.goto("/play/")
    zora.page.locator(".segmented label", has_text="Invite only").click()
    zora.page.locator(".segmented label", has_text="Correspondence").click()
    zora.page.click("#create-button")
    invite = zora.page.locator("#waiting .invite-input")
    expect(invite).to_have_value(re.compile(r"/games/[a-z0-9]+/\?invite=[a-z0-9]+$"))
    link = invite.input_value().removeprefix(zora.base_url)

    # Without the link the game does not exist for Ivan; with it he may join.
    ivan.log_in("ivan", PASSWORD)
    ivan.goto(link.split("?")[0])
    expect(ivan.page.locator("h1")).to_have_text("Not found")
    ivan.goto(link)
    ivan.page.get_by_role("button", name="Join the game").click()
    expect(ivan.page.locator("#waiting")).to_contain_text("Everyone is here")
    zora.page.get_by_role("button", name="Start the game").first.click()

    # The serbian starter plays without drawing: everything down at once, one discard.
    mover, other = _to_move(zora, ivan)
    page = mover.page
    stage_the_dry_hand(mover)
    expect(page.locator("#staging-total")).to_have_text("108 / 51")
    mover.open_with_the_staged_melds()
    mover.select(LAST_CARD)
    page.click("#discard")

    for player in (mover, other):
        dialog = player.page.locator("#summary")
        expect(dialog).to_be_visible()
        expect(dialog.locator("h2")).to_have_text("Deal 1 is over")
        expect(dialog).to_contain_text("went out in one go: a hand!")
        expect(dialog.locator("tr.winner-row")).to_contain_text("-280")
        expect(dialog).to_contain_text("+400")  # never opened: 400 in a dry hand
    mover.screenshot("table-deal-summary")
    for player in (mover, other):
        player.page.get_by_role("button", name="Next deal").click()
        expect(player.page.locator("#summary")).to_be_hidden()
        expect(player.page.locator("#game-meta")).to_contain_text("Deal 2 of 8")


def test_moves_reach_the_other_table_through_the_websocket(
    serbian_game: tuple[Game, list[Any]], asgi_player_factory: Callable[..., Any]
) -> None:
    game, users = serbian_game
    players = [asgi_player_factory(user.username) for user in users]
    for player, user in zip(players, users, strict=True):
        player.log_in(user.username, PASSWORD)
        player.goto(f"/games/{game.public_id}/")
        expect(player.page.locator("#hand .pcard").first).to_be_visible()
    mover, other = _to_move(*players)
    # Once the socket is open the page polls only every 15 s: a quick update is a push.
    other.page.wait_for_function("() => window.__remiLive && window.__remiLive.connected")
    mover.select("5D")
    mover.page.click("#discard")
    expect(other.page.locator('#discard .pcard[data-card="5D"]')).to_be_visible(timeout=5000)
    expect(other.page.locator("#prompt")).to_contain_text("Your turn")


THROTTLED = {"error": {"code": "throttled", "message": "Too many requests.", "details": {}}}


def test_a_push_that_comes_while_the_players_own_move_is_answered_is_read_after_it(
    serbian_game: tuple[Game, list[Any]], asgi_player_factory: Callable[..., Any]
) -> None:
    # The answer to a move is the game as that move left it. A push that announces a
    # later move (here the other player's draw) may come while that answer is on its
    # way: the table reads the state again once the answer is in, rather than wait for
    # the next poll (15 s with the socket open). The move log, which would also notice,
    # is refused meanwhile (too many requests): the table must not depend on it.
    game, users = serbian_game
    starter = users[current_engine_deal(game).to_move]
    other = next(user for user in users if user != starter)
    mover = asgi_player_factory(starter.username)
    mover.log_in(starter.username, PASSWORD)
    page = mover.page
    record_frames(page)
    mover.goto(f"/games/{game.public_id}/")
    expect(page.locator("#opponents .fan-count")).to_have_text("14")
    page.wait_for_function("() => window.__remiLive && window.__remiLive.connected")
    page.route(re.compile(r"/moves\?"), lambda route: route.fulfill(status=429, json=THROTTLED))
    actions = Held(page, "**/actions")
    mover.select("5D")
    page.click("#discard")
    discard, answer = actions.played_late()
    after_discard = Game.objects.get(pk=game.pk).ply
    game_act(game=game, user=other, action={"type": "draw"}, expected_ply=after_discard)
    page.wait_for_function(f"() => window.__frames.some((frame) => frame.ply > {after_discard})")
    discard.fulfill(response=answer)
    actions.stop()
    expect(page.locator("#opponents .fan-count")).to_have_text("15", timeout=5000)
    expect(page.locator('#discard .pcard[data-card="5D"]')).to_be_visible()


@pytest.fixture
def polish_game(starter_hand: Callable[[str], None]) -> tuple[Game, Any]:
    """A started polish51 game whose starter can go out at once; (game, starter)."""
    starter_hand("7H 8H 9H 10H QS QD QC KS KD KC 2D 3D 4D")
    game, users = started_game("polish51", ("olga", "pero"))
    return game, users[current_engine_deal(game).to_move]


def test_going_out_ends_a_polish_game_with_the_final_standings(
    polish_game: tuple[Game, Any], player_factory: Callable[..., Any]
) -> None:
    # polish51 is one deal: the starter draws, lays all 13 cards down and discards.
    game, starter = polish_game
    mover = player_factory(starter.username)
    mover.log_in(starter.username, PASSWORD)
    mover.goto(f"/games/{game.public_id}/")
    page = mover.page
    page.click("#stock")
    expect(page.locator("#hand .card-fresh")).to_have_count(1)
    drawn = page.locator("#hand .card-fresh").get_attribute("data-card")
    for meld in ("7H 8H 9H 10H", "QS QD QC", "KS KD KC", "2D 3D 4D"):
        mover.select(*meld.split())
        page.click("#lay-group")
    mover.open_with_the_staged_melds()
    assert drawn is not None
    mover.select(drawn)
    page.click("#discard")

    dialog = page.locator("#summary")
    expect(dialog.locator("h2")).to_have_text("You won the game!")
    expect(dialog).to_contain_text("went out in one go: a hand!")
    expect(page.locator("#waiting")).to_contain_text("You won the game!")
    expect(page.locator("#hand-area")).to_be_hidden()
    mover.screenshot("table-game-over")
