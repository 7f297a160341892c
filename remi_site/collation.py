"""Lists a person reads, in alphabetical order: the Unicode collation algorithm's
(pyuca, its default table).

Code point order puts the Cyrillic "Ј" (U+0408) before "А" and the Polish "Ł" after
"Z"; the algorithm puts "Ј" after "И" and "Ł" among the "L"s, and accented letters
with their base letter. It knows no language's own additions (Polish "Ł" as a letter
after "L", Serbian "Č" after "C", "Lj" and "Nj"), which would take ICU: a reader finds
a name by its first letter either way.

The algorithm's table takes 13 MB and 0.2 s to load, so it is not kept: the lists
sorted with it are few (the countries and the time zones, once per language) and each
is kept sorted by its caller.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

import pyuca

Item = TypeVar("Item")


def in_order(items: Iterable[Item], text: Callable[[Item], str]) -> list[Item]:
    """``items`` sorted by ``text`` of each, as a reader looks for it ("Италија",
    "Јапонија", "Камерун")."""
    collator = pyuca.Collator()
    return sorted(items, key=lambda item: tuple(collator.sort_key(text(item).casefold())))
