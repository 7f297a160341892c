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

# The game: a particular match, a player's games, a game's id, result or end, is
# "partija" / "партија" in the seeds ("da se nastavi partija bez tog igrača", "rešava
# partiju", "ја завршувате партијата"), and "igra" / "игра" is the game as a kind of
# thing and the playing ("Remi je kartaška igra", "pravila igre", "Ispadanje iz igre").
# Polish has one word for both, "gra" ("kończy grę"): its seed also says "partia" for
# the match, and the catalogues now keep to one of the two. English uses of "game" and
# "match" that are not a match:
NOT_A_MATCH = re.compile(
    r"\bcard games?\b"  # the kind: "Remi je kartaška igra"
    r"|\bgame(['’]s)? rules\b"  # the kind's rules: "pravila igre", "правилата на играта"
    r"|\bout of the game\b"  # dropping out of the play: "Ispadanje iz igre"
    r"|/games/"  # an address, kept as it is
    r"|\bgame \(string\)"  # the API's field, kept as it is: "subscribe needs game (string)"
    r"|\bmatch these\b|\bdidn.t match\b",  # the verb: "No games match these filters"
    re.I,
)
GAME = r"\bgames?\b|\bmatch\b"

# Going out: getting rid of the last card, which the seeds call closing ("доколку
# затвори со џокер", "obicno zatvarnje -40") or "wyjście" ("gdy gracz wychodzi"). The
# score sheet's English says "closed" for it; "close" is otherwise a dialog, a report
# or an account closing, and "out" a seat or a time running out, so only these name it.
GOING_OUT = r"\b(go(es|ing)?|went|gone) out\b|\bclosed with\b|\bnormal close\b|^closed\s*$"
# A going out in one go is a hand, the seeds' own word for it ("хандира", "zatvorio
# (handirao)", "Remika - gdy gracz wykłada wszystkie karty w jednym ruchu").
GOING_OUT_CYRILLIC = r"затв[оа]р|\bханд"
GOING_OUT_LATIN = r"zatv[oa]r|\bhand"

# A point of a score: "поени" ("добива -40 поени"), "poen" ("ide -40 poena"), "punkt"
# ("25 punktów", "pkt" where a number stands before it). The scoring stays "бодување" /
# "bodovanje" / "punktacja" ("Scoring" is not matched). In Macedonian and Serbian a
# score, the sum of points, is "поени" / "poeni" as well ("Лист со поени"); Polish says
# "wynik" for it ("Tabela wyników"), so there only "point" names the term.
POINT = r"\bpoints?\b|\bpt\b"
POINT_OR_SCORE = POINT + r"|\bscores?\b"
NOT_A_POINT = re.compile(
    r"\b(out|once|opened|nobody|hand) scores\b"  # the verb: "going out scores -40"
    r"|\buncompressed point\b",  # a public key's point on its curve
    re.I,
)

# The players' chat: the seeds are silent, so it is the word of the site's chat panel and
# the table's scripts: "ćaskanje" in Serbian (where "čet" is a loan), "разговор" in
# Macedonian, "czat" in Polish; the verb "to chat" inflects the same stem.
NOT_A_CHAT = re.compile(r"\bchat needs\b", re.I)  # the API's message type, kept as it is

# A hand: going out with every card in one turn, which the seeds call "hand" ("hand
# miksovani -140", "suvi hand", "zatvorio (handirao)"), "хандирање" ("Хандирање се
# нарекува победата на играчот кога одеднаш ќе ги исфрли сите групи") and "remik"
# ("Remika - gdy gracz wykłada wszystkie karty w jednym ruchu"). English also says
# "hand" for the cards a player holds, which stays "ruka" / "рака" / "ręka": "your hand",
# "the hand", "every hand (of the deal)", "in hand", "Hand tools", "Back to hand", "her
# hand". So only these name the going out: "a hand", a mixed, dry or whole hand, the
# stats' "Hands" column and its "deals won in one go", and the Polish family's "a remik".
HAND = (
    r"\ba (<em>)?hand\b|\b(mixed|dry|whole) hand\b|^Hands\s*$|\bwon in one go\b"
    r"|\ba remik\b"
)
HAND_LATIN = r"\bhand"  # hand, handa, handom, handovi; handirati, handirao
HAND_CYRILLIC = r"\bханд"  # хандирање, хандира; hand, handirao transliterated
# "remik" is also the game's name in Polish ("Remik 51", "remiku serbskim", "starego
# remika"): a name of a family is not the hand.
HAND_POLISH = r"\bremik(?!\w*\s+(5[12]|serbsk|macedo|polsk))(?<!starego remik)"

# term -> English uses that name something else, beside NOT_THE_TERM's
EXCEPTIONS = {"game": NOT_A_MATCH, "point": NOT_A_POINT, "chat": NOT_A_CHAT}

# language -> term -> (where the English text names it, what its translation must say)
GLOSSARY: dict[str, dict[str, tuple[str, str]]] = {
    "pl": {
        "run": (r"\bruns?\b", r"sekwens"),
        "set": (r"\bsets?\b", r"komple(t|c)"),
        "stock": (r"\bstock\b", r"stos\w* zakryt"),
        "discard pile": (r"\bdiscard pile\b", r"stos\w* odkryt"),
        "joker": (r"\bjokers?\b", r"joker"),
        "meld": (r"\bmelds?\b", r"układ"),
        "game": (GAME, r"\bgr(a|y|ze|ę|ą|om|ami|ach)\b|\bgier\b"),
        # wyjście, wyjść, wyjdzie, wychodzi, wyszedł; a hand is "remik"
        "going out": (GOING_OUT, r"\bwy(jś|jd|ch|sz)|remik"),
        "point": (POINT, r"punkt|\bpkt\b"),
        "chat": (r"\bchat\b", r"\bcza(t|cie)"),  # czat, na czacie
        "hand": (HAND, HAND_POLISH),
    },
    "sr_Latn": {
        "joker": (r"\bjokers?\b", r"džoker"),
        "run": (r"\bruns?\b", r"\bniz"),
        "opening": (r"\bopen(ing|ed|s)?\b", r"otv"),
        "set": (r"\bsets?\b", r"grup"),
        "meld": (r"\bmelds?\b", r"kombinacij"),
        "stock": (r"\bstock\b", r"gomil\w* za vučenje"),
        "discard pile": (r"\bdiscard pile\b", r"gomil\w* za odbacivanje"),
        "game": (GAME, r"\bpartij"),
        "going out": (GOING_OUT, GOING_OUT_LATIN),
        "point": (POINT_OR_SCORE, r"poen"),
        "chat": (r"\bchat\b", r"ćask"),
        "hand": (HAND, HAND_LATIN),
    },
    "sr_Cyrl": {
        "joker": (r"\bjokers?\b", r"џокер"),
        "run": (r"\bruns?\b", r"\bниз"),
        "opening": (r"\bopen(ing|ed|s)?\b", r"отв"),
        "stock": (r"\bstock\b", r"гомил\w* за вучење"),
        "discard pile": (r"\bdiscard pile\b", r"гомил\w* за одбацивање"),
        "game": (GAME, r"\bпартиј"),
        "going out": (GOING_OUT, GOING_OUT_CYRILLIC),
        "point": (POINT_OR_SCORE, r"поен"),
        "chat": (r"\bchat\b", r"ћаск"),
        "hand": (HAND, HAND_CYRILLIC),
    },
    "mk": {
        "joker": (r"\bjokers?\b", r"џокер"),
        "meld": (r"\bmelds?\b", r"терцет"),
        "opening": (r"\bopen(ing|ed|s)?\b", r"отв[оа]р"),
        "run": (r"\bruns?\b", r"\bниз"),
        "set": (r"\bsets?\b", r"груп"),
        "stock": (r"\bstock\b", r"шпил"),
        "discard pile": (r"\bdiscard pile\b", r"куп\w* исфрлени"),
        "game": (GAME, r"\bпарти[јие]"),  # партија, партијата, партии, партиите
        "going out": (GOING_OUT, GOING_OUT_CYRILLIC),
        "point": (POINT_OR_SCORE, r"поен"),
        "chat": (r"\bchat\b", r"разгов[оа]р"),  # разговор, разговараат
        "hand": (HAND, HAND_CYRILLIC),
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
    for word in ("otvaranje", "џокер", "терцет", "partija", "партија", "kończy grę"):
        assert word in document
    for word in ("ćaskanje", "разговор", "czat"):
        assert word in document
    for word in ("zatvaranje", "затворање", "wyjście"):
        assert word in document
    for word in ("poen", "поен", "punkt"):
        assert word in document
    for word in ("miksovani hand", "хандирање", "mieszany remik"):
        assert word in document


@pytest.mark.parametrize(
    ("language", "term"),
    [(language, term) for language, terms in GLOSSARY.items() for term in terms],
)
def test_every_translation_of_a_glossary_term_uses_the_glossary_word(
    language: str, term: str
) -> None:
    english, native = GLOSSARY[language][term]
    exceptions = EXCEPTIONS.get(term)
    found = 0
    wrong = []
    for path in catalogues(language):
        for entry in polib.pofile(str(path)):
            source = NOT_THE_TERM.sub("", f"{entry.msgid} {entry.msgid_plural or ''}")
            if exceptions:
                source = exceptions.sub("", source)
            if entry.obsolete or not re.search(english, source, re.I):
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


@pytest.mark.parametrize("language", list(GLOSSARY))
def test_the_cards_a_player_holds_are_not_called_a_hand(language: str) -> None:
    """The other way round: a text about the cards in a hand ("your hand", "points left
    in hand") keeps "ruka" / "рака" / "ręka", not the word for going out in one go."""
    _english, native = GLOSSARY[language]["hand"]
    checked = 0
    wrong = []
    for path in catalogues(language):
        for entry in polib.pofile(str(path)):
            source = f"{entry.msgid} {entry.msgid_plural or ''}"
            if entry.obsolete or not re.search(r"\bhands?\b", source, re.I):
                continue
            if re.search(HAND, source, re.I):
                continue
            checked += 1
            wrong += [
                (entry.msgid[:70], text[:90])
                for text in texts(entry)
                if re.search(native, text, re.I)
            ]
    assert checked, f"no {language} text names the cards in a hand"
    assert not wrong, f"{language} calls the cards in a hand {native!r} in: {wrong}"
