"""What a page's layout must never do, as scripts a browser test evaluates in the page:
scroll sideways without saying so, cut a table off at a phone's edge, clip a label's
text, break one of its words or draw any text too small to read. The screenshots check
every page with them in English, the pseudo-locale walk in its longer words."""

from __future__ import annotations

from playwright.sync_api import Page

# A box that scrolls sideways inside the page cuts what it holds off at its edge, and a
# phone shows no scroll bar: each must fade out on the side with more (its data-more,
# js/scroll-hint.js) and be reachable by keyboard (a focusable region, or a menu's links).
SCROLLED_SIDEWAYS = """() => [...document.querySelectorAll("body *")]
  .filter((node) => node.checkVisibility() && ["auto", "scroll"].includes(
    getComputedStyle(node).overflowX) && node.scrollWidth > node.clientWidth + 1)
  .filter((node) => node.dataset.more !== "right"
    || !(node.tabIndex >= 0 || node.closest("nav")))
  .map((node) => `${node.tagName.toLowerCase()}#${node.id}.${node.className}: `
    + `${node.scrollWidth}px in ${node.clientWidth}px, more: ${node.dataset.more}`)"""


# A table that scrolls sideways at phone width shows a row a piece at a time: there each
# reads as cards (.table-stacked, a cell under its column's heading).
TABLES_CUT_AT_PHONE_WIDTH = """() => [...document.querySelectorAll("table")]
  .filter((table) => table.checkVisibility() && (
    table.parentElement.scrollWidth > table.parentElement.clientWidth + 1
    || table.getBoundingClientRect().right > document.documentElement.clientWidth + 1))
  .map((table) => `table#${table.id}.${table.className}: ${table.scrollWidth}px in `
    + `${table.parentElement.clientWidth}px`)"""


# Buttons, tags and labels whose text is cut off (a longer translation than the space
# made for the English): their text is wider than their box. Not an icon button whose
# words are moved out of sight on purpose (a negative text-indent: the admin's
# "Choose selected groups" arrows), which a screen reader still reads.
CLIPPED = """() => [...document.querySelectorAll(
  "button, .button, .badge, .turn-tag, .pile-label, .seat-label, label, th, h1, h2"
)].filter((node) => node.checkVisibility() && getComputedStyle(node).textOverflow !== "ellipsis"
  && node.clientWidth > 1 && node.scrollWidth > node.clientWidth + 1
  && getComputedStyle(node).overflowX !== "auto"
  && parseFloat(getComputedStyle(node).textIndent) >= 0)
  .map((node) => `${node.tagName.toLowerCase()}#${node.id}.${node.className}: `
    + node.textContent.trim())"""


# Buttons, tags and badges cut off by a box that holds them and hides what overflows
# (a crowded seat's "DEALER" in a longer language): whole in themselves, half out of
# sight. A box that scrolls is SCROLLED_SIDEWAYS's; one whose words are moved out of
# sight on purpose (a negative text-indent) is left alone.
CUT_BY_THEIR_BOX = """() => [...document.querySelectorAll(
  "button, .button, .badge, .turn-tag, .pile-label, .chips-tag"
)].filter((node) => node.checkVisibility() && node.getBoundingClientRect().width > 1
  && parseFloat(getComputedStyle(node).textIndent) >= 0)
  .filter((node) => {
    const box = node.getBoundingClientRect();
    let outer = node.parentElement;
    for (; outer && outer !== document.body; outer = outer.parentElement) {
      const style = getComputedStyle(outer);
      const edge = outer.getBoundingClientRect();
      const across = ["hidden", "clip"].includes(style.overflowX);
      const down = ["hidden", "clip"].includes(style.overflowY);
      if (across && (box.left < edge.left - 1 || box.right > edge.right + 1)) return true;
      if (down && (box.top < edge.top - 1 || box.bottom > edge.bottom + 1)) return true;
    }
    return false;
  })
  .map((node) => `${node.tagName.toLowerCase()}#${node.id}.${node.className}: `
    + node.textContent.trim())"""


# Labels with a word broken across two lines ("DISCA / RD"): a label too narrow for its
# longest word must get smaller or wider, not cut the word. A word's range then has
# line boxes on two lines (a break after a hyphen, "10-J- / Q-K-A", or between the
# pseudo-locale's markers, "⟦Level 4: ⟧ / ⟦Hard⟧", is not a cut).
BROKEN_MID_WORD = """() => {
  const broken = [];
  const labels = document.querySelectorAll(
    "button, .button, .badge, .turn-tag, .pile-label, .seat-label, .discard-empty, label, th");
  for (const node of labels) {
    if (!node.checkVisibility()) continue;
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      for (const word of text.data.matchAll(/[^\\s\\-‐⟦⟧]+/g)) {
        const range = document.createRange();
        range.setStart(text, word.index);
        range.setEnd(text, word.index + word[0].length);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0)
          .map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(`${node.tagName.toLowerCase()}#${node.id}.`
          + `${node.className}: ${word[0]}`);
      }
    }
  }
  return broken;
}"""


# Text too small to read (under 8 px as drawn: a chart's labels shrunk with the chart, a
# word stepped down to fit): each element that shows text of its own, the first few. A
# joker's printed corner ("JOKER" upright down its edge, as on a paper card) is the
# card's face, not its name: the card says that in its label.
TOO_SMALL = """() => [...document.querySelectorAll("body *")]
  .filter((node) => node.checkVisibility() && !node.matches(".corner-joker")
    && [...node.childNodes].some((child) => child.nodeType === 3 && child.data.trim()))
  .map((node) => {
    const size = node instanceof SVGTextElement
      ? parseFloat(getComputedStyle(node).fontSize) * (node.getScreenCTM()?.a || 1)
      : parseFloat(getComputedStyle(node).fontSize);
    return [node, size];
  })
  .filter(([, size]) => size < 8)
  .slice(0, 5)
  .map(([node, size]) => `${node.tagName.toLowerCase()}#${node.id}.`
    + `${node.className?.baseVal ?? node.className}`
    + ` "${node.textContent.trim().slice(0, 30)}" at ${size.toFixed(1)} px`)"""


# A card or panel whose first line starts below its padding: the first child's own top
# margin (a heading's, kept for a heading that follows other content) adds room that
# nothing fills. Boxes laid out in flow only (a flex or grid box may centre its content).
ROOM_ON_TOP = """() => [...document.querySelectorAll(".card, .panel")]
  .filter((box) => box.checkVisibility() && getComputedStyle(box).display === "block")
  .map((box) => {
    const first = [...box.children].find((child) => child.checkVisibility()
      && !["absolute", "fixed"].includes(getComputedStyle(child).position));
    if (!first) return null;
    const style = getComputedStyle(box);
    const top = box.getBoundingClientRect().top + parseFloat(style.borderTopWidth)
      + parseFloat(style.paddingTop);
    const gap = first.getBoundingClientRect().top - top;
    return gap > 2 ? `${box.tagName.toLowerCase()}#${box.id}.${box.className}: its first `
      + `${first.tagName.toLowerCase()} starts ${gap.toFixed(0)} px below its padding` : null;
  })
  .filter(Boolean)
  .slice(0, 5)"""


# Columns of a grid side by side whose first boxes start at different heights: a card
# that keeps its gap from the card above even when it is the first in its column.
UNEVEN_COLUMNS = """() => {
  const firstBox = (node) => {
    while (!node.matches(".card") && node.children.length) {
      const next = [...node.children].find((child) => child.checkVisibility());
      if (!next) break;
      node = next;
    }
    return node;
  };
  return [...document.querySelectorAll(".grid")]
    .filter((grid) => grid.checkVisibility())
    .flatMap((grid) => {
      const rows = new Map();
      for (const column of [...grid.children].filter((child) => child.checkVisibility())) {
        const row = Math.round(column.getBoundingClientRect().top);
        rows.set(row, [...(rows.get(row) || []), firstBox(column).getBoundingClientRect().top]);
      }
      return [...rows.values()]
        .filter((tops) => Math.max(...tops) - Math.min(...tops) > 2)
        .map((tops) => `${grid.className}: columns start at ${tops.map(Math.round).join(", ")} px`);
    })
    .slice(0, 3);
}"""


# Cards one above the other with no room between them (under 8 px): their borders run
# together into one box.
CARDS_TOUCHING = """() => {
  const cards = [...document.querySelectorAll(".card")]
    .filter((card) => card.checkVisibility() && !card.parentElement.closest(".card"))
    .map((card) => [card, card.getBoundingClientRect()]);
  const found = [];
  for (const [upper, a] of cards) {
    for (const [lower, b] of cards) {
      const gap = b.top - a.bottom;
      if (upper !== lower && a.left < b.right && b.left < a.right && gap > -1 && gap < 8) {
        found.push(`${upper.tagName.toLowerCase()}#${upper.id}.${upper.className} and `
          + `${lower.tagName.toLowerCase()}#${lower.id}.${lower.className}: `
          + `${gap.toFixed(0)} px apart`);
      }
    }
  }
  return found.slice(0, 3);
}"""


# Form fields side by side whose labels stand at different heights (fields aligned by
# their bottoms, one with a line of help under it): the eye reads them as two rows.
LABELS_UNEVEN = """() => {
  const fields = [...document.querySelectorAll(".field")]
    .filter((field) => field.checkVisibility() && field.querySelector(":scope > label"))
    .map((field) => [field, field.getBoundingClientRect(),
      field.querySelector(":scope > label").getBoundingClientRect().top]);
  const found = [];
  for (const [a, ra, la] of fields) {
    for (const [b, rb, lb] of fields) {
      const beside = a.parentElement === b.parentElement && ra.right <= rb.left
        && ra.top < rb.bottom && rb.top < ra.bottom;
      if (beside && Math.abs(la - lb) > 2) {
        const name = (field) => field.querySelector(":scope > label").textContent.trim();
        found.push(`"${name(a)}" and "${name(b)}": labels at ${Math.round(la)} and `
          + `${Math.round(lb)} px`);
      }
    }
  }
  return found.slice(0, 3);
}"""


# What sticks out past the right edge of a page wider than its screen: the innermost
# such elements (none of whose children stick out too; not those a box that scrolls or
# clips holds), the first few.
STICKING_OUT = """() => {
  const edge = document.documentElement.clientWidth + 1;
  const held = (node) => {
    for (let box = node.parentElement; box && box !== document.body; box = box.parentElement) {
      if (getComputedStyle(box).overflowX !== "visible") return true;
    }
    return false;
  };
  const out = (node) => node.checkVisibility() && node.getBoundingClientRect().right > edge
    && !held(node);
  return [...document.querySelectorAll("body *")]
    .filter((node) => out(node) && ![...node.children].some(out))
    .slice(0, 3)
    .map((node) => `${node.tagName.toLowerCase()}#${node.id}.${node.className}`
      + ` "${node.textContent.trim().slice(0, 40)}"`);
}"""


def layout_problems(page: Page, where: str, *, tables_as_cards: bool) -> list[str]:
    """Everything of the above on the page as it is now laid out, each named with
    ``where``; the tables only where they must read as cards (``tables_as_cards``: at
    phone width in English; longer words may make a table scroll in its box, with the
    fade, but never widen the page)."""
    problems = []
    width = page.evaluate("() => document.documentElement.scrollWidth")
    if width > page.viewport_size["width"]:
        sticking_out = ", ".join(page.evaluate(STICKING_OUT))
        problems.append(f"{where}: the page is {width}px wide ({sticking_out})")
    problems += [
        f"{where}: {box} (no fade, or no keyboard)" for box in page.evaluate(SCROLLED_SIDEWAYS)
    ]
    if tables_as_cards:
        problems += [
            f"{where}: {table} (not read as cards)"
            for table in page.evaluate(TABLES_CUT_AT_PHONE_WIDTH)
        ]
    problems += [f"{where}: clipped {text}" for text in page.evaluate(CLIPPED)]
    problems += [f"{where}: cut by its box {text}" for text in page.evaluate(CUT_BY_THEIR_BOX)]
    problems += [f"{where}: broken mid-word {text}" for text in page.evaluate(BROKEN_MID_WORD)]
    problems += [f"{where}: too small {text}" for text in page.evaluate(TOO_SMALL)]
    problems += [f"{where}: room on top in {text}" for text in page.evaluate(ROOM_ON_TOP)]
    problems += [f"{where}: uneven {text}" for text in page.evaluate(UNEVEN_COLUMNS)]
    problems += [f"{where}: cards touching: {text}" for text in page.evaluate(CARDS_TOUCHING)]
    problems += [f"{where}: uneven labels {text}" for text in page.evaluate(LABELS_UNEVEN)]
    return problems
