"""Chip balances on the account pages: one's own profile (with the last movements)
and anyone's public page."""

from __future__ import annotations

import re

import pytest

from games.play.resign import game_resign

pytestmark = pytest.mark.django_db


def test_the_profile_shows_the_balance_and_the_last_movements(client, started, settings):
    game, users = started(players=2, preset="serbian", stake=30)
    client.force_login(users[0])

    page = client.get("/accounts/profile/").content.decode()

    balance = settings.CHIPS_STARTING_GRANT - 30
    assert re.search(rf'id="chips-balance">{balance:,}<', page)
    ledger = page[page.index('id="chip-ledger"') :]
    assert "Stake" in ledger and f"/games/{game.public_id}/" in ledger and "-30" in ledger
    assert "Starting chips" in ledger


def test_a_players_public_page_shows_their_balance(client, user, settings):
    response = client.get(f"/accounts/players/{user.username}/")

    assert response.status_code == 200
    assert f"{settings.CHIPS_STARTING_GRANT:,} chips" in response.content.decode()


def test_the_profile_shows_a_game_paid_out(client, started, settings):
    game, users = started(players=2, preset="serbian", stake=50)
    game_resign(game=game, user=users[0])
    client.force_login(users[1])

    page = client.get("/accounts/profile/").content.decode()

    assert re.search(rf'id="chips-balance">{settings.CHIPS_STARTING_GRANT + 50:,}<', page)
    assert "Share of the pot" in page and "+100" in page
