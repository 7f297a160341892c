"""Lists a person reads, in alphabetical order: the Unicode collation algorithm's
(pyuca, its default table).

Code point order puts the Cyrillic "Ј" (U+0408) before "А" and the Polish "Ł" after
"Z"; the algorithm puts "Ј" after "И" and "Ł" among the "L"s, and accented letters
with their base letter. It knows no language's own additions (Polish "Ł" as a letter
after "L", Serbian "Č" after "C", "Lj" and "Nj"), which would take ICU: a reader finds
a name by its first letter either way.
"""

from __future__ import annotations

from functools import cache

import pyuca


@cache
def _collator() -> pyuca.Collator:
    """Built once per process: it reads a table of 2 MB."""
    return pyuca.Collator()


def sort_key(text: str) -> tuple[int, ...]:
    """``text``'s place in the order ("Јапонија" between "Италија" and "Камерун")."""
    return tuple(_collator().sort_key(text.casefold()))
