"""The CSV export never hands a spreadsheet a formula: every cell that could start one,
and every opponent's name within the opponents cell, is written as text."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from accounts.export import safe_cell
from tests.accounts.account_kit import played_game

pytestmark = pytest.mark.django_db

EXPORT_API = "/api/v1/me/games/export"


def exported_rows(client: Any) -> list[dict[str, str]]:
    response = client.get(f"{EXPORT_API}?format=csv")
    assert response.status_code == 200
    text = b"".join(response.streaming_content).decode()
    return list(csv.DictReader(io.StringIO(text)))


def test_each_opponent_s_name_is_quoted_not_only_the_cell_s_first(
    auth_client: Any, user: Any, user_factory: Any, deals_seeded: Any
) -> None:
    others = [user_factory(username=name) for name in ("bora", "-2+3", "@sum")]
    played_game([user, *others], winner=0)

    [row] = exported_rows(auth_client)

    assert row["opponents"] == "bora;'-2+3;'@sum"
    # Split as a spreadsheet with ";" for its list separator would split it.
    assert not any(name[0] in "=+-@" for name in row["opponents"].split(";"))


def test_a_cell_starting_like_a_formula_is_quoted_whatever_its_column(
    auth_client: Any, user: Any, user_factory: Any, deals_seeded: Any
) -> None:
    played_game([user_factory(username="+first"), user], winner=0)

    [row] = exported_rows(auth_client)

    assert row["opponents"] == "'+first"
    # A negative total is a number, not text to quote.
    assert row["total"].lstrip("-").isdigit()
    assert not any(value and value[0] in "=+@\t\r" for value in row.values())


@pytest.mark.parametrize(
    "text",
    ["=1+1", "+1", "-1", "@SUM(A1)", "\t=1", "\r=1", " =1", "  @x", "\u3000=1", "\uff1d1"],
)
def test_text_that_could_start_a_formula_gets_a_quote(text: str) -> None:
    assert safe_cell(text) == "'" + text


@pytest.mark.parametrize(("value", "cell"), [("ana", "ana"), ("a=b", "a=b"), ("", "")])
def test_other_text_is_left_as_it_is(value: str, cell: str) -> None:
    assert safe_cell(value) == cell


@pytest.mark.parametrize(("value", "cell"), [(-12, -12), (3, 3), (None, "")])
def test_numbers_stay_numbers_and_none_is_empty(value: Any, cell: Any) -> None:
    assert safe_cell(value) == cell
