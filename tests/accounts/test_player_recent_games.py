"""The player page's recent games name the opponents, the rules, the result and the
date, each linking to the game (not the game's raw id)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.play.resign import game_resign

pytestmark = pytest.mark.django_db


def recent_section(html: str) -> str:
    match = re.search(r'<section[^>]*aria-labelledby="recent-title".*?</section>', html, re.S)
    assert match, "no recent games section"
    return match.group(0)


def test_recent_games_show_opponents_rules_result_and_date_linked_to_the_game(
    started: Callable[..., tuple[Any, list[Any]]],
) -> None:
    game, users = started(players=3, preset="polish51")
    users[0].profile.display_name = "Ana Anić"
    users[0].profile.save()
    users[2].profile.display_name = "Marko M"
    users[2].profile.save()
    game_resign(game=game, user=users[2])
    game_resign(game=game, user=users[1])
    game.refresh_from_db()

    page = Client().get(reverse("accounts:player", args=[users[1].username]))

    assert page.status_code == 200
    section = recent_section(page.content.decode())
    link = f'href="{reverse("games:detail", args=[game.public_id])}"'
    row = re.search(r"<tbody>.*?</tbody>", section, re.S)
    assert row
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row.group(0), re.S)
    opponents, rules, result, _total, date = cells[:5]
    assert "Ana Anić" in opponents and "Marko M" in opponents
    assert users[1].profile.display_name not in opponents
    assert "Polish Remik 51" in rules
    assert "2 of 3" in result
    assert game.finished_at.strftime("%Y") in date
    for cell in (opponents, rules, result, date):
        assert link in cell
    # The game's id is in the links only, never shown as the text of a row.
    assert f">{game.public_id}<" not in section

    winner = recent_section(
        Client().get(reverse("accounts:player", args=[users[0].username])).content.decode()
    )
    assert "<strong>won</strong>" in winner
