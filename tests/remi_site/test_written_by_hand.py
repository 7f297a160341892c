"""What the catalogues, the scripts, the templates and the code must never write by
hand: dates, units of time, plurals, numbers, lists, shares and a service's refusal on a
page. Each check reads every file of its kind, so it finds the whole class, not one
instance; CLDR (remi_site.formats, i18n.js) writes each of them instead."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import polib  # type: ignore[import-untyped]
from django.conf import settings

ROOT = Path(settings.BASE_DIR)


def test_no_date_is_formatted_by_hand() -> None:
    """Templates format through ``{% load formats %}`` (a machine's ISO date aside) and
    the code through remi_site.formats: no hand-written format is left to drift."""
    hand_made = re.compile(r"\|date:(?!['\"]c['\"])|\|time:|\|timesince|\|timeuntil|naturaltime")
    templates = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "templates").rglob("*.*")
        if hand_made.search(path.read_text(encoding="utf-8"))
    ]
    assert not templates
    by_hand = re.compile(r"strftime|date_format\(|timesince|timeuntil|%Y-%m-%d")
    code = [
        str(path.relative_to(ROOT))
        for package in ("games", "accounts", "remi_site")
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
        and "engine" not in path.parts
        # The formats themselves: the server's, and CLDR's patterns the scripts get.
        and path.name not in {"formats.py", "script_cldr.py"}
        and by_hand.search(path.read_text(encoding="utf-8"))
    ]
    assert not code


# Where a page puts a message for people: a form's own errors and Django's messages.
PAGE_MESSAGE_CALLS = frozenset({"add_error", "error", "warning", "info", "success"})


def test_a_page_shows_a_services_refusal_as_a_sentence() -> None:
    """The services word refusals for the API, in lower case and without a stop ("you
    are not on vacation"); a page says them as sentences through ``formats.sentence``.
    No view, admin or form hands a refusal's bare ``.message`` to the page."""
    bare = []
    for package in ("games", "accounts", "remi_site"):
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts or "engine" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr in PAGE_MESSAGE_CALLS
                    # A log line is for operators, in English as it came.
                    and not (
                        isinstance(node.func.value, ast.Name) and node.func.value.id == "logger"
                    )
                ):
                    continue
                if any(isinstance(a, ast.Attribute) and a.attr == "message" for a in node.args):
                    bare.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not bare


def our_catalogues() -> list[Path]:
    """The site's own catalogues: not those of the packages in a virtualenv kept beside
    the code (.venv, .venv-runtime)."""
    return [
        path
        for path in ROOT.glob("**/locale/*/LC_MESSAGES/*.po")
        if not any(part.startswith(".venv") for part in path.relative_to(ROOT).parts)
    ]


def written_by_hand(pattern: re.Pattern[str]) -> list[str]:
    """Every catalogue text and every script line in which ``pattern`` is found."""
    texts = [
        f"{path.relative_to(ROOT)}: {entry.msgid}"
        for path in our_catalogues()
        for entry in polib.pofile(str(path))
        if not entry.obsolete and pattern.search(entry.msgid)
    ]
    return texts + [
        f"{path.relative_to(ROOT)}: {line.strip()}"
        for path in (ROOT / "static" / "js").rglob("*.js")
        for line in path.read_text(encoding="utf-8").splitlines()
        if pattern.search(line)
    ]


# "%(seconds)s s", "%(days)sd %(hours)sh", "30 s", "2 min": a unit of time written by
# hand, not by CLDR.
UNIT_BY_HAND = re.compile(
    r"%\(\w+\)[sd] ?(s|sec|min|h|d|m|ms)\b|\$\{\w+\} ?(s|min|h|d)\b|^\d+ ?(s|sec|min|h|d)$"
)


def test_no_unit_of_time_is_written_by_hand() -> None:
    """Seconds, minutes, hours and days come with CLDR's words and abbreviations
    (remi_site.formats on the server, i18n.js's formatUnit and formatSpan in the
    browser), never a number with a letter after it in a catalogue or a script."""
    texts = written_by_hand(UNIT_BY_HAND)
    assert not texts, "\n".join(texts)


# How a script makes a number text by hand, bypassing formatNumber (static/js/i18n.js):
# String(n) where it is read (not a dataset entry, an input's value, an attribute or a
# comparison); a sign put before it; a placeholder of a template literal that reads a
# count, total, score, stake, balance or rating (the API's names for its numbers).
STRING_CALL = re.compile(r"(?<![\w.])String\(")
STRING_NOT_READ = re.compile(
    r"(\.dataset\.\w+|\.(?:value|min|max))\s*=[^;]*?String\("
    r'|setAttribute\("aria-pressed", String\(|setProperty\("--[\w-]+", String\('
    r'|"data-[\w-]+": String\(|[!=]==\s*String\(|String\([^()]*\)\s*[!=]=='
    r'|String\([^()]*\)\.padStart\(2, "0"\)'  # a clock's seconds: "4:05"
)
SIGN_BY_HAND = re.compile(r"`[+−]\$\{|[\"'][+−±][\"']\s*[:+]|\?\s*[\"'][+−±][\"']")
NUMBER_IN_TEMPLATE = re.compile(
    r"\$\{[^{}()]*?\b\w*(?:length|count|total|points|score|stake|pot|balance|rating\w*|chips"
    r"|change|amount|my_turn|deviation)\s*\}"
)
# The face printed on a card: its corner says "10", as the card does, in every language.
NOT_A_QUANTITY = {"static/js/cards.js": "return RANK_LABEL[rank] ?? String(rank);"}


def test_no_number_is_made_text_by_hand_in_a_script() -> None:
    """A number a person reads is written as the page's language writes numbers ("1.234"
    in Macedonian, "1234" and "12 345" in Polish), through i18n.js's formatNumber, which
    interpolate's values and dom.js's el() text go through by themselves. A script never
    makes one text with String(n), a sign of its own or a template literal.

    Static, so it reads forms, not types: a number in a template literal or joined with
    "+" is found only by the names the API gives its numbers."""
    found = []
    for path in sorted((ROOT / "static" / "js").rglob("*.js")):
        name = path.relative_to(ROOT).as_posix()
        if name == "static/js/i18n.js":  # formatNumber itself, and the dates' digits
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            text = line.strip()
            if NOT_A_QUANTITY.get(name) == text:
                continue
            by_hand = STRING_CALL.search(STRING_NOT_READ.sub("", text))
            if by_hand or SIGN_BY_HAND.search(text) or NUMBER_IN_TEMPLATE.search(text):
                found.append(f"{name}:{number}: {text}")
    assert not found, "\n".join(found)


# A number formatted into a catalogue's text with %d is written in Python's digits
# ("16384"), never the language's ("16.384"): the code gives formats.number(n) to a
# %(name)s instead.
DIGITS_BY_HAND = re.compile(r"%(?:\(\w+\))?[+#0-]*\d*d")
# Django's own msgids, which Django formats with %d: its validator's refusal
# (accounts/forms.py) and its delete action's message (remi_site/admin_model_words.py).
DJANGOS_OWN = {
    "This password is too short. It must contain at least %d character.",
    "Successfully deleted %(count)d %(items)s.",
}


def test_no_catalogue_text_takes_a_number_in_python_digits() -> None:
    texts = sorted(
        {
            f"{path.relative_to(ROOT).parts[0]}: {entry.msgid}"
            for path in our_catalogues()
            for entry in polib.pofile(str(path))
            if not entry.obsolete
            and entry.msgid not in DJANGOS_OWN
            and DIGITS_BY_HAND.search(entry.msgid + entry.msgid_plural)
        }
    )
    assert not texts, "\n".join(texts)


# "day(s)", "game(s)": a plural made by hand, where the catalogue's plural forms (and
# Polish's or Serbian's three) belong.
PLURAL_BY_HAND = re.compile(r"[A-Za-z]\((s|es)\)")


def test_no_plural_is_made_by_hand() -> None:
    """A word for a count has its plural forms in the catalogue (ngettext, blocktranslate
    count) or from CLDR, never "day(s)", in a catalogue or a script."""
    texts = written_by_hand(PLURAL_BY_HAND)
    assert not texts, "\n".join(texts)


def test_no_script_joins_a_list_by_hand() -> None:
    """Names and cards in a sentence are joined as the language joins them ("ana, bo
    и cvetko", "ana, bo i cvetko", "ana, bo, and cvetko": i18n.js's formatList, CLDR's
    patterns), never with a comma alone; i18n.js's own fallback (a page without the
    catalogue) is the one exception."""
    found = [
        f"{path.relative_to(ROOT)}: {line.strip()}"
        for path in (ROOT / "static" / "js").rglob("*.js")
        if path.name != "i18n.js"
        for line in path.read_text(encoding="utf-8").splitlines()
        if re.search(r"""\.join\((["']), \1\)""", line)
    ]
    assert not found, "\n".join(found)


def test_no_template_joins_a_list_by_hand() -> None:
    """A list of names (a game's opponents, the sanctions in force) is joined in a
    template by ``{% listed %}``, as the language joins it ("ana, bo и cvetko"), never
    by a ``for`` loop that writes a comma between its items."""
    found = [
        f"{path.relative_to(ROOT)}: {hand[0]}"
        for path in ROOT.glob("**/templates/**/*.html")
        if not any(part.startswith(".venv") for part in path.relative_to(ROOT).parts)
        for hand in re.finditer(r"forloop\.(?:last|first)\s*%\}\s*[,;·]", path.read_text("utf-8"))
    ]
    assert not found, "\n".join(found)


def test_no_template_writes_a_share_or_a_decimal_by_hand() -> None:
    """A share is written by ``|percent`` ("70,3 %" in Polish, "70.3%" in English) and a
    mean by ``|decimal``, never a number with "%" after it in a template or Django's
    ``floatformat`` and ``widthratio`` (Django's separators, not CLDR's, and the sign
    placed by hand)."""
    found = [
        f"{path.relative_to(ROOT)}: {hand[0]}"
        for path in ROOT.glob("**/templates/**/*.html")
        if not any(part.startswith(".venv") for part in path.relative_to(ROOT).parts)
        for hand in re.finditer(
            r"floatformat|widthratio|\}\}\s*%|%\}\s*%(?!\})", path.read_text(encoding="utf-8")
        )
    ]
    assert not found, "\n".join(found)


# The polite plural a translation slips into: "vaša žalba", "Вашата жалба", "Unesite",
# "Внесете", "možete", "nemate", "Dobijate" (docs/translations.md: the site says "ti" to
# everyone). A verb in "-ate" is named: "date", "rate" and "savete" end so too.
FORMAL = {
    "sr_Latn": re.compile(
        r"\b(?:[Vv]aš\w*|[Vv]as|[Vv]ama?|[Vv]i|\w+ajte|\w+[^aeiou]ite|možete"
        r"|(?:[Nn]e)?[Ii]mate|[Nn]emate|[Dd]obijate|[Zz]nate|[Ii]grate|[Bb]irate|hoćete)\b"
    ),
    "mk": re.compile(
        r"(?<!\w)(?:[Вв]аш\w*|[Вв]е|[Вв]ие|[Вв]ас|\w+ајте|можете|\w+(?:ерете|есете|ишете)"
        r"|[Ии]мате|[Нн]емате|[Дд]обивате|[Зз]наете|[Ии]грате|[Сс]акате|[Бб]арате)(?!\w)"
    ),
}


def test_the_catalogues_say_ti_to_the_player() -> None:
    found = [
        f"{path.relative_to(ROOT)}: {text[:70]}"
        for language, formal in FORMAL.items()
        for path in our_catalogues()
        if path.parts[-3] == language
        for entry in polib.pofile(str(path))
        if not entry.obsolete
        for text in [entry.msgstr, *entry.msgstr_plural.values()]
        if formal.search(text)
    ]
    assert not found, "\n".join(found)
