// The deal's summary at the end of a deal: every hand shown (the result carries the
// cards each seat was left with, and only once the deal is over), each seat's score
// explained, and on a live table the pause before the next deal: a countdown and a
// "Ready" button. The next deal is dealt when everyone is ready or the countdown ends;
// a correspondence game keeps the summary open until the player closes it.

import { api } from "../api.js";
import { cardElement, cardName } from "../cards.js";
import { $, el, sideways } from "../dom.js";
import { formatList, formatNumber, formatUnit, gettext, interpolate } from "../i18n.js";
import { API } from "./page.js";
import { apply } from "./refresh.js";
import { seatReason, signed } from "./score-sheet.js";
import { state } from "./store.js";
import { toast } from "./toast.js";
import { seatName } from "./view.js";

// Every seat's line: the hand it was left with, its points and why, its total.
export function dealHands(result) {
  const table = el("table", "standings deal-hands");
  const head = el("tr");
  head.append(
    el("th", null, gettext("Player")),
    el("th", null, gettext("Cards left")),
    el("th", "num", gettext("This deal")),
    el("th", "num", gettext("Total")),
  );
  table.append(head);
  for (const seat of state.view.seats) {
    const position = seat.position;
    const row = el("tr", position === result.winner ? "winner-row" : "");
    row.dataset.seat = String(position);
    const cards = el("td", "deal-hand");
    const shown = el("div", "deal-cards");
    const hand = (result.hands_left || [])[position] || [];
    if (!hand.length) shown.append(el("span", "muted small", gettext("none")));
    for (const pair of hand) shown.append(cardElement(pair.card, { id: pair.id }));
    // The faces are hidden from screen readers: the cards are named in words instead.
    shown.setAttribute("role", "img");
    shown.setAttribute("aria-label", formatList(hand.map((pair) => cardName(pair.card))) || gettext("none"));
    cards.append(shown);
    const points = el("td", "num");
    points.append(el("strong", "deal-points", signed(result.scores[position])), el("span", "deal-reason small", seatReason(result, position)));
    const total = result.totals ? result.totals[position] : seat.total;
    row.append(el("td", null, seatName(position)), cards, points, el("td", "num", formatNumber(total)));
    table.append(row);
  }
  return sideways(table, gettext("Every hand of the deal"));
}

function pause() {
  return state.view && state.view.pause;
}

function secondsLeft(p) {
  return Math.max(0, Math.ceil((Date.parse(p.next_deal_at) - Date.now()) / 1000));
}

function countdownText(p) {
  const left = secondsLeft(p);
  if (left <= 0) return gettext("Dealing the next deal…");
  return interpolate(gettext("The next deal starts in %(time)s, or when every player is ready."), { time: formatUnit(left, "second", "long") }, true);
}

function waitingText(p) {
  const v = state.view;
  const waiting = v.seats
    .filter((seat) => seat.status !== "out" && !seat.user.is_bot && !p.ready.includes(seat.position))
    .map((seat) => seatName(seat.position));
  if (!waiting.length) return "";
  return interpolate(gettext("Waiting for: %(names)s"), { names: formatList(waiting) }, true);
}

// The countdown under the summary of a paused live table (nothing otherwise).
export function pauseBlock() {
  const p = pause();
  const box = el("div", "deal-pause");
  if (!p) return box;
  box.dataset.deal = String(p.deal);
  box.append(el("p", "deal-countdown", countdownText(p)), el("p", "deal-waiting muted small", waitingText(p)));
  box.querySelector(".deal-countdown").id = "deal-countdown";
  box.querySelector(".deal-countdown").setAttribute("role", "timer");
  return box;
}

// The summary's button on a paused live table: "Ready" (null for a spectator or when
// there is no pause).
export function readyButton() {
  const p = pause();
  const v = state.view;
  if (!p || v.you === null || v.you === undefined) return null;
  const ready = p.ready.includes(v.you);
  const node = el("button", "button", ready ? gettext("Ready ✓") : gettext("Ready"));
  node.type = "button";
  node.id = "deal-ready";
  node.disabled = ready;
  node.addEventListener("click", async () => {
    node.disabled = true;
    try {
      apply(await api(`${API}/ready`, { method: "POST" }));
    } catch (error) {
      // The pause may just have ended (the countdown, the others): the view catches up.
      if (error.code !== "no_deal_pause") {
        node.disabled = false;
        toast(error.message);
      }
    }
  });
  return node;
}

// Keep a paused table's summary up to date: the countdown, who is ready; close it once
// the next deal is dealt (a correspondence game's summary stays until it is closed).
export function syncPause() {
  const dialog = $("summary");
  const box = dialog && dialog.querySelector(".deal-pause[data-deal]");
  if (!box || !dialog.open) return;
  const p = pause();
  if (!p || String(p.deal) !== box.dataset.deal) {
    dialog.close();
    return;
  }
  box.querySelector(".deal-countdown").textContent = countdownText(p);
  box.querySelector(".deal-waiting").textContent = waitingText(p);
  const button = $("deal-ready");
  if (button && p.ready.includes(state.view.you)) {
    button.disabled = true;
    button.textContent = gettext("Ready ✓");
  }
}
