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
    r"|<code>.*?</code>"  # what a program sends, shown as code
    r"|<[^>]*>"  # HTML tags
    r"|&#?\w+;"  # HTML entities
    r"|https?://\S*"
    r"|…/\S+"  # the end of an address, as a person pastes it
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
    # the websocket's and the API's own words, which a program sends as they are
    r"|\b(?:subscribe|unsubscribe|game|ply|null|chat|text|type|reason|report|id|base64url)\b"
    r"|\b[A-Z][a-z]+/[A-Z][a-z]+\b"  # time zone names (Europe/Belgrade)
    r"|\bmy-bot\b"
    # a country code as it is typed, and the standard that defines it
    r"|\bISO 3166-1(?: alpha-2)?\b|\bRS\b"
)
DIGRAPH = re.compile("|".join(sorted(DIGRAPHS, key=len, reverse=True)))


def to_cyrillic(text: str) -> str:
    """Transliterate ``text``, leaving placeholders, markup and acronyms alone."""
    return "".join(_transliterate_lines([text]))


def _kept_mask(text: str) -> list[bool]:
    """For each character of ``text``, whether it belongs to something kept as it is."""
    mask = [False] * len(text)
    for kept in KEPT.finditer(text):
        mask[kept.start() : kept.end()] = [True] * (kept.end() - kept.start())
    return mask


def _transliterate_lines(parts: list[str]) -> list[str]:
    """Each of ``parts`` (one message's lines, in order) transliterated.

    The parts are read as one text: a catalogue wraps a long message between words, so a
    tag (``<a`` / ``href="...">``) or a placeholder may begin on one line and end on the
    next, and only the whole message shows what is markup.
    """
    whole = "".join(parts)
    mask = _kept_mask(whole)
    out: list[str] = []
    start = 0
    for part in parts:
        end = start + len(part)
        if not part:
            out.append(part)
            continue
        pieces: list[str] = []
        run_start = start
        for index in range(start, end + 1):
            if index == end or mask[index] != mask[run_start]:
                run = whole[run_start:index]
                pieces.append(run if mask[run_start] else _letters(run))
                run_start = index
        out.append("".join(pieces))
        start = end
    return out


def _letters(text: str) -> str:
    text = DIGRAPH.sub(lambda match: DIGRAPHS[match.group()], text)
    return "".join(LETTERS.get(char, char) for char in text)


STRING_LINE = re.compile(r'^(msgstr(?:\[\d+\])?\s+|)"(.*)"$')


def convert(lines: list[str]) -> list[str]:
    """The catalogue's lines with every translation (not the header) in Cyrillic."""
    out: list[str] = []
    message: list[tuple[str, str]] = []  # the current translation's lines: (prefix, text)

    def flush() -> None:
        texts = _transliterate_lines([text for _, text in message])
        out.extend(f'{prefix}"{text}"\n' for (prefix, _), text in zip(message, texts, strict=True))
        message.clear()

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
            flush()  # a plural form's translation ends where the next one starts
            in_msgstr = True
        elif not stripped.startswith('"'):
            in_msgstr = False
        if not in_msgstr or in_header:
            flush()
            if in_msgstr:
                stripped = stripped.replace("Language: sr_Latn", "Language: sr_Cyrl")
            out.append(stripped + "\n")
            continue
        match = STRING_LINE.match(stripped)
        if match is None:
            raise ValueError(f"unexpected msgstr line: {stripped!r}")
        message.append((match.group(1), match.group(2)))
    flush()
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
