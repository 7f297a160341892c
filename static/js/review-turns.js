// A deal's review drawn as a list (GET /api/v1/games/{id}/deals/{n}/review,
// games/read/reviews.py): one line of play per turn, the exact solver's better play and
// a discard that fed the next player under it. The server words each turn in the
// reader's language; the table's panel and the replay's both draw it with this.

import { el } from "./dom.js";
import { formatList, gettext, interpolate, ngettext } from "./i18n.js";

function turnItem(turn, current) {
  const noted = Boolean(turn.better || turn.fed);
  const item = el("li", noted ? "review-turn review-turn-note" : "review-turn");
  item.dataset.seat = String(turn.seat);
  item.dataset.plies = turn.plies.join("-");
  if (current) item.setAttribute("aria-current", "step");
  const played = el("p", "review-played");
  played.append(el("strong", null, turn.player), `: ${formatList(turn.played)}`);
  item.append(played);
  if (turn.better) item.append(el("p", "review-better", turn.better.text));
  if (turn.fed) item.append(el("p", "review-fed", turn.fed.text));
  if (!turn.examined) item.append(el("p", "muted small", gettext("Not examined.")));
  return item;
}

// The review's nodes: what it covers, the turns the solver's time left, and the turns;
// ``ply`` (optional) marks the turn that holds it.
export function reviewNodes(review, ply = null) {
  const about = review.complete
    ? gettext("Every player's turns, against the exact solver's play.")
    : gettext("Your own turns, against the exact solver's play. The others' show once the game is over.");
  const nodes = [el("p", "muted small review-about", about)];
  if (review.unexamined) {
    const text = ngettext(
      "The solver's time ran out: %(turns)s turn was not examined.",
      "The solver's time ran out: %(turns)s turns were not examined.",
      review.unexamined,
    );
    nodes.push(el("p", "muted small", interpolate(text, { turns: review.unexamined }, true)));
  }
  const list = el("ol", "review-turns");
  for (const turn of review.turns) {
    const current = ply !== null && turn.plies[0] <= ply && ply <= turn.plies[1];
    list.append(turnItem(turn, current));
  }
  if (!review.turns.length) list.append(el("li", "muted small", gettext("No turns to review.")));
  nodes.push(list);
  return nodes;
}

// The review of deal ``number`` is made in the background after the deal: while it is
// being prepared, ask again after 2, 4, 8, 16 and then every 30 seconds.
export function retryDelay(attempt) {
  return Math.min(30000, 2000 * 2 ** attempt);
}
