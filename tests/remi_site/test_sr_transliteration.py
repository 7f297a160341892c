"""The Serbian Cyrillic catalogues are the Latin ones written in Cyrillic, letter for
letter, and cannot drift apart from them."""

from __future__ import annotations

import importlib.util
import re
from html.parser import HTMLParser
from pathlib import Path

import polib  # type: ignore[import-untyped]
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


def test_a_tag_wrapped_over_two_lines_of_a_catalogue_stays_latin() -> None:
    lines = [
        'msgid "Ask <a href=\\"/x\\">here</a>."\n',
        'msgstr ""\n',
        '"Pitaj <a "\n',
        '"href=\\"%(reset_url)s\\">ovde</"\n',
        '"a>, <code>Authorization</"\n',
        '"code>."\n',
    ]
    assert sr.convert(lines)[2:] == [
        '"Питај <a "\n',
        '"href=\\"%(reset_url)s\\">овде</"\n',
        '"a>, <code>Authorization</"\n',
        '"code>."\n',
    ]


def test_each_plural_form_is_transliterated_on_its_own() -> None:
    lines = [
        'msgid "%(count)s game"\n',
        'msgid_plural "%(count)s games"\n',
        'msgstr[0] "%(count)s igra"\n',
        'msgstr[1] "%(count)s igre"\n',
        'msgstr[2] "%(count)s igara"\n',
    ]
    assert sr.convert(lines)[2:] == [
        'msgstr[0] "%(count)s игра"\n',
        'msgstr[1] "%(count)s игре"\n',
        'msgstr[2] "%(count)s игара"\n',
    ]


class _Markup(HTMLParser):
    """The tags (with their attributes) and entities of a text, in order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.found: list[object] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append(("<", tag, attrs))

    def handle_endtag(self, tag: str) -> None:
        self.found.append(("</", tag))

    def handle_entityref(self, name: str) -> None:
        self.found.append(("&", name))

    def handle_charref(self, name: str) -> None:
        self.found.append(("&#", name))


PLACEHOLDERS = re.compile(r"%\([^)]*\)[-+ #0-9.]*[sdif]|%[sdif]|\{[^}]*\}|https?://\S+")
MARKUP = re.compile(r"<[a-z/]|&#?\w+;|%\(|%[sdif]|\{|https?://")


def markup_of(text: str) -> tuple[list[object], list[str]]:
    parser = _Markup()
    parser.feed(text)
    parser.close()
    return parser.found, PLACEHOLDERS.findall(text)


def test_there_are_messages_with_markup_in_the_serbian_catalogues() -> None:
    holding = [
        entry
        for latin in LATIN_CATALOGUES
        for entry in polib.pofile(str(latin))
        if any(MARKUP.search(text) for text in translated(entry))
    ]
    assert len(holding) > 20
    assert any("<a " in text for entry in holding for text in translated(entry))


def translated(entry: polib.POEntry) -> list[str]:
    if entry.msgid_plural:
        return [entry.msgstr_plural[index] for index in sorted(entry.msgstr_plural)]
    return [entry.msgstr]


@pytest.mark.parametrize("latin", LATIN_CATALOGUES, ids=lambda path: str(path.relative_to(ROOT)))
def test_cyrillic_messages_keep_the_tags_attributes_and_placeholders_of_the_latin(
    latin: Path,
) -> None:
    cyrillic = {
        (entry.msgctxt, entry.msgid): translated(entry)
        for entry in polib.pofile(str(latin.parents[2] / "sr_Cyrl" / "LC_MESSAGES" / latin.name))
    }
    for entry in polib.pofile(str(latin)):
        if entry.obsolete or not entry.msgid:
            continue
        for latin_text, cyrillic_text in zip(
            translated(entry), cyrillic[(entry.msgctxt, entry.msgid)], strict=True
        ):
            if MARKUP.search(latin_text):
                assert markup_of(cyrillic_text) == markup_of(latin_text), (
                    f"{entry.msgid!r}: {cyrillic_text!r}"
                )


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


# Words a Serbian text shares with its English source that are Serbian words too, or
# names: written in Cyrillic like any other ("линк", "бот", "Реми", "Горан").
ALSO_SERBIAN = frozenset(
    {
        "as", "avatar", "bot", "emil", "filter", "goran", "hand", "interval", "katarina", "link",
        "me", "minimum", "moderator", "no", "program", "remi", "remik", "rita", "server",
        "status", "to", "token",
    }
)  # fmt: skip


def test_an_english_word_kept_in_the_serbian_text_stays_latin_in_cyrillic() -> None:
    """A word copied from the English into the Serbian Latin text (a field a program
    sends, a technology's name) must be one the transliteration keeps: written in
    Cyrillic letters it turns into nonsense ("subscribe" -> "субсцрибе", "https://" ->
    "хттпс://", "Push" -> "Пусх")."""
    found = set()
    for path in LATIN_CATALOGUES:
        for entry in polib.pofile(str(path)):
            if entry.obsolete:
                continue
            english = set(re.findall(r"[A-Za-z]{2,}", entry.msgid + " " + entry.msgid_plural))
            for text in [entry.msgstr, *entry.msgstr_plural.values()]:
                for word in re.findall(r"[A-Za-z]{2,}", sr.KEPT.sub(" ", text)):
                    if word in english and word.lower() not in ALSO_SERBIAN:
                        found.add(f"{word}: {entry.msgid[:60]}")
    assert not found, "\n".join(sorted(found))


CYRILLIC_CATALOGUES = sorted(
    path
    for base in (ROOT / "locale", ROOT / "games" / "locale", ROOT / "accounts" / "locale")
    for language in ("mk", "sr_Cyrl")
    for path in base.glob(f"{language}/LC_MESSAGES/*.po")
)


def test_a_cyrillic_text_holds_no_latin_word_but_what_a_program_reads() -> None:
    """Macedonian and Serbian Cyrillic texts are in Cyrillic throughout ("Ремик 51",
    "известувања на прелистувачот", not "Remik 51", "push-известувања"); only what the
    transliteration keeps Latin (placeholders, markup, addresses, acronyms, the API's
    words, card codes) may stay."""
    found = sorted(
        f"{path.relative_to(ROOT)}: {word} in {entry.msgid[:50]}"
        for path in CYRILLIC_CATALOGUES
        for entry in polib.pofile(str(path))
        if not entry.obsolete
        for text in [entry.msgstr, *entry.msgstr_plural.values()]
        for word in re.findall(r"[A-Za-z]{2,}", sr.KEPT.sub(" ", text))
    )
    assert not found, "\n".join(found)
