// The review of the deal shown in the replay (GET /api/v1/games/{id}/deals/{n}/review,
// games/read/reviews.py): under the move, what the exact solver would have laid in the
// turn that move belongs to, and whether its discard fed the next player; beside the
// deal, every turn of it, the move's own marked. Each deal's review is fetched once,
// when the replay first shows that deal (while it is being prepared, again after a
// growing delay).

import { api } from "../api.js";
import { $, el } from "../dom.js";
import { gettext } from "../i18n.js";
import { retryDelay, reviewNodes } from "../review-turns.js";

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
  showReviewPanel(box.dataset.api, number, ply);
}

const panel = { timer: null, attempt: 0, deal: null };

// The deal's turns beside it, the turn holding ``ply`` marked (drawn again only for
// another deal: the list keeps its scroll as the moves go by).
function showReviewPanel(url, number, ply) {
  const body = $("replay-review-body");
  if (!body) return;
  if (panel.deal !== number) {
    clearTimeout(panel.timer);
    Object.assign(panel, { deal: number, attempt: 0, timer: null });
    body.dataset.state = "loading";
    body.replaceChildren();
  }
  body.dataset.ply = String(ply);
  reviewOf(url, number).then(
    (review) => {
      if (panel.deal !== number) return;
      if (body.dataset.state !== "ready") {
        body.replaceChildren(...reviewNodes(review, ply));
        body.dataset.state = "ready";
        return;
      }
      for (const item of body.querySelectorAll(".review-turn")) {
        const [first, last] = item.dataset.plies.split("-").map(Number);
        if (first <= ply && ply <= last) item.setAttribute("aria-current", "step");
        else item.removeAttribute("aria-current");
      }
    },
    (error) => {
      if (panel.deal !== number || panel.timer) return;
      if (error.code !== "review_not_ready") {
        body.dataset.state = "refused";
        body.replaceChildren(el("p", "muted small", gettext("This deal has no review.")));
        return;
      }
      body.dataset.state = "preparing";
      body.replaceChildren(el("p", "muted small", gettext("The review of this deal is being prepared.")));
      panel.timer = setTimeout(() => {
        panel.timer = null;
        panel.attempt += 1;
        showReviewPanel(url, number, Number(body.dataset.ply));
      }, retryDelay(panel.attempt));
    },
  );
}
