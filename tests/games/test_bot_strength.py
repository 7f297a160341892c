"""The built-in bots' measured strength on the bots page and a bot's page, read from
``bench/bots.py --json-out``'s file (a fixture of these tests, not the real one): win
rates with their deals and interval per preset, in the reader's language, and "not
measured yet" where the file says nothing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import Client, override_settings

from games.read import bot_strength

FIXTURE = Path(__file__).parent / "fixtures" / "bot_strength.json"


@pytest.fixture
def strength_file(tmp_path: Path) -> Iterator[Path]:
    """The fixture's figures, in a file of this test's own (``BOT_STRENGTH_FILE``)."""
    path = tmp_path / "measured_strength.json"
    path.write_text(FIXTURE.read_text())
    with override_settings(BOT_STRENGTH_FILE=str(path)):
        yield path


def test_a_level_shows_its_win_rates_per_preset_against_the_others(strength_file: Path) -> None:
    hard = bot_strength.level_strength(4)

    assert hard["name"] == "Hard" and hard["measured"]
    assert [preset["preset"] for preset in hard["presets"]] == ["macedonian", "serbian"]
    macedonian = hard["presets"][0]["pairings"]
    assert [(row["opponent"], row["deals"], row["win_rate"]) for row in macedonian] == [
        (2, 1200, 0.703),
        (3, 1000, 0.521),
    ]


def test_a_level_not_measured_clearly_above_the_one_below_is_not_called_stronger(
    strength_file: Path,
) -> None:
    # 52.1 % ± 3.0 against level 3 in one preset: within the interval.
    assert bot_strength.level_strength(4)["stronger_than_below"] is False
    assert bot_strength.level_strength(3)["stronger_than_below"] is True
    assert bot_strength.level_strength(2)["stronger_than_below"] is None


def test_a_pairing_measured_the_other_way_round_counts_for_both_levels(
    strength_file: Path,
) -> None:
    easy = bot_strength.level_strength(2)
    macedonian = easy["presets"][0]["pairings"]
    assert [(row["opponent"], row["deals"]) for row in macedonian] == [(3, 200), (4, 1200)]
    assert macedonian[1]["win_rate"] == pytest.approx(1 - 0.703)


def test_a_level_without_a_pairing_is_not_measured_yet(strength_file: Path) -> None:
    beginner = bot_strength.level_strength(1)
    assert beginner["measured"] is False and beginner["presets"] == []


def test_without_the_file_no_level_is_measured(tmp_path: Path) -> None:
    with override_settings(BOT_STRENGTH_FILE=str(tmp_path / "absent.json")):
        assert not any(level["measured"] for level in bot_strength.ladder().values())


@pytest.mark.parametrize(
    "change",
    [
        {"win_rate": 1.7},
        {"deals": 0},
        {"deals": "many"},
        {"preset": "klondike"},
        {"opponent": 3},
        {"interval": None},
    ],
)
def test_a_file_that_breaks_its_format_anywhere_counts_as_no_measurement(
    tmp_path: Path, change: dict[str, Any]
) -> None:
    data = json.loads(FIXTURE.read_text())
    data["pairings"][-1].update(change)
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data))
    with override_settings(BOT_STRENGTH_FILE=str(path)):
        assert bot_strength.measurement() is None
        assert not bot_strength.level_strength(4)["measured"]


def test_a_file_that_is_not_json_counts_as_no_measurement(tmp_path: Path) -> None:
    path = tmp_path / "garbage.json"
    path.write_text("{not json")
    with override_settings(BOT_STRENGTH_FILE=str(path)):
        assert bot_strength.measurement() is None


@pytest.mark.django_db
def test_the_bots_page_shows_the_ladder_in_the_readers_language(
    strength_file: Path, bots: list[Any]
) -> None:
    page = Client(HTTP_ACCEPT_LANGUAGE="pl").get("/bots/")

    html = page.content.decode()
    assert page.status_code == 200
    hard = html[html.index('id="strength-level-4"') :]
    hard = hard[: hard.index("</section>")]
    assert "70,3%" in hard and "3,1%" in hard
    assert "1200" in hard.replace("\xa0", "")  # CLDR's grouping: "1 200"
    beginner = html[html.index('id="strength-level-1"') :]
    assert "strength-unmeasured" in beginner[: beginner.index("</section>")]


@pytest.mark.django_db
def test_a_bots_own_page_shows_its_strength_and_no_invented_rating(
    strength_file: Path, bots: list[Any]
) -> None:
    page = Client(HTTP_ACCEPT_LANGUAGE="en").get("/accounts/players/expert-emil/")

    html = page.content.decode()
    assert page.status_code == 200
    assert 'id="strength-level-4"' in html
    assert "70.3%" in html and "1,200 deals" in html
    assert "Not measured clearly stronger than level 3" in html
    assert 'id="ratings-title"' not in html


@pytest.mark.django_db
def test_a_bots_page_says_when_nothing_is_measured(tmp_path: Path, bots: list[Any]) -> None:
    with override_settings(BOT_STRENGTH_FILE=str(tmp_path / "absent.json")):
        page = Client(HTTP_ACCEPT_LANGUAGE="en").get("/accounts/players/careful-katarina/")

    assert "Its strength is not measured yet." in page.content.decode()
    assert "%" not in page.content.decode().split('id="strength-level-3"')[1].split("</section>")[0]
