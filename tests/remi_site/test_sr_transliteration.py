"""The Serbian Cyrillic catalogues are the Latin ones written in Cyrillic, letter for
letter, and cannot drift apart from them."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location(
    "sr_latn_to_cyrl", ROOT / "scripts" / "sr_latn_to_cyrl.py"
)
assert _spec is not None and _spec.loader is not None
sr = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sr)

LATIN_CATALOGUES = sorted(
    path
    for base in (ROOT / "locale", ROOT / "games" / "locale", ROOT / "accounts" / "locale")
    for path in base.glob("sr_Latn/LC_MESSAGES/*.po")
)


def test_digraphs_are_single_cyrillic_letters() -> None:
    assert sr.to_cyrillic("Džoker, ljubav, Njegoš, DŽ LJ NJ") == "Џокер, љубав, Његош, Џ Љ Њ"


def test_placeholders_markup_and_acronyms_stay_latin() -> None:
    text = "Potez %(name)s {count} <a href='/x'>link</a> &amp; API"
    assert sr.to_cyrillic(text) == "Потез %(name)s {count} <a href='/x'>линк</a> &amp; API"


def test_a_catalogue_keeps_its_msgids_and_flags() -> None:
    lines = [
        'msgid ""\n',
        'msgstr ""\n',
        '"Language: sr_Latn\\n"\n',
        "#, python-format\n",
        'msgid "Your turn against %(name)s"\n',
        'msgstr "Tvoj potez protiv %(name)s"\n',
    ]
    assert sr.convert(lines) == [
        'msgid ""\n',
        'msgstr ""\n',
        '"Language: sr_Cyrl\\n"\n',
        "#, python-format\n",
        'msgid "Your turn against %(name)s"\n',
        'msgstr "Твој потез против %(name)s"\n',
    ]


def test_there_are_serbian_catalogues() -> None:
    assert LATIN_CATALOGUES, "no sr_Latn catalogue found"


@pytest.mark.parametrize("latin", LATIN_CATALOGUES, ids=lambda path: str(path.relative_to(ROOT)))
def test_each_cyrillic_catalogue_is_its_latin_sibling_transliterated(latin: Path) -> None:
    cyrillic = latin.parents[2] / "sr_Cyrl" / "LC_MESSAGES" / latin.name
    assert cyrillic.is_file(), f"{cyrillic.relative_to(ROOT)} is missing"
    expected = "".join(sr.convert(latin.read_text(encoding="utf-8").splitlines(keepends=True)))
    assert cyrillic.read_text(encoding="utf-8") == expected, (
        f"{cyrillic.relative_to(ROOT)} differs from its Latin sibling: run "
        f"scripts/sr_latn_to_cyrl.py {latin.relative_to(ROOT)} {cyrillic.relative_to(ROOT)}"
    )
