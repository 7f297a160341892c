// Building the pages' DOM. Text always goes in as textContent, never as HTML: names and
// chat lines come from other people, and the Content-Security-Policy refuses inline code.

import { formatNumber } from "./i18n.js";

export const $ = (id) => document.getElementById(id);

// ``text``: words, or a number, which is written as the page's language writes numbers.
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = typeof text === "number" ? formatNumber(text) : text;
  return node;
}

// ``table`` in a box that scrolls sideways when it is wider than the screen (a longer
// translation on a phone), keyboard-reachable and named, whose side with more to see
// fades out (scroll-hint.js).
export function sideways(table, label) {
  const box = el("div", "stats-table-wrap");
  box.setAttribute("role", "region");
  box.tabIndex = 0;
  box.setAttribute("aria-label", label);
  box.append(table);
  return box;
}

export function button(text, className, onClick, attrs = {}) {
  const node = el("button", className, text);
  node.type = "button";
  node.addEventListener("click", onClick);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}
