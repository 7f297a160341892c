// The replay of a finished game: every deal move by move with every hand face up, from
// GET /api/v1/games/{id}/replay. Buttons and keys step through the moves (← →, Home and
// End for the deal's start and end); the position is in the address (#deal=2&move=14),
// so a link opens that move.

import { api } from "./api.js";
import { $, button } from "./dom.js";
import { formatList, gettext, interpolate, ngettext } from "./i18n.js";
import { describeMove } from "./replay/describe.js";
import { renderResult, renderState, seatName } from "./replay/render.js";
import { showReviewNote } from "./replay/review.js";

const root = $("replay");
let replay = null;
// Where the replay stands: an index into ``replay.deals`` and a state of that deal
// (0: as dealt, k: after its k-th move).
const at = { deal: 0, move: 0 };

function clamp(value, low, high) {
  return Math.min(high, Math.max(low, value));
}

function currentDeal() {
  return replay.deals[at.deal];
}

function fromHash() {
  const params = new URLSearchParams(window.location.hash.slice(1));
  const number = Number.parseInt(params.get("deal") || "", 10);
  const found = replay.deals.findIndex((deal) => deal.number === number);
  const deal = found >= 0 ? found : 0;
  const move = Number.parseInt(params.get("move") || "", 10);
  const last = replay.deals[deal].states.length - 1;
  return { deal, move: Number.isNaN(move) ? 0 : clamp(move, 0, last) };
}

function hashOf(position) {
  return `#deal=${replay.deals[position.deal].number}&move=${position.move}`;
}

function show() {
  const deal = currentDeal();
  const last = deal.states.length - 1;
  renderState(replay, deal, at.move);
  renderResult(replay, deal, at.move === last);
  const move = at.move > 0 ? deal.moves[at.move - 1] : null;
  $("replay-move").textContent = move
    ? describeMove(move, deal.states[at.move - 1], (seat) => seatName(replay, seat))
    : interpolate(gettext("Deal %(deal)s as dealt: %(name)s starts."), { deal: deal.number, name: seatName(replay, deal.states[0].to_move) }, true);
  $("replay-position").textContent = interpolate(
    gettext("Deal %(deal)s · move %(move)s of %(moves)s"),
    { deal: deal.number, move: at.move, moves: last },
    true,
  );
  root.dataset.deal = String(deal.number);
  // The review of the deal shown (games/read/reviews.py): its address names the deal.
  const review = document.getElementById("replay-review");
  if (review) review.href = review.dataset.href.replace(/\/deals\/1\/review\/$/, `/deals/${deal.number}/review/`);
  showReviewNote(deal.number, move ? move.ply : 0);
  root.dataset.move = String(at.move);
  $("replay-start").disabled = $("replay-prev").disabled = at.move === 0;
  $("replay-end").disabled = $("replay-next").disabled = at.move === last;
  for (const node of document.querySelectorAll(".replay-deal")) {
    const current = node.dataset.deal === String(deal.number);
    node.classList.toggle("is-current", current);
    if (current) node.setAttribute("aria-current", "true");
    else node.removeAttribute("aria-current");
  }
  const hash = hashOf(at);
  $("replay-link").href = hash;
  if (window.location.hash !== hash) history.replaceState(null, "", hash);
}

function go(deal, move) {
  at.deal = clamp(deal, 0, replay.deals.length - 1);
  at.move = clamp(move, 0, replay.deals[at.deal].states.length - 1);
  show();
}

function step(by) {
  go(at.deal, at.move + by);
}

function toEnd() {
  go(at.deal, currentDeal().states.length - 1);
}

function onKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  if (target instanceof HTMLElement && target.closest("input, textarea, select, [contenteditable]")) return;
  const actions = { ArrowRight: () => step(1), ArrowLeft: () => step(-1), Home: () => go(at.deal, 0), End: toEnd };
  const action = actions[event.key];
  if (!action) return;
  event.preventDefault();
  action();
}

function dealButtons() {
  return replay.deals.map((deal, index) => {
    const label = interpolate(gettext("Deal %(deal)s"), { deal: deal.number }, true);
    const node = button(label, "button button-small button-quiet replay-deal", () => go(index, 0));
    node.dataset.deal = String(deal.number);
    return node;
  });
}

function metaText() {
  const names = formatList(replay.seats.map((seat) => seatName(replay, seat.position)));
  const winners = formatList((replay.winners || []).map((seat) => seatName(replay, seat)));
  const deals = replay.deals.length;
  const text = interpolate(ngettext("%(players)s · %(deals)s deal", "%(players)s · %(deals)s deals", deals), { players: names, deals }, true);
  return winners ? `${text} · ${interpolate(gettext("won by %(names)s"), { names: winners }, true)}` : text;
}

async function main() {
  try {
    replay = await api(root.dataset.api);
  } catch (error) {
    root.dataset.state = "error";
    $("replay-meta").textContent = error.message;
    return;
  }
  if (!replay.deals.length) {
    root.dataset.state = "empty";
    $("replay-meta").textContent = gettext("This game ended before its first deal.");
    return;
  }
  $("replay-meta").textContent = metaText();
  $("replay-deals").replaceChildren(...dealButtons());
  $("replay-start").addEventListener("click", () => go(at.deal, 0));
  $("replay-prev").addEventListener("click", () => step(-1));
  $("replay-next").addEventListener("click", () => step(1));
  $("replay-end").addEventListener("click", toEnd);
  $("replay-link").addEventListener("click", (event) => {
    event.preventDefault();
    navigator.clipboard?.writeText(window.location.href).catch(() => {});
  });
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", () => {
    const position = fromHash();
    go(position.deal, position.move);
  });
  const position = fromHash();
  go(position.deal, position.move);
  root.dataset.state = "ready";
}

main();
