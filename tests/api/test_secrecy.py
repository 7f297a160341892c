"""A player never receives another player's cards or anything of the stock, from any
endpoint; a spectator never receives any hand (ARCHITECTURE.md, hidden information)."""

from __future__ import annotations

import random

import pytest

from games.engine import TakeDiscard, UndoTake
from games.models import Deal, Game
from tests.gamekit import (
    SERVER_ONLY_KEYS,
    assert_view_hides_secrets,
    card_pairs,
    current_engine_deal,
    greedy_action,
    keys_in,
    table_create,
)

pytestmark = pytest.mark.django_db

EVERYONE_READS_EVERY = 3


def curious_action(deal, rng):
    """The greedy player, who also takes the discard and undoes takes now and then (the
    moves whose public forms show cards that then sit in a hand)."""
    legal = deal.legal_actions()
    if TakeDiscard() in legal and rng.random() < 0.4:
        return TakeDiscard()
    if UndoTake() in legal and rng.random() < 0.5:
        return UndoTake()
    return greedy_action(deal)


@pytest.mark.parametrize("preset", ["serbian", "polish51"])
def test_no_endpoint_shows_a_hidden_card(players, spectator, deals_seeded, preset):
    table = table_create(players(3), preset=preset, spectator=spectator)
    rng = random.Random(7)
    everything = []

    reviews_read = 0

    def ended() -> int:
        return Deal.objects.filter(game=table.game, finished_at__isnull=False).count()

    for move in range(1, 151):
        game = table.game
        if game.status != Game.Status.ACTIVE:
            break
        deal = current_engine_deal(game)
        seat = deal.to_move
        response = table.act(seat, curious_action(deal, rng), game.ply)
        assert response.status_code == 200, response.json()
        assert_view_hides_secrets(response.json()["game"], seat, table.game, table.shown)
        everything.append(response.json())
        if ended() > reviews_read:
            # A deal ended: the table's review panel reads its review at once, while
            # the next deal is played (each seat, and the spectator, refused).
            for reader, client in [*enumerate(table.clients), (None, spectator)]:
                table.check_reviews(reader, client)
            reviews_read += 1
        # Every move's log entry is read by everyone; the others' views of the game
        # are read after every third move (the mover's, above, after each).
        if move % EVERYONE_READS_EVERY == 0:
            table.check_everyone(recent=EVERYONE_READS_EVERY)
    table.check_everyone()
    assert reviews_read == ended(), "a deal ended and its review was not read at once"

    # Also the lists and the account: no server-only field anywhere.
    for client in [*table.clients, spectator]:
        for url in ("/api/v1/games", "/api/v1/games?mine=true", "/api/v1/me", table.url()):
            body = client.get(url).json()
            everything.append(body)
            assert not SERVER_ONLY_KEYS & keys_in(body)
    assert any(pair for body in everything for pair in card_pairs(body))


def test_the_stock_order_is_never_sent(players, deals_seeded):
    table = table_create(players(2), preset="macedonian")
    game = table.game
    stock = current_engine_deal(game).to_dict()["stock"]

    bodies = [table.clients[s].get(table.url()).json() for s in (0, 1)]
    bodies += [table.clients[s].get(table.url("/moves")).json() for s in (0, 1)]

    seen = {card_id for body in bodies for card_id, _ in card_pairs(body)}
    assert not seen & set(stock)
    for body in bodies[:2]:
        assert body["deal"]["stock_count"] == len(stock)
        assert_view_hides_secrets(body, body["you"], game)


def assert_results_show_only_finished_deals(view, game):
    """The game's `deals` are the finished deals alone, each showing the hands its seats
    were left with as that deal ended: no card of the deal being played."""
    rows = {row.number: row for row in Deal.objects.filter(game=game, result__isnull=False)}
    assert [result["number"] for result in view["deals"]] == sorted(rows)
    for result in view["deals"]:
        ended = rows[result["number"]].restore(game.engine_ruleset())
        assert ended.is_over
        for seat, shown in enumerate(result["hands_left"]):
            pairs = [(card_id, str(ended.card(card_id))) for card_id in ended.hand_ids(seat)]
            assert [(pair["id"], pair["card"]) for pair in shown] == pairs


def assert_legal_moves_name_only_own_cards(view, viewer, game):
    """Only the player to move gets `legal`, and it names cards of their own hand (and the
    top of the discard pile, which everyone sees)."""
    legal = view["deal"]["legal"]
    deal = current_engine_deal(game)
    if viewer is None or viewer != deal.to_move or deal.is_over:
        assert legal is None
        return
    own = {str(card) for card in deal.hand(viewer)}
    named = set(legal["discards"]) | {move["card"] for move in legal["lay_offs"]}
    named |= {card for move in legal["swaps"] for card in move["cards"]}
    assert named <= own
    if legal["take"] is not None:
        assert legal["take"]["card"] == str(deal.discard_top)


def test_deal_results_legal_moves_and_hints_show_no_hidden_card(players, spectator, deals_seeded):
    table = table_create(
        players(2), preset="serbian", overrides={"match_deals": [2, 2, 2]}, spectator=spectator
    )
    readers = [*enumerate(table.clients), (None, spectator)]
    finished_seen = set()

    for step in range(400):
        game = table.game
        if game.status != Game.Status.ACTIVE:
            break
        finished = Deal.objects.filter(game=game, result__isnull=False).count()
        if step % 25 == 0 or finished not in finished_seen:
            finished_seen.add(finished)
            for viewer, client in readers:
                view = client.get(table.url()).json()
                assert_view_hides_secrets(view, viewer, game, table.shown)
                assert_results_show_only_finished_deals(view, game)
                assert_legal_moves_name_only_own_cards(view, viewer, game)
                if viewer is not None:
                    hint = client.post(table.url("/hint")).json()
                    hand = {pair["id"]: pair["card"] for pair in view["deal"]["hand"]}
                    assert dict(card_pairs(hint)).items() <= hand.items()
        deal = current_engine_deal(game)
        assert table.act(deal.to_move, greedy_action(deal), game.ply).status_code == 200

    assert table.game.status == Game.Status.FINISHED and finished_seen >= {0, 1}
    final = spectator.get(table.url()).json()
    assert_results_show_only_finished_deals(final, table.game)
    assert len(final["deals"]) == 2


def test_the_short_answer_of_a_move_shows_only_what_the_movers_log_shows(players, deals_seeded):
    """``Prefer: return=minimal``: the move as the mover's own log shows it, and no card
    at all in where the game stands."""
    table = table_create(players(2), preset="serbian")
    rng = random.Random(11)

    for _move in range(60):
        game = table.game
        if game.status != Game.Status.ACTIVE:
            break
        deal = current_engine_deal(game)
        seat = deal.to_move
        response = table.act(
            seat, curious_action(deal, rng), game.ply, HTTP_PREFER="return=minimal"
        )
        assert response.status_code == 200, response.json()
        body = response.json()
        assert not list(card_pairs(body["game"])) and not SERVER_ONLY_KEYS & keys_in(body)
        log = table.clients[seat].get(table.url(f"/moves?after={body['move']['ply'] - 1}"))
        assert log.json()["results"][0] == body["move"]
