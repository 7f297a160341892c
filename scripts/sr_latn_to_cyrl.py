"""Write the Serbian Cyrillic catalogue from the Serbian Latin one.

Serbian's two scripts map letter for letter (lj, nj and dž are single letters), so the
Cyrillic catalogue is generated rather than translated twice:

    python scripts/sr_latn_to_cyrl.py locale/sr_Latn/LC_MESSAGES/django.po \
        locale/sr_Cyrl/LC_MESSAGES/django.po

Only the translations change; msgids, comments and flags are copied. Placeholders
(``%(name)s``, ``{name}``), HTML tags and entities, URLs and a few acronyms are kept as
they are.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

DIGRAPHS = {
    "LJ": "Љ",
    "Lj": "Љ",
    "lj": "љ",
    "NJ": "Њ",
    "Nj": "Њ",
    "nj": "њ",
    "DŽ": "Џ",
    "Dž": "Џ",
    "dž": "џ",
}
LETTERS = dict(
    zip(
        "abcčćdđefghijklmnoprsštuvzž",
        "абцчћдђефгхијклмнопрсштувзж",
        strict=True,
    )
)
LETTERS.update({latin.upper(): cyrillic.upper() for latin, cyrillic in LETTERS.items()})

KEPT = re.compile(
    r"%\([^)]*\)[-+ #0-9.]*[sdif]"  # named printf placeholders, flags included
    r"|%[sdif%]"
    r"|\{[^}]*\}"  # str.format / template placeholders
    r"|<[^>]*>"  # HTML tags
    r"|&#?\w+;"  # HTML entities
    r"|https?://\S+"
    r"|\\[nt\"\\]"  # escapes inside a .po string
    r"|\b(?:API|JSON|CSV|ICS|URL|HTTP|HTTPS|ID|BOT|OK|JK|UTC|Remi online|Web Push|VAPID)\b"
    # what a person types or reads on their keyboard: key names, card codes (7H, AS)
    r"|\b(?:Enter|Space|Esc|Tab|Shift|Home|End)\b"
    r"|\b(?:10|[2-9AJQK])[SHDC]\b"
    # names of technologies and of an HTTP header
    r"|\b(?:JavaScript|OpenAPI|AsyncAPI|REST|websocket|Authorization|Bearer)\b"
    r"|\b[A-Za-z]+(?:_[A-Za-z0-9]+)+\b"  # field names of the API (seconds_per_turn)
    r"|\b[0-9]+[A-Z]\b|\b(?:AS|NUL|IANA)\b"  # card codes and acronyms (10H, AS, NUL)
    r"|\b(?:Idempotency-Key|Authorization|Bearer|true|false|rated|username|message)\b"
    r"|\b[A-Z][a-z]+/[A-Z][a-z]+\b"  # time zone names (Europe/Belgrade)
    r"|\bmy-bot\b"
    # a country code as it is typed, and the standard that defines it
    r"|\bISO 3166-1 alpha-2\b|\bRS\b"
)
DIGRAPH = re.compile("|".join(sorted(DIGRAPHS, key=len, reverse=True)))


def to_cyrillic(text: str) -> str:
    """Transliterate ``text``, leaving placeholders, markup and acronyms alone."""
    pieces: list[str] = []
    position = 0
    for kept in KEPT.finditer(text):
        pieces.append(_letters(text[position : kept.start()]))
        pieces.append(kept.group())
        position = kept.end()
    pieces.append(_letters(text[position:]))
    return "".join(pieces)


def _letters(text: str) -> str:
    text = DIGRAPH.sub(lambda match: DIGRAPHS[match.group()], text)
    return "".join(LETTERS.get(char, char) for char in text)


STRING_LINE = re.compile(r'^(msgstr(?:\[\d+\])?\s+|)"(.*)"$')


def convert(lines: list[str]) -> list[str]:
    """The catalogue's lines with every translation (not the header) in Cyrillic."""
    out: list[str] = []
    in_msgstr = False
    in_header = False
    entries = 0
    for line in lines:
        stripped = line.rstrip("\n")
        if stripped.startswith("msgid "):
            in_msgstr = False
            # Only the first entry is the header: a long msgid also starts with "".
            in_header = entries == 0 and stripped == 'msgid ""'
            entries += 1
        elif stripped.startswith("msgstr"):
            in_msgstr = True
        elif not stripped.startswith('"'):
            in_msgstr = False
        if in_msgstr and not in_header:
            match = STRING_LINE.match(stripped)
            if match:
                stripped = f'{match.group(1)}"{to_cyrillic(match.group(2))}"'
        elif in_msgstr and in_header:
            stripped = stripped.replace("Language: sr_Latn", "Language: sr_Cyrl")
        if in_msgstr and stripped.startswith("msgstr") and not STRING_LINE.match(stripped):
            raise ValueError(f"unexpected msgstr line: {stripped!r}")
        out.append(stripped + "\n")
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print("usage: sr_latn_to_cyrl.py SOURCE.po TARGET.po", file=sys.stderr)
        return 2
    source, target = Path(argv[1]), Path(argv[2])
    if not source.is_file():
        print(f"no such catalogue: {source}", file=sys.stderr)
        return 2
    lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("".join(convert(lines)), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
