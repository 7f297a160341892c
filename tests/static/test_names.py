"""How the pages name a person (static/js/names.js): by display name, with the username
beside it where another person in the same company reads the same, and always beside
a name shown alone that does not read as the username. Run in node, with the browser's
globals stubbed."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from accounts import display_names, usernames
from tests.script_kit import load_script

ROOT = Path(__file__).resolve().parents[2]
NAMES = ROOT / "static" / "js" / "names.js"
# node: installed by scripts/ensure_services.sh, as for the AsyncAPI parser.
NODE = shutil.which("node") or "node"
HARNESS = """
globalThis.window = globalThis;
globalThis.document = { documentElement: { lang: "en", dataset: {} } };
const { namedAlone, reading, shownName, shownNameParts } = await import(process.argv[2]);
const cases = JSON.parse(process.argv[3]);
console.log(JSON.stringify({
  shown: cases.shown.map(([user, company]) => shownName(user, company)),
  parts: cases.shown.map(([user, company]) => shownNameParts(user, company)),
  alone: cases.alone.map((user) => namedAlone(user)),
  readings: (cases.readings || []).map((name) => reading(name)),
}));
"""


def user(username: str, display_name: str) -> dict[str, str]:
    return {"username": username, "display_name": display_name}


MARKO, PETAR = user("marko", "Marko"), user("petar", "Marko")


def named(
    tmp_path: Path,
    shown: list[tuple[dict[str, str], list[dict[str, str]]]],
    alone: list[dict[str, str]],
    readings: list[str] | None = None,
) -> dict[str, list[Any]]:
    harness = tmp_path / "harness.mjs"
    harness.write_text(HARNESS)
    cases = json.dumps({"shown": shown, "alone": alone, "readings": readings or []})
    run = subprocess.run(
        [str(NODE), str(harness), NAMES.as_uri(), cases],
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, list[Any]] = json.loads(run.stdout.strip().splitlines()[-1])
    return result


def test_people_who_read_the_same_in_one_company_are_shown_with_their_usernames(
    tmp_path: Path,
) -> None:
    wide = user("vera", "ＭＡＲＫＯ")
    company = [MARKO, PETAR, user("nina", "Nina")]

    result = named(
        tmp_path,
        [
            (MARKO, company),
            (PETAR, company),
            (company[2], company),
            (wide, [wide, user("ana", "marko  ")]),
            (MARKO, [MARKO, user("iva", "Marta")]),
            (user("jana", ""), [user("jana", "")]),
        ],
        [],
    )

    assert result["shown"] == [
        "Marko (@marko)",
        "Marko (@petar)",
        "Nina",
        "ＭＡＲＫＯ (@vera)",
        "Marko",
        "jana",
    ]


def test_a_name_shown_alone_has_the_username_unless_it_reads_as_it(tmp_path: Path) -> None:
    nameless = {"display_name": "Marko"}  # a line whose writer the page did not record
    result = named(tmp_path, [], [MARKO, PETAR, user("Ana_1", "ana_1"), user("zoe", ""), nameless])

    assert result["alone"] == ["Marko", "Marko (@petar)", "ana_1", "zoe", "Marko"]


def test_a_name_in_parts_gives_the_username_only_where_it_tells_two_apart(
    tmp_path: Path,
) -> None:
    company = [MARKO, PETAR, user("nina", "Nina")]

    result = named(tmp_path, [(PETAR, company), (company[2], company)], [])

    assert result["parts"] == [
        {"name": "Marko", "username": "petar"},
        {"name": "Nina", "username": None},
    ]


def test_the_pages_table_of_look_alike_letters_is_the_servers() -> None:
    generator = load_script("latin_reading_js")

    assert generator.MODULE.read_text(encoding="utf-8") == generator.module_text(), (
        "static/js/latin-reading.js is stale: run scripts/latin_reading_js.py"
    )


# Letters that look alike across alphabets, letters that do not, case pairs whose
# folding is not their lower case, widths and spaces that NFKC folds.
ALPHABET = (
    list(usernames.look_alike_letters())[::7]
    + list("abcdeijkmnoprstxyzABCEHIJKMOPTXYZ")
    + list("čćžšđЉЊЏкдлжшщσςΣßẞİı")
    + list("ＭＡｒｋｏ")
    + [" ", "  ", "\t", "\u00a0", "\u2003"]
)


@pytest.mark.django_db
def test_the_pages_read_a_name_as_the_server_does(tmp_path: Path) -> None:
    chosen = random.Random(7)
    names = ["Вера", "Bepa", "ＭＡＲＫＯ", "  marko ", "Straße", "STRASSE", "Ελένης", "ΕΛΈΝΗΣ"]
    names += [
        "".join(chosen.choice(ALPHABET) for _ in range(chosen.randint(1, 10))) for _ in range(400)
    ]

    result = named(tmp_path, [], [], names)

    server = [display_names.reading(name) for name in names]
    differing = [
        (name, js, py)
        for name, js, py in zip(names, result["readings"], server, strict=True)
        if js != py
    ]
    assert differing == []
    assert server[0] == server[1] and server[4] == server[5]


def test_look_alike_names_of_two_alphabets_are_told_apart_at_a_table(tmp_path: Path) -> None:
    # "Вера", all Cyrillic, reads as the Latin "Bepa".
    cyrillic, latin = user("vera", "Вера"), user("bepa", "Bepa")
    company = [cyrillic, latin, user("marko", "Марко")]

    result = named(tmp_path, [(cyrillic, company), (latin, company), (company[2], company)], [])

    assert result["shown"] == ["Вера (@vera)", "Bepa (@bepa)", "Марко"]
