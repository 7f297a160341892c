// Questions about the game as the API last showed it to this viewer: whose turn, which
// seat is whose, what the viewer may do. Nothing is worked out that the API did not say.

import { gettext, interpolate } from "../i18n.js";
import { shownName, shownNameParts } from "../names.js";
import { state } from "./store.js";

export function deal() {
  return state.view && state.view.deal;
}

export function mySeat() {
  return state.view ? state.view.you : null;
}

export function seatOf(position) {
  return state.view.seats.find((seat) => seat.position === position);
}

export function seatName(position, { you = true } = {}) {
  if (you && position === mySeat()) return gettext("You");
  const seat = seatOf(position);
  return seat ? shownName(seat.user, state.view.seats.map((other) => other.user)) : interpolate(gettext("Seat %(number)s"), { number: position + 1 }, true);
}

// Another player's seat name in parts (names.js ``shownNameParts``), for a label that
// cuts the display name short and keeps the username that tells two alike apart.
export function seatNameParts(position) {
  const seat = seatOf(position);
  if (!seat) return { name: seatName(position, { you: false }), username: null };
  return shownNameParts(seat.user, state.view.seats.map((other) => other.user));
}

export function myTurn() {
  const d = deal();
  // Between two deals of a live table (``pause``) nobody is to move.
  return Boolean(d && state.view.status === "active" && !state.view.pause && mySeat() !== null && d.to_move === mySeat());
}

export function can(kind) {
  return Boolean(state.view && state.view.can.act.includes(kind));
}

export function ruleset() {
  return state.view.ruleset;
}

// Seats in playing order, starting after the viewer (or from seat 0 for a spectator).
export function othersInOrder() {
  const v = state.view;
  const start = v.you === null ? 0 : v.you + 1;
  const out = [];
  for (let k = 0; k < v.players; k += 1) {
    const position = (start + k) % v.players;
    if (position !== v.you) out.push(position);
  }
  return out;
}

// The wait of the current turn, if the table is waiting for its player.
export function awaited() {
  const a = state.absent.body;
  return a && a.absent && state.view && a.ply === state.view.ply && state.view.status === "active" ? a.absent : null;
}
