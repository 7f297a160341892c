// The player's hand: the order they arranged it in (kept per deal in localStorage), the
// selection, and the opening row of melds waiting to be laid down together.

import { sortByRank, sortBySuit } from "../cards.js";
import { GAME } from "./page.js";
import {
  changed,
  clearFresh,
  clearSelection,
  clearStaged,
  deselect,
  resetHand,
  select,
  setFresh,
  setOrder,
  state,
  unstage,
} from "./store.js";
import { deal, mySeat, myTurn } from "./view.js";

export function handMap() {
  const d = deal();
  const map = new Map();
  if (d && d.hand) for (const pair of d.hand) map.set(pair.id, pair.card);
  return map;
}

export function stagedIds() {
  return new Set(state.hand.staged.flatMap((meld) => meld.items.map((item) => item.id)));
}

// The hand as shown: the player's order, without the cards waiting in the opening row.
export function handItems() {
  const cards = handMap();
  const staged = stagedIds();
  return state.hand.order.filter((id) => cards.has(id) && !staged.has(id)).map((id) => ({ id, card: cards.get(id) }));
}

export function selectedItems() {
  return handItems().filter((item) => state.hand.selected.has(item.id));
}

// The opening row as the server is asked about it: card ids, meld by meld.
export function stagedMelds() {
  return state.hand.staged.map((meld) => meld.items.map((item) => item.id));
}

// ------------------------------------------------------------------ a new view

// Bring the hand in line with a new view (``before``: the view it replaces).
export function syncHand(before) {
  const d = deal();
  const key = d && d.hand ? `remi:${GAME}:${state.view.deal_number}:order` : null;
  if (key !== state.hand.orderKey) {
    forgetOtherOrders(key);
    resetHand(key, key ? loadOrder(key) : []);
    before = null; // a new deal: nothing is "fresh"
  }
  if (!key) return;
  const cards = handMap();
  const known = new Set(state.hand.order);
  const arrived = d.hand.map((pair) => pair.id).filter((id) => !known.has(id));
  setOrder(state.hand.order.filter((id) => cards.has(id)).concat(arrived));
  if (arrived.length && before && before.deal) setFresh(arrived);
  if (!myTurn()) clearFresh();
  for (const id of [...state.hand.selected]) if (!cards.has(id)) deselect(id);
  // The opening row lives only during this player's turn, with cards still in hand.
  const staged = stagedIds();
  if (!myTurn() || d.phase !== "play" || d.opened[mySeat()] || [...staged].some((id) => !cards.has(id))) {
    clearStaged();
  }
  saveOrder();
}

function loadOrder(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "[]");
  } catch {
    return [];
  }
}

// Only the current deal's order is kept: those of the game's earlier deals go (also
// when the page was closed while the deal changed).
function forgetOtherOrders(key) {
  const prefix = `remi:${GAME}:`;
  try {
    for (const stored of Object.keys(localStorage)) {
      if (stored !== key && stored.startsWith(prefix) && stored.endsWith(":order")) localStorage.removeItem(stored);
    }
  } catch {
    // nothing was kept
  }
}

function saveOrder() {
  if (!state.hand.orderKey) return;
  try {
    localStorage.setItem(state.hand.orderKey, JSON.stringify(state.hand.order));
  } catch {
    // private mode: the order just is not kept
  }
}

// ------------------------------------------------------------------ the player's own arranging

export function toggle(id) {
  if (state.hand.selected.has(id)) deselect(id);
  else select(id);
  changed();
}

export function deselectAll() {
  clearSelection();
  changed();
}

export function sortHand(how) {
  const sorted = (how === "suit" ? sortBySuit : sortByRank)(handItems());
  const staged = state.hand.order.filter((id) => stagedIds().has(id));
  setOrder(sorted.map((item) => item.id).concat(staged));
  saveOrder();
  changed();
}

// Put one card of the hand at ``index`` among the cards shown (a card dragged, or
// carried with the keyboard). Kept for the deal; the caller redraws.
export function placeCard(id, index) {
  const ids = handItems()
    .map((item) => item.id)
    .filter((other) => other !== id);
  ids.splice(Math.max(0, Math.min(index, ids.length)), 0, id);
  const staged = state.hand.order.filter((other) => !ids.includes(other));
  setOrder(ids.concat(staged));
  saveOrder();
}

// Move the selected cards one place left (-1) or right (+1) in the hand.
export function moveSelected(direction) {
  const selected = state.hand.selected;
  const ids = handItems().map((item) => item.id);
  if (!selected.size) return false;
  const order = [...ids];
  const range = direction < 0 ? order.keys() : [...order.keys()].reverse();
  for (const i of range) {
    const j = i + direction;
    if (!selected.has(order[i]) || j < 0 || j >= order.length || selected.has(order[j])) continue;
    [order[i], order[j]] = [order[j], order[i]];
  }
  const staged = state.hand.order.filter((id) => !ids.includes(id));
  setOrder(order.concat(staged));
  saveOrder();
  changed();
  return true;
}

// A meld of the opening row goes back into the hand.
export function putBack(index) {
  unstage(index);
  changed();
}

export function cancelOpening() {
  clearStaged();
  changed();
}
