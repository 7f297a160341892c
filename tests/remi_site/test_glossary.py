"""The catalogues use the players' own words for the game (docs/translations.md, taken
from the seeds written by players): every translation of a text that names a glossary
term uses the glossary's word for it, in every catalogue of the language."""

from __future__ import annotations

import re
from pathlib import Path

import polib  # type: ignore[import-untyped]
import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
LOCALE_DIRS = [ROOT / "locale", ROOT / "games" / "locale", ROOT / "accounts" / "locale"]

# English uses that are not the game's term ("time runs out", "set the password",
# "rule sets", "before you meld": the verb).
NOT_THE_TERM = re.compile(
    r"runs? out|ran out|rule ?sets?|\bset (the|your|them|it|a)\b|\bis set\b|Set the|"
    r"\bsets? up\b|you meld|cannot meld|to meld\b|\bmeld,|time runs|turn runs|Set to|"
    r"\bset(ting)? (a )?password"
    r"|%\(\w+\)[sd]",  # a placeholder's name is not a word of the text
    re.I,
)

# language -> term -> (where the English text names it, what its translation must say)
GLOSSARY: dict[str, dict[str, tuple[str, str]]] = {
    "pl": {
        "run": (r"\bruns?\b", r"sekwens"),
        "set": (r"\bsets?\b", r"komple(t|c)"),
        "stock": (r"\bstock\b", r"stos\w* zakryt"),
        "discard pile": (r"\bdiscard pile\b", r"stos\w* odkryt"),
        "joker": (r"\bjokers?\b", r"joker"),
        "meld": (r"\bmelds?\b", r"układ"),
    },
    "sr_Latn": {
        "joker": (r"\bjokers?\b", r"džoker"),
        "run": (r"\bruns?\b", r"\bniz"),
        "opening": (r"\bopen(ing|ed|s)?\b", r"otv"),
        "set": (r"\bsets?\b", r"grup"),
        "meld": (r"\bmelds?\b", r"kombinacij"),
        "stock": (r"\bstock\b", r"gomil\w* za vučenje"),
        "discard pile": (r"\bdiscard pile\b", r"gomil\w* za odbacivanje"),
    },
    "sr_Cyrl": {
        "joker": (r"\bjokers?\b", r"џокер"),
        "run": (r"\bruns?\b", r"\bниз"),
        "opening": (r"\bopen(ing|ed|s)?\b", r"отв"),
        "stock": (r"\bstock\b", r"гомил\w* за вучење"),
        "discard pile": (r"\bdiscard pile\b", r"гомил\w* за одбацивање"),
    },
    "mk": {
        "joker": (r"\bjokers?\b", r"џокер"),
        "meld": (r"\bmelds?\b", r"терцет"),
        "opening": (r"\bopen(ing|ed|s)?\b", r"отв[оа]р"),
        "run": (r"\bruns?\b", r"\bниз"),
        "set": (r"\bsets?\b", r"груп"),
        "stock": (r"\bstock\b", r"шпил"),
        "discard pile": (r"\bdiscard pile\b", r"куп\w* исфрлени"),
    },
}

# A card's rank by the seed's names (the Macedonian seed: ас, жандар, дама, крал).
RANKS = {"mk": {"ace": "ас", "jack": "жандар", "queen": "дама", "king": "крал"}}


def catalogues(language: str) -> list[Path]:
    return [po for base in LOCALE_DIRS for po in base.glob(f"{language}/LC_MESSAGES/*.po")]


def texts(entry: polib.POEntry) -> list[str]:
    if entry.msgid_plural:
        return [entry.msgstr_plural[index] for index in sorted(entry.msgstr_plural)]
    return [entry.msgstr]


def test_the_glossary_is_written_down_for_each_language() -> None:
    document = (ROOT / "docs" / "translations.md").read_text(encoding="utf-8")
    for word in ("sekwens", "komplet", "stos zakryty", "stos odkryty", "džoker", "niz"):
        assert word in document
    for word in ("otvaranje", "џокер", "терцет"):
        assert word in document


@pytest.mark.parametrize(
    ("language", "term"),
    [(language, term) for language, terms in GLOSSARY.items() for term in terms],
)
def test_every_translation_of_a_glossary_term_uses_the_glossary_word(
    language: str, term: str
) -> None:
    english, native = GLOSSARY[language][term]
    found = 0
    wrong = []
    for path in catalogues(language):
        for entry in polib.pofile(str(path)):
            source = f"{entry.msgid} {entry.msgid_plural or ''}"
            if entry.obsolete or not re.search(english, NOT_THE_TERM.sub("", source), re.I):
                continue
            if entry.msgctxt in {"suit", "rank"}:
                continue
            found += 1
            wrong += [
                (entry.msgid[:70], text[:90])
                for text in texts(entry)
                if text and not re.search(native, text, re.I)
            ]
    assert found, f"no {language} text names {term!r}"
    assert not wrong, f"{language} {term!r} is not {native!r} in: {wrong}"


@pytest.mark.parametrize("language", list(RANKS))
def test_the_ranks_are_named_as_the_players_name_them(language: str) -> None:
    names = {
        entry.msgid: entry.msgstr
        for path in catalogues(language)
        for entry in polib.pofile(str(path))
        if entry.msgctxt == "rank"
    }
    assert names == RANKS[language]
