"""The finished game's page carries the match's score sheet, rendered on the server
from the deals' results: each deal's points with the reason in words, who closed and
how, the running totals, the target and the match's winner."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.gamekit import current_engine_deal, quick_actions, table_create

pytestmark = pytest.mark.django_db
ONE_DEAL = {"match_deals": [1, 1, 1]}


def test_the_finished_game_page_shows_the_score_sheet(players, quick_deals):
    table = table_create(players(2), preset="serbian", overrides=ONE_DEAL)
    starter = current_engine_deal(table.game).to_move
    for action in quick_actions():
        assert table.act(starter, action, table.game.ply).status_code == 200
    assert table.game.status == "finished"
    browser = Client()
    browser.force_login(table.clients[0].user)

    page = browser.get(f"/games/{table.game_id}/")

    assert page.status_code == 200
    html = page.content.decode()
    sheet = html[html.index('id="score-sheet"') :]
    names = [client.user.username for client in table.clients]
    assert "1 deal, or until a total reaches 501." in sheet
    assert "-280" in sheet and "+400" in sheet
    assert "closed with the whole hand" in sheet and "did not open" in sheet
    assert f"{names[starter]} closed with the whole hand" in sheet
    assert f"Match won by {names[starter]}" in sheet


def test_a_running_game_page_leaves_the_sheet_to_the_table(players, quick_deals):
    table = table_create(players(2), preset="serbian", overrides=ONE_DEAL)
    browser = Client()
    browser.force_login(table.clients[0].user)

    html = browser.get(f"/games/{table.game_id}/").content.decode()

    assert 'id="score-sheet"' in html and "Match won by" not in html
