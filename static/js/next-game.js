// The header's "Next game" (templates/base.html): gold, with how many games wait for the
// player's move, while any does; a plain link without a count when none does. The table
// reads the queue when the turn leaves the player (table/day.js) and says it here too, so
// that the header and the table's own "next game" never disagree.

import { el } from "./dom.js";
import { formatNumber, gettext } from "./i18n.js";

export function showGamesWaiting(count) {
  const waiting = count > 0;
  for (const link of document.querySelectorAll("[data-next-game]")) {
    link.classList.toggle("button", waiting);
    link.classList.toggle("button-small", waiting);
    link.classList.toggle("waiting", waiting);
    const badge = link.querySelector(".queue-count");
    if (!badge) continue;
    badge.hidden = !waiting;
    badge.replaceChildren();
    if (waiting) badge.append(el("span", "sr-only", `${gettext("games waiting for your move:")} `), formatNumber(count));
  }
}
