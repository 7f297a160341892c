"""English left on a translated page: every English text the catalogues translate (the
site's, the scripts' and the apps' msgids, placeholders matching any value), looked for
in what a person sees or hears in the page: its visible text, the aria-labels, titles
and placeholders."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import polib
from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parents[2]
# The folder of each language's catalogues under locale/ (Django's locale names).
CATALOGUE_LANGUAGE = {"mk": "mk", "sr-cyrl": "sr_Cyrl", "sr-latn": "sr_Latn", "pl": "pl"}
PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sdif]|%[sdif]|\{[a-z_]*\}")
# A msgid is only looked for when it says something in words: "%(name)s (%(n)s)" does not.
WORDS = re.compile(r"[A-Za-z]{2,}")

# Every text node, and every small element's whole text (a sentence with a link or a
# <b> in it), and the labels, of what is rendered; the document's title.
PAGE_TEXTS = """() => {
  const shown = (node) => node.checkVisibility({ visibilityProperty: true });
  const squash = (text) => text.replace(/\\s+/g, " ").trim();
  const texts = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest("script, style, noscript, template") || !shown(parent)) continue;
    const text = squash(node.textContent);
    if (text) texts.push(text);
  }
  for (const element of document.body.querySelectorAll("*")) {
    if (!shown(element)) continue;
    for (const name of ["aria-label", "title", "placeholder"]) {
      const value = element.getAttribute(name);
      if (value) texts.push(squash(value));
    }
    if (element.children.length && element.children.length < 12) {
      const text = squash(element.textContent);
      if (text.length < 500) texts.push(text);
    }
  }
  return texts;
}"""


def _plain(text: str) -> str:
    """A msgid or a translation as the page shows it: no tags, entities decoded, the
    whitespace of a multi-line template string squashed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", text)).split())


def _catalogues(folder: str) -> list[Path]:
    found = sorted((ROOT / "locale" / folder / "LC_MESSAGES").glob("*.po"))
    for app in ("games", "accounts"):
        found += sorted((ROOT / app / "locale" / folder / "LC_MESSAGES").glob("*.po"))
    return found


@dataclass(frozen=True)
class EnglishTexts:
    """The English texts that ``language`` translates: plain ones to compare whole, and
    those with placeholders as one pattern."""

    exact: frozenset[str]
    pattern: re.Pattern[str] | None

    def find(self, texts: list[str], ignore: frozenset[str] = frozenset()) -> list[str]:
        """The texts (or their " · "-separated parts) that are English the catalogues
        translate, in the order found, each once."""
        found: dict[str, None] = {}
        for text in texts:
            for part in {text, *text.split(" · ")}:
                part = part.strip()
                if not part or part in ignore:
                    continue
                if part in self.exact or (self.pattern and self.pattern.fullmatch(part)):
                    found[part] = None
        return list(found)


@cache
def english_texts(language: str) -> EnglishTexts:
    exact: set[str] = set()
    patterns: set[str] = set()
    for path in _catalogues(CATALOGUE_LANGUAGE[language]):
        for entry in polib.pofile(str(path)).translated_entries():
            translations = {_plain(text) for text in [entry.msgstr, *entry.msgstr_plural.values()]}
            for msgid in filter(None, (entry.msgid, entry.msgid_plural)):
                english = _plain(msgid)
                # Said the same in both languages (a name, a symbol): not English left.
                if english in translations or not WORDS.search(PLACEHOLDER.sub("", english)):
                    continue
                if PLACEHOLDER.search(english):
                    pieces = PLACEHOLDER.split(english)
                    patterns.add("(?:.+?)".join(re.escape(piece) for piece in pieces))
                else:
                    exact.add(english)
    pattern = re.compile("|".join(sorted(patterns))) if patterns else None
    return EnglishTexts(frozenset(exact), pattern)


def english_in_page(page: Page, language: str, ignore: frozenset[str] = frozenset()) -> list[str]:
    """What the page shows now in English although ``language`` translates it."""
    return english_texts(language).find(page.evaluate(PAGE_TEXTS), ignore)
