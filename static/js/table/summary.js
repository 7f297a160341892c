// The dialogs at the end of a deal and of the game.

import { $, el } from "../dom.js";
import { gettext, interpolate } from "../i18n.js";
import { dealHands, pauseBlock, readyButton } from "./deal-pause.js";
import { LOBBY_URL } from "./page.js";
import { refresh } from "./refresh.js";
import { endReasonText, gameOverTitle, resultLine, standingsTable } from "./results.js";
import { state, updateSummaries } from "./store.js";

export function showDealSummary(entry) {
  const v = state.view;
  // The game's own record of the deal (every hand left, the totals). The log may be
  // ahead of the view we hold: read the game again first.
  const found = (v.deals || []).find((d) => d.number === entry.deal);
  if (!found && !entry.reread) {
    entry.reread = true;
    refresh().then(() => showDealSummary(entry));
    return;
  }
  const result = found || entry.event.result;
  if (!result) return;
  const over = v.status === "finished";
  const title = over ? gameOverTitle() : interpolate(gettext("Deal %(number)s is over"), { number: entry.deal }, true);
  const body = el("div");
  body.append(el("p", "summary-lead", resultLine(result)));
  // Every hand, now that the deal is over, and each seat's score in words.
  body.append(dealHands(result));
  if (over) {
    body.append(el("p", "muted", endReasonText(v)));
    updateSummaries({ gameOver: true });
  } else if (v.pause) {
    body.append(pauseBlock());
  } else {
    const next = gettext("Deal %(number)s of %(deals)s is dealt. Lowest total wins the match.");
    body.append(el("p", "muted", interpolate(next, { number: v.deal_number, deals: v.deals_in_match }, true)));
  }
  openSummary(title, body, over);
}

export function showGameSummary() {
  updateSummaries({ gameOver: true });
  const body = el("div");
  body.append(el("p", "muted", endReasonText(state.view)));
  body.append(standingsTable());
  openSummary(gameOverTitle(), body, true);
}

function openSummary(title, body, over) {
  const dialog = $("summary");
  $("summary-title").textContent = title;
  $("summary-body").replaceChildren(body);
  const actions = $("summary-actions");
  actions.replaceChildren();
  if (over) {
    const link = el("a", "button button-ghost", gettext("New game"));
    link.href = LOBBY_URL;
    actions.append(link);
  }
  // A paused live table: "Ready" deals the next deal once every player has pressed it.
  const ready = over ? null : readyButton();
  if (ready) actions.append(ready);
  const close = el("button", ready ? "button button-ghost" : "button", over || ready || state.view.pause ? gettext("Close") : gettext("Next deal"));
  close.value = "close";
  actions.append(close);
  if (dialog.open) dialog.close();
  if (typeof dialog.showModal === "function") dialog.showModal();
  else dialog.setAttribute("open", "");
  (ready || close).focus();
}

// Between two live deals the summary holds "Ready": once closed (or never shown, on a
// page opened during the pause) the prompt's button brings it back.
export function syncSummaryReopen() {
  const v = state.view;
  $("pause-summary").hidden = !(v && v.pause && v.status === "active") || $("summary").open;
}

export function wireSummaryReopen() {
  $("pause-summary").addEventListener("click", () => {
    const v = state.view;
    if (v && v.pause) showDealSummary({ deal: v.pause.deal, event: {} });
    syncSummaryReopen();
  });
  $("summary").addEventListener("close", syncSummaryReopen);
}
