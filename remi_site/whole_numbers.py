"""A whole number written in an address or a form: ASCII digits, nothing else.

``str.isdigit()`` is true of "²", which ``int()`` refuses (a server error where the two
met), and of "٣", which ``int()`` reads as 3; the site's ids are written 0-9.
tests/seams/test_hostile_pages.py sends both to every page.
"""

from __future__ import annotations


def whole_number(text: object) -> int | None:
    """``text`` as a whole number if it is one written in ASCII digits, else None."""
    if isinstance(text, str) and text.isascii() and text.isdigit():
        return int(text)
    return None
