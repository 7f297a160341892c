// The review of the deal shown in the replay (GET /api/v1/games/{id}/deals/{n}/review,
// games/read/reviews.py): under the move, what the exact solver would have laid in the
// turn that move belongs to, and whether its discard fed the next player. Each deal's
// review is fetched once, when the replay first shows that deal.

import { api } from "../api.js";
import { $, el } from "../dom.js";
import { gettext } from "../i18n.js";

const reviews = new Map(); // deal number -> the review, or a promise of it

function reviewOf(url, number) {
  if (!reviews.has(number)) {
    const path = url.replace(/\/deals\/1\/review$/, `/deals/${number}/review`);
    reviews.set(
      number,
      api(path).then(
        (review) => reviews.set(number, review).get(number),
        (error) => {
          reviews.delete(number); // asked again later: "being prepared" may be over
          throw error;
        },
      ),
    );
  }
  return Promise.resolve(reviews.get(number));
}

function turnNotes(turn) {
  const notes = [];
  if (turn.better) notes.push(el("span", "review-better", turn.better.text));
  if (turn.fed) notes.push(el("span", "review-fed", turn.fed.text));
  return notes;
}

// Show the notes of the turn holding ``ply`` of deal ``number`` (none at the deal's start).
export function showReviewNote(number, ply) {
  const box = $("replay-review-note");
  if (!box) return;
  reviewOf(box.dataset.api, number).then(
    (review) => {
      if (box.dataset.deal !== String(number) || box.dataset.ply !== String(ply)) return;
      const turn = review.turns.find((entry) => entry.plies[0] <= ply && ply <= entry.plies[1]);
      box.replaceChildren(...(turn ? turnNotes(turn) : []));
    },
    (error) => {
      if (box.dataset.deal !== String(number)) return;
      // A deal the game ended in (a resignation) was never played out: it has no review.
      const preparing = error.code === "review_not_ready";
      box.replaceChildren(...(preparing ? [gettext("The review of this deal is being prepared.")] : []));
    },
  );
  box.dataset.deal = String(number);
  box.dataset.ply = String(ply);
}
