// How a deal and the game ended, in the words the log, the summaries and the table's
// closing panel share.

import { el, sideways } from "../dom.js";
import { formatList, formatNumber, formatRating, gettext, interpolate, ngettext } from "../i18n.js";
import { state } from "./store.js";
import { seatName } from "./view.js";

// How a deal was won, said of the viewer ("you") and of anyone else ("who").
const FINISH_LINES = {
  normal: { you: gettext("You went out."), who: gettext("%(who)s went out.") },
  joker: { you: gettext("You went out with a joker."), who: gettext("%(who)s went out with a joker.") },
  mixed_hand: { you: gettext("You went out in a mixed hand."), who: gettext("%(who)s went out in a mixed hand.") },
  dry_hand: { you: gettext("You went out in one go: a hand!"), who: gettext("%(who)s went out in one go: a hand!") },
};

const END_REASONS = {
  completed: gettext("All deals played."),
  resigned: gettext("The other players resigned."),
  score_limit: gettext("A player reached the score limit."),
  timeout: gettext("A player ran out of time."),
  absent: gettext("A player did not come back to the table."),
};

// Why the game ended, told from where the reader sits: the one who resigned reads
// that they did, the others read who it was.
export function endReasonText(v) {
  if (v.end_reason !== "resigned") return END_REASONS[v.end_reason] || "";
  const gone = v.seats.filter((seat) => seat.status === "out").map((seat) => seat.position);
  if (v.you !== null && gone.includes(v.you)) return gettext("You resigned.");
  if (!gone.length) return END_REASONS.resigned;
  const names = joinNames(gone.map((position) => seatName(position, { you: false })));
  return interpolate(ngettext("%(names)s resigned.", "%(names)s resigned.", gone.length), { names }, true);
}

// "Ana, Bo and Cvetko" in the page's language.
function joinNames(names) {
  return formatList(names, "long");
}

export function resultLine(result) {
  if (result.winner === null || result.finish === "void") return gettext("The deal ended void: nobody scores.");
  const lines = FINISH_LINES[result.finish] || FINISH_LINES.normal;
  const v = state.view;
  if (v && v.you !== null && result.winner === v.you) return lines.you;
  return interpolate(lines.who, { who: seatName(result.winner) }, true);
}

export function gameOverTitle() {
  const v = state.view;
  const winners = v.winners || [];
  if (v.you !== null && winners.includes(v.you)) return winners.length > 1 ? gettext("You share the win!") : gettext("You won the game!");
  if (!winners.length) return gettext("Game over");
  const names = joinNames(winners.map((w) => seatName(w, { you: false })));
  return interpolate(ngettext("%(names)s won the game", "%(names)s won the game", winners.length), { names }, true);
}

// A rated game that moved nobody's rating: it ended before every player had moved.
export function ratedButNotCounted(v) {
  return Boolean(v.time_control.rated && v.status === "finished" && !(v.rating_changes || []).length);
}

export function standingsTable() {
  const v = state.view;
  const table = el("table", "standings");
  const head = el("tr");
  const changes = new Map((v.rating_changes || []).map((change) => [change.position, change]));
  head.append(el("th", null, "#"), el("th", null, gettext("Player")), el("th", "num", gettext("Total")));
  if (changes.size) head.append(el("th", "num", gettext("Rating")));
  table.append(head);
  const seats = [...v.seats].sort((a, b) => a.total - b.total);
  seats.forEach((seat, place) => {
    const row = el("tr", (v.winners || []).includes(seat.position) ? "winner-row" : "");
    const name = el("td");
    const link = el("a", "player-link", seatName(seat.position));
    link.href = `/accounts/players/${encodeURIComponent(seat.user.username)}/`;
    name.append(link);
    row.append(el("td", null, formatNumber(place + 1)), name, el("td", "num", formatNumber(seat.total)));
    const change = changes.get(seat.position);
    if (changes.size) row.append(el("td", "num", change ? ratingText(change) : ""));
    table.append(row);
  });
  const boxed = sideways(table, gettext("Standings"));
  if (!ratedButNotCounted(v)) return boxed;
  const box = el("div");
  box.append(boxed, el("p", "muted", gettext("Not rated: the game was left before every player had made a move.")));
  return box;
}

// "1500 → 1658 (+158)", "1500 → 1458 (-42)", "1500 → 1500 (±0)": the ratings in digits
// alone, as rating lists write them, the change and the signs as the page's language
// writes them; a provisional rating carries a "?".
function ratingText(change) {
  const mark = change.provisional ? "?" : "";
  const moved = change.change ? formatNumber(change.change, { signed: true }) : `±${formatNumber(0)}`;
  return `${formatRating(change.rating_before)} → ${formatRating(change.rating_after)}${mark} (${moved})`;
}
