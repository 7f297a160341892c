// The match's score sheet beside the table: one line per finished deal (the game view's
// `deals`) with each seat's points and why, who closed and how, and the running totals,
// under the match's target. The finished game's page renders the same sheet on the
// server (games/read/score_sheet.py); this keeps it in step while the game runs.

import { $, el } from "../dom.js";
import { formatList, formatNumber, gettext, interpolate, ngettext } from "../i18n.js";
import { GAME } from "./page.js";
import { state } from "./store.js";
import { mySeat, seatName } from "./view.js";

// How the closer went out, as the sheet says it.
function howClosed(finish) {
  switch (finish) {
    case "joker":
      return gettext("closed with a joker");
    case "mixed_hand":
      return gettext("closed with a mixed hand");
    case "dry_hand":
      return gettext("closed with the whole hand");
    default:
      return gettext("closed");
  }
}

function doubled(row) {
  if (!row) return null;
  return {
    winner: row.winner * 2,
    multiplier: row.multiplier * 2,
    bonus: row.bonus * 2,
    unopened: row.unopened === null ? null : row.unopened * 2,
  };
}

// The ruleset's scoring row for a way of going out (as the engine picks it).
function finishRow(ruleset, finish) {
  let row = null;
  if (finish === "joker") row = ruleset.joker_close || (ruleset.joker_close_doubles ? doubled(ruleset.normal_close) : null);
  else if (finish === "mixed_hand") row = ruleset.mixed_hand_close;
  else if (finish === "dry_hand") row = ruleset.dry_hand_close;
  return row || ruleset.normal_close;
}

function isVoid(result) {
  return result.winner === null || result.finish === "void";
}

// Why a seat scored what it did in a finished deal, in words.
export function seatReason(result, position) {
  if (isVoid(result)) return gettext("void deal: nobody scores");
  if (position === result.winner) return howClosed(result.finish);
  const row = finishRow(state.view.ruleset, result.finish);
  if (result.opened && !result.opened[position] && row.unopened !== null && row.unopened !== undefined) return gettext("did not open");
  const penalty = result.penalties[position];
  let text = interpolate(ngettext("%(points)s point left in hand", "%(points)s points left in hand", penalty), { points: penalty }, true);
  if (row.multiplier > 1) text = interpolate(gettext("%(left)s, ×%(times)s"), { left: text, times: row.multiplier }, true);
  if (row.bonus) text = interpolate(gettext("%(left)s, %(bonus)s"), { left: text, bonus: signed(row.bonus) }, true);
  return text;
}

// Who closed the deal and how ("Ana closed with a joker").
export function closedBy(result) {
  if (isVoid(result)) return gettext("Void deal: the stock ran out");
  return interpolate(gettext("%(name)s %(how)s"), { name: seatName(result.winner, { you: false }), how: howClosed(result.finish) }, true);
}

// A deal's points with their sign: "+25", "-280", "0".
export function signed(points) {
  return formatNumber(points, { signed: true });
}

function targetText(v) {
  const deals = v.deals_in_match;
  const target = v.ruleset.match_end_score;
  if (target) {
    const text = ngettext(
      "%(deals)s deal, or until a total reaches %(target)s. Lowest total wins.",
      "%(deals)s deals, or until a total reaches %(target)s. Lowest total wins.",
      deals,
    );
    return interpolate(text, { deals, target }, true);
  }
  return interpolate(ngettext("%(deals)s deal. Lowest total wins.", "%(deals)s deals. Lowest total wins.", deals), { deals }, true);
}

function sheetLine(result, seats) {
  const line = el("tr", "sheet-line");
  const number = el("th", "sheet-deal", formatNumber(result.number));
  number.scope = "row";
  line.append(number);
  for (const seat of seats) {
    const cell = el("td", seat.position === result.winner ? "num sheet-closer" : "num");
    cell.append(
      el("span", "sheet-points", signed(result.scores[seat.position])),
      el("span", "sheet-reason", seatReason(result, seat.position)),
      el("span", "sheet-total", formatNumber(result.totals[seat.position])),
    );
    line.append(cell);
  }
  const how = el("tr", "sheet-how");
  const text = el("td", null, closedBy(result));
  text.colSpan = seats.length + 1;
  if (mySeat() !== null) {
    // A player's own turns of the deal against the exact solver (games/read/reviews.py).
    const review = el("a", "sheet-review small", gettext("Review"));
    review.href = `/games/${encodeURIComponent(GAME)}/deals/${result.number}/review/`;
    text.append(" · ", review);
  }
  how.append(text);
  return [line, how];
}

export function buildScoreSheet() {
  const v = state.view;
  const box = el("div");
  box.append(el("p", "sheet-target muted small", targetText(v)));
  const table = el("table", "sheet");
  const head = el("tr");
  const deal = el("th", null, gettext("Deal"));
  deal.scope = "col";
  head.append(deal);
  const seats = [...v.seats].sort((a, b) => a.position - b.position);
  for (const seat of seats) {
    const name = el("th", "num", seatName(seat.position, { you: false }));
    name.scope = "col";
    head.append(name);
  }
  const thead = el("thead");
  thead.append(head);
  const body = el("tbody");
  for (const result of v.deals || []) body.append(...sheetLine(result, seats));
  if (!(v.deals || []).length) {
    const none = el("tr");
    const cell = el("td", "muted small", gettext("No deal has ended yet."));
    cell.colSpan = seats.length + 1;
    none.append(cell);
    body.append(none);
  }
  table.append(thead, body);
  // Six players' columns are wider than the side panel: the sheet scrolls, not the page.
  const wrap = el("div", "sheet-wrap");
  wrap.tabIndex = 0;
  wrap.setAttribute("role", "region");
  wrap.setAttribute("aria-label", gettext("Score sheet"));
  wrap.append(table);
  box.append(wrap);
  if (v.status === "finished" && (v.winners || []).length) {
    const names = formatList(v.winners.map((position) => seatName(position, { you: false })));
    const winner = el("p", "sheet-winner");
    winner.append(el("strong", null, interpolate(gettext("Match won by %(names)s"), { names }, true)));
    box.append(winner);
  }
  return box;
}

// Draw the sheet again when what it shows changed (a deal ended, the game ended): the
// node keeps the key of what it shows.
export function syncScoreSheet() {
  const node = $("score-sheet");
  const v = state.view;
  if (!node || !v || v.status === "lobby") return;
  const key = JSON.stringify([v.status, v.winners, (v.deals || []).length, v.seats.map((s) => s.user.username)]);
  if (node.dataset.shown === key) return;
  node.dataset.shown = key;
  node.replaceChildren(buildScoreSheet());
}
