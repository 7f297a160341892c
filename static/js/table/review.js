// The review of a deal beside the score sheet (GET /api/v1/games/{id}/deals/{n}/review):
// after a deal ends, a player sees their own turns of it against the exact solver, and
// once the game is over anyone who may see the game sees everyone's. The latest ended
// deal is shown, an earlier one on choosing it. A review is made in the background
// after its deal: "being prepared" until then. The websocket says when it is made
// (``review_ready``); without one it is asked again with a growing delay.

import { api } from "../api.js";
import { $, el } from "../dom.js";
import { gettext, interpolate } from "../i18n.js";
import { retryDelay, reviewNodes } from "../review-turns.js";
import { API, GAME } from "./page.js";
import { state, updateReview } from "./store.js";
import { mySeat } from "./view.js";

export function wireReview() {
  $("review-deal").addEventListener("change", (event) => {
    updateReview({ chosen: Number(event.target.value) });
    load();
  });
}

// Who may read the reviews: a player while the game runs, anyone once it is over.
function mayRead(view) {
  return view.status === "finished" || mySeat() !== null;
}

// A new view of the game: a deal that ended shows its review, and the game's end shows
// it again with everyone's turns.
export function syncReview() {
  const view = state.view;
  const numbers = (view && view.status !== "lobby" ? view.deals || [] : []).map((deal) => deal.number);
  const panel = $("review-panel");
  if (!numbers.length || !mayRead(view)) {
    panel.hidden = true;
    return;
  }
  // The key: a deal more, or the game's end (everyone's turns then show).
  const key = JSON.stringify([numbers.length, view.status]);
  if (state.review.key === key) return;
  updateReview({ key, numbers, chosen: numbers[numbers.length - 1] });
  panel.hidden = false;
  drawChoice();
  load();
}

function drawChoice() {
  const select = $("review-deal");
  select.replaceChildren(
    ...state.review.numbers.map((number) => {
      const option = el("option", null, interpolate(gettext("Deal %(number)s"), { number }, true));
      option.value = String(number);
      option.selected = number === state.review.chosen;
      return option;
    }),
  );
  $("review-link").href = `/games/${encodeURIComponent(GAME)}/deals/${state.review.chosen}/review/`;
}

// The review of ``deal`` was made (a ``review_ready`` frame): read at once if it is the
// one the panel waits for. The frame names only the deal: the API decides what is shown.
export function onReviewReady(deal) {
  if ($("review-panel").hidden || state.review.chosen !== deal) return;
  if ($("review-body").dataset.state === "ready") return; // a second frame
  load();
}

async function load(attempt = 0) {
  clearTimeout(state.review.timer);
  const number = state.review.chosen;
  // Each question's token: an answer to an older one is moot (another deal was chosen,
  // or the frame asked again while a question that found it not ready was under way).
  const asked = state.review.asked + 1;
  updateReview({ asked, timer: null });
  $("review-link").href = `/games/${encodeURIComponent(GAME)}/deals/${number}/review/`;
  const body = $("review-body");
  body.dataset.state = "loading";
  let review;
  try {
    review = await api(`${API}/deals/${number}/review`);
  } catch (error) {
    if (state.review.asked !== asked) return; // asked again meanwhile
    if (error.code === "review_not_ready" || error.status === 0 || error.status === 429) {
      body.dataset.state = "preparing";
      body.replaceChildren(el("p", "muted small", gettext("The review of this deal is being prepared.")));
      updateReview({ timer: setTimeout(() => load(attempt + 1), retryDelay(attempt)) });
      return;
    }
    body.dataset.state = "refused";
    body.replaceChildren(el("p", "muted small", error.message));
    return;
  }
  if (state.review.asked !== asked) return;
  body.dataset.state = "ready";
  body.replaceChildren(...reviewNodes(review));
}
