// The clocks: turn deadlines (any node with data-deadline) and each seat's time bank
// (data-bank-of), redrawn every second from the times the API gave.

import { gettext, interpolate } from "../i18n.js";
import { formatClock, formatLeft } from "./format.js";
import { state } from "./store.js";
import { awaited, deal, seatOf } from "./view.js";

export function hasBank() {
  const tc = state.view.time_control;
  return tc.kind === "live" && tc.time_bank_s > 0 && state.view.status !== "lobby";
}

// What is left of a seat's bank now (ms): the mover's runs down from turn_ends_at on.
function bankLeftMs(position) {
  const v = state.view;
  const seat = seatOf(position);
  if (!seat || seat.time_bank_remaining_s === null || seat.time_bank_remaining_s === undefined) return null;
  let left = seat.time_bank_remaining_s * 1000;
  const d = deal();
  if (d && v.status === "active" && d.to_move === position && v.turn_ends_at && v.deadline_at) {
    const away = awaited();
    if (away && away.seat === position) return 0;
    const now = Date.now();
    if (now > Date.parse(v.turn_ends_at)) left = Math.min(left, Math.max(0, Date.parse(v.deadline_at) - now));
  }
  return left;
}

function tickBanks() {
  const d = deal();
  for (const chip of document.querySelectorAll("[data-bank-of]")) {
    const position = Number(chip.dataset.bankOf);
    const left = bankLeftMs(position);
    if (left === null) continue;
    const text = formatClock(left);
    chip.textContent = interpolate(gettext("bank %(time)s"), { time: text }, true);
    chip.setAttribute("aria-label", interpolate(gettext("time bank %(time)s"), { time: text }, true));
    const seat = seatOf(position);
    const running =
      d && state.view.status === "active" && d.to_move === position && left < seat.time_bank_remaining_s * 1000;
    chip.classList.toggle("bank-running", Boolean(running && left > 0));
    chip.classList.toggle("bank-empty", left <= 0);
  }
}

// The deadline clocks. A turn clock with a time bank (data-turn-ends) counts the turn's
// own seconds, then the mover's bank ("bank 0:42", another colour).
export function tick() {
  const now = Date.now();
  for (const node of document.querySelectorAll("[data-deadline]")) {
    const left = Date.parse(node.dataset.deadline) - now;
    if (node.dataset.format === "clock") {
      node.textContent = formatClock(left);
      continue;
    }
    const ends = node.dataset.turnEnds ? Date.parse(node.dataset.turnEnds) : null;
    const inBank = ends !== null && now >= ends && left > 0;
    if (ends !== null && !inBank && left > 0) node.textContent = formatLeft(ends - now);
    else node.textContent = inBank ? interpolate(gettext("bank %(time)s"), { time: formatClock(left) }, true) : formatLeft(left);
    node.classList.toggle("countdown-bank", inBank);
    node.classList.toggle("countdown-low", left < 15000 && (ends === null || inBank));
  }
  if (state.view) tickBanks();
}
