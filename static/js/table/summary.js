// The dialogs at the end of a deal and of the game.

import { $, el } from "../dom.js";
import { LOBBY_URL } from "./page.js";
import { endReasonText, gameOverTitle, resultLine, standingsTable } from "./results.js";
import { state, updateSummaries } from "./store.js";
import { seatName } from "./view.js";

export function showDealSummary(entry) {
  const result = entry.event.result;
  const v = state.view;
  const over = v.status === "finished";
  const title = over ? gameOverTitle() : `Deal ${entry.deal} is over`;
  const body = el("div");
  body.append(el("p", "summary-lead", resultLine(result)));
  const table = el("table", "standings");
  const head = el("tr");
  head.append(el("th", null, "Player"), el("th", "num", "Left in hand"), el("th", "num", "This deal"), el("th", "num", "Total"));
  table.append(head);
  for (const seat of v.seats) {
    const row = el("tr", seat.position === result.winner ? "winner-row" : "");
    const score = result.scores[seat.position];
    row.append(
      el("td", null, seatName(seat.position)),
      el("td", "num", seat.position === result.winner ? "–" : String(result.penalties[seat.position])),
      el("td", "num", `${score > 0 ? "+" : ""}${score}`),
      el("td", "num", String(seat.total)),
    );
    table.append(row);
  }
  body.append(table);
  if (over) {
    body.append(el("p", "muted", endReasonText(v)));
    updateSummaries({ gameOver: true });
  } else {
    body.append(el("p", "muted", `Deal ${v.deal_number} of ${v.deals_in_match} is dealt. Lowest total wins the match.`));
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
    const link = el("a", "button button-ghost", "New game");
    link.href = LOBBY_URL;
    actions.append(link);
  }
  const close = el("button", "button", over ? "Close" : "Next deal");
  close.value = "close";
  actions.append(close);
  if (dialog.open) dialog.close();
  if (typeof dialog.showModal === "function") dialog.showModal();
  else dialog.setAttribute("open", "");
  close.focus();
}
