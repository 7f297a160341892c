// How a deal and the game ended, in the words the log, the summaries and the table's
// closing panel share.

import { el } from "../dom.js";
import { state } from "./store.js";
import { seatName } from "./view.js";

const FINISH_NAMES = {
  normal: "went out",
  joker: "went out with a joker",
  mixed_hand: "went out in a mixed hand",
  dry_hand: "went out in one go: a hand!",
  void: "",
};

const END_REASONS = {
  completed: "All deals played.",
  resigned: "The other players resigned.",
  score_limit: "A player reached the score limit.",
  timeout: "A player ran out of time.",
  absent: "A player did not come back to the table.",
};

// Why the game ended, told from where the reader sits: the one who resigned reads
// that they did, the others read who it was.
export function endReasonText(v) {
  if (v.end_reason !== "resigned") return END_REASONS[v.end_reason] || "";
  const gone = v.seats.filter((seat) => seat.status === "out").map((seat) => seat.position);
  if (v.you !== null && gone.includes(v.you)) return "You resigned.";
  if (!gone.length) return END_REASONS.resigned;
  const names = gone.map((position) => seatName(position, { you: false })).join(" and ");
  return `${names} resigned.`;
}

export function resultLine(result) {
  if (result.winner === null || result.finish === "void") return "The deal ended void: nobody scores.";
  const text = `${seatName(result.winner)} ${FINISH_NAMES[result.finish] || "went out"}`;
  return text.endsWith("!") ? text : `${text}.`;
}

export function gameOverTitle() {
  const v = state.view;
  const winners = v.winners || [];
  if (v.you !== null && winners.includes(v.you)) return winners.length > 1 ? "You share the win!" : "You won the game!";
  if (!winners.length) return "Game over";
  return `${winners.map((w) => seatName(w, { you: false })).join(" and ")} won the game`;
}

export function standingsTable() {
  const v = state.view;
  const table = el("table", "standings");
  const head = el("tr");
  const changes = new Map((v.rating_changes || []).map((change) => [change.position, change]));
  head.append(el("th", null, "#"), el("th", null, "Player"), el("th", "num", "Total"));
  if (changes.size) head.append(el("th", "num", "Rating"));
  table.append(head);
  const seats = [...v.seats].sort((a, b) => a.total - b.total);
  seats.forEach((seat, place) => {
    const row = el("tr", (v.winners || []).includes(seat.position) ? "winner-row" : "");
    const name = el("td");
    const link = el("a", "player-link", seatName(seat.position));
    link.href = `/accounts/players/${encodeURIComponent(seat.user.username)}/`;
    name.append(link);
    row.append(el("td", null, String(place + 1)), name, el("td", "num", String(seat.total)));
    const change = changes.get(seat.position);
    if (changes.size) row.append(el("td", "num", change ? ratingText(change) : ""));
    table.append(row);
  });
  if (!v.time_control.rated || v.status !== "finished" || changes.size) return table;
  const box = el("div");
  box.append(table, el("p", "muted", "Not rated: the game was left before every player had made a move."));
  return box;
}

// "1500 → 1658 (+158)"; a provisional rating carries a "?".
function ratingText(change) {
  const sign = change.change > 0 ? "+" : change.change < 0 ? "−" : "±";
  const mark = change.provisional ? "?" : "";
  return `${change.rating_before} → ${change.rating_after}${mark} (${sign}${Math.abs(change.change)})`;
}
