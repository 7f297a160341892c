"""The rules pages: the list of presets and each preset's rules, made from its ruleset
(the same rows as docs/rules.md), and a game's house rules beside them."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from games.engine import PRESETS

pytestmark = pytest.mark.django_db


def field_value(html: str, field: str) -> str:
    """The value cell of a field's row in the table of every rule."""
    table = html[html.index('id="rules-fields"') :]
    found = re.search(rf'<tr data-field="{field}"><td>.*?</td><td>(.*?)</td>', table)
    assert found is not None, f"no row for {field}"
    return found.group(1)


def test_the_rules_list_names_every_preset() -> None:
    page = Client().get("/rules/")

    assert page.status_code == 200
    html = page.content.decode()
    for name, ruleset in PRESETS.items():
        assert ruleset.display_name in html
        assert f'href="/rules/{name}/"' in html


@pytest.mark.parametrize("preset", list(PRESETS))
def test_each_preset_has_a_page_with_its_rule_values(preset: str) -> None:
    ruleset = PRESETS[preset]

    page = Client().get(f"/rules/{preset}/")

    assert page.status_code == 200
    html = page.content.decode()
    assert ruleset.display_name in html
    assert field_value(html, "opening_minimum") == str(ruleset.opening_minimum)
    assert field_value(html, "hand_size") == str(ruleset.hand_size)
    assert field_value(html, "penalty_joker") == str(ruleset.penalty_joker)
    # The stock table: the cards dealt to two players.
    assert f"<td>2</td><td>{ruleset.dealt_cards(2)}</td>" in html


def test_an_unknown_preset_has_no_page() -> None:
    assert Client().get("/rules/nosuchrules/").status_code == 404


def test_a_games_house_rules_are_shown_beside_the_preset(lobby: Any) -> None:
    game, _users = lobby(2, overrides={"hand_needs_51": False})

    html = Client().get(f"/rules/serbian/?game={game.public_id}").content.decode()

    assert 'id="house-rules"' in html
    house = html[html.index('id="house-rules"') : html.index('id="rules-fields"')]
    assert '<tr data-field="hand_needs_51">' in house
    assert house.count("<tr data-field=") == 1


def test_a_game_by_the_book_says_so(lobby: Any) -> None:
    game, _users = lobby(2)

    html = Client().get(f"/rules/serbian/?game={game.public_id}").content.decode()

    assert (
        'id="house-rules"' in html and "<tr data-field=" not in html.split('id="rules-fields"')[0]
    )


def test_a_private_games_house_rules_stay_hidden(lobby: Any) -> None:
    game, _users = lobby(2, visibility="private", overrides={"hand_needs_51": False})

    html = Client().get(f"/rules/serbian/?game={game.public_id}").content.decode()

    assert 'id="house-rules"' not in html


def test_the_table_the_lobby_and_every_page_link_to_the_rules(
    lobby: Any, client: Client, user: Any
) -> None:
    game, _users = lobby(2)
    client.force_login(user)

    table = Client().get(f"/games/{game.public_id}/").content.decode()
    play = client.get("/play/").content.decode()
    home = Client().get("/").content.decode()

    assert f'href="/rules/serbian/?game={game.public_id}"' in table
    assert 'href="/rules/"' in play
    assert 'href="/rules/"' in home
