// The table's one store: everything about the table that changes over time is in
// ``state``. Every module may read it; only the functions here change it. Changes are
// not drawn by themselves: the caller publishes ``changed()`` once its updates are
// done, so a move that touches the selection, the order and the opening row is drawn
// once, at the moment the page always drew it.

function newCheck() {
  return {
    asked: null, // the key of the latest question
    answered: null, // {key, answer, error}
    seq: 0,
    timer: null,
  };
}

const state = {
  view: null, // the game as the API last showed it to this viewer
  raw: "", // that view as received, to skip re-rendering an unchanged poll
  missing: false, // 404: a private game we may join with the invite code
  loaded: false,
  busy: false,
  pushWhileBusy: false, // a push came while a request of ours was under way
  lastError: null,
  hand: {
    order: [], // the hand as the player arranged it (card ids)
    orderKey: null, // where that order is kept (localStorage), one key per deal
    selected: new Set(),
    staged: [], // the opening row: [{items: [{id, card}]}], each meld as the player picked it
    fresh: new Set(), // cards that just arrived in the hand
    drag: null, // a card being dragged (reorder.js): {id, pointerId, x, y, moved}
    swallowClick: false, // the click that ends a drag is no selection
    drawnLook: null, // what the hand's buttons were last drawn from (render-hand.js)
  },
  log: {
    ply: 0, // the last move shown in the log
    deal: null,
    started: false,
    syncing: false,
    again: false,
  },
  summaries: {
    dealPly: 0, // the ply of the last deal result shown in a dialog
    gameOver: false,
  },
  absent: {
    body: null, // GET /absent: the table waiting for an absent player
    decided: null, // what was decided about the last absent player (shown once)
    by: null, // "host" or "default", from the websocket's absent_decided event
    dismissed: null, // the host closed the choice dialog for this wait (its key)
    loading: false,
    again: false,
  },
  // The questions to the server about melds: the opening row's and the selection's.
  checks: { staging: newCheck(), selection: newCheck() },
  chips: {
    balance: null, // the viewer's chips (GET /me/chips)
    status: null, // the game's status when it was read: a new status reads it again
    loading: false,
  },
  rematch: {
    offer: null, // the rematch as the API shows it; null while none was offered
    shown: false, // the panel is shown (the viewer's game is finished)
    busy: false, // a request of the panel's is under way
    frameWhileBusy: false, // a frame about the offer came meanwhile: read it again after
    leavingFor: null, // the started rematch's page this one is loading (once)
    follow: () => {}, // subscribes the page's live connection to the account's events
  },
  review: {
    key: null, // what the panel was drawn for: the number of ended deals and the status
    numbers: [], // the ended deals
    chosen: null, // the deal whose review is shown
    asked: 0, // the request under way, by its token (a newer one makes an older answer moot)
    timer: null, // the next question while a review is being prepared
  },
  activeAt: Date.now(), // when the person last used the page (seen.js)
};

export { state };

// ------------------------------------------------------------------ subscriptions

// "view": a new view of the game was taken in (the listener gets the one before it);
// "change": the table needs drawing again.
const listeners = { view: [], change: [] };

export function subscribe(topic, listener) {
  listeners[topic].push(listener);
}

export function publish(topic, detail) {
  for (const listener of listeners[topic]) listener(detail);
}

export function changed() {
  publish("change");
}

// ------------------------------------------------------------------ the game

export function setView(view) {
  state.raw = JSON.stringify(view);
  state.view = view;
}

export function setRaw(raw) {
  state.raw = raw;
}

// A game that is not found (404) has no view.
export function setMissing(missing) {
  state.missing = missing;
  if (missing) state.view = null;
}

export function markLoaded() {
  state.loaded = true;
}

export function setBusy(busy) {
  state.busy = busy;
}

// A push came while a request of ours was under way: the request's answer may be older
// than what the push announced, so the state is read again once it is in (actions.js).
export function notePushWhileBusy() {
  state.pushWhileBusy = true;
}

// Whether a push came during the request just ended (and forget it).
export function takePushWhileBusy() {
  const missed = state.pushWhileBusy;
  state.pushWhileBusy = false;
  return missed;
}

export function setLastError(error) {
  state.lastError = error;
}

// ------------------------------------------------------------------ the hand

// A new deal (or none): a fresh order, nothing selected, staged or new.
export function resetHand(orderKey, order) {
  const hand = state.hand;
  hand.orderKey = orderKey;
  hand.order = order;
  hand.staged = [];
  hand.selected.clear();
  hand.fresh.clear();
}

export function setOrder(ids) {
  state.hand.order = ids;
}

export function setDrag(drag) {
  state.hand.drag = drag;
}

export function markDragMoved() {
  state.hand.drag.moved = true;
}

export function setSwallowClick(swallow) {
  state.hand.swallowClick = swallow;
}

export function setDrawnLook(look) {
  state.hand.drawnLook = look;
}

export function setFresh(ids) {
  state.hand.fresh = new Set(ids);
}

export function clearFresh() {
  state.hand.fresh.clear();
}

export function select(id) {
  state.hand.selected.add(id);
}

export function deselect(id) {
  state.hand.selected.delete(id);
}

export function clearSelection() {
  state.hand.selected.clear();
}

export function stage(items) {
  state.hand.staged.push({ items });
}

export function unstage(index) {
  state.hand.staged.splice(index, 1);
}

export function clearStaged() {
  state.hand.staged = [];
}

// ------------------------------------------------------------------ the side panels

export function updateLog(fields) {
  Object.assign(state.log, fields);
}

export function updateSummaries(fields) {
  Object.assign(state.summaries, fields);
}

export function updateAbsent(fields) {
  Object.assign(state.absent, fields);
}

export function updateCheck(name, fields) {
  Object.assign(state.checks[name], fields);
}

export function markActive(now) {
  state.activeAt = now;
}

export function updateChips(fields) {
  Object.assign(state.chips, fields);
}

export function updateRematch(fields) {
  Object.assign(state.rematch, fields);
}

// ------------------------------------------------------------------ the deal's review

export function updateReview(changes) {
  Object.assign(state.review, changes);
}
