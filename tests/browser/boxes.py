"""Where elements are on a page that draws itself again: the table redraws on each event
(a move, presence, a clock), so an element found in one call to the browser and measured
in the next may have been replaced in between and have no box. Each element here is
found and measured in one turn of the page's script."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

Box = dict[str, float]

# The box of every element matching a selector, in document order; null for one that
# is not shown (no size, or hidden).
_BOXES = """(selector) => [...document.querySelectorAll(selector)].map((element) => {
  const box = element.getBoundingClientRect();
  if (!box.width || !box.height || getComputedStyle(element).visibility === "hidden") return null;
  return { x: box.x, y: box.y, width: box.width, height: box.height };
})"""

# The first matching element's box once it is shown (null until then).
_FIRST_SHOWN = f"(selector) => ({_BOXES})(selector)[0] || null"


def boxes(page: Page, selector: str) -> list[Box | None]:
    """The boxes of the elements ``selector`` matches now (None: not shown)."""
    found: list[Box | None] = page.evaluate(_BOXES, selector)
    return found


def shown_boxes(page: Page, selector: str) -> list[Box]:
    """The boxes of the elements ``selector`` matches now, each of which must be shown."""
    found = boxes(page, selector)
    assert found and all(box is not None for box in found), f"{selector}: {found}"
    return [box for box in found if box is not None]


def first_box(page: Page, selector: str, **wait: Any) -> Box:
    """The box of the first element ``selector`` matches, once it is shown (waits with
    the page's default timeout, or ``wait``'s ``timeout``)."""
    box: Box = page.wait_for_function(_FIRST_SHOWN, arg=selector, **wait).json_value()
    return box
