// What the player does at the table, sent to the API. A move goes with the ply it was
// made on; the server judges it, and its answer is the new view of the game.

import { api, newKey } from "../api.js";
import { parseCard } from "../cards.js";
import { gettext, interpolate } from "../i18n.js";
import { selectedItems, stagedMelds } from "./hand.js";
import { checkMelds, meldCheckAnswer } from "./meld-check.js";
import { API, LOBBY_URL, root } from "./page.js";
import { apply, refresh } from "./refresh.js";
import {
  changed,
  clearSelection,
  clearStaged,
  deselect,
  select,
  setBusy,
  setLastError,
  setMissing,
  stage,
  state,
  takePushWhileBusy,
} from "./store.js";
import { discardPileRefusal } from "./pile-refusal.js";
import { toast } from "./toast.js";
import { can, deal, mySeat, myTurn, ruleset } from "./view.js";

// A request of ours is over: a push that came meanwhile is read now.
function idle() {
  setBusy(false);
  if (takePushWhileBusy()) refresh();
}

// One request that is not a move (join, start, resign…); null if it was refused.
export async function call(path, options = {}) {
  if (state.busy) return null;
  setBusy(true);
  root.classList.add("busy");
  try {
    return await api(path, options);
  } catch (error) {
    toast(error.message);
    if (error.status === 409 || error.status === 403) await refresh();
    return null;
  } finally {
    idle();
    root.classList.remove("busy");
  }
}

// Send one action with the ply it was made on. Returns true if the server took it.
export async function act(action, { quiet = false } = {}) {
  if (state.busy || !state.view) return false;
  setBusy(true);
  root.classList.add("busy");
  try {
    const result = await api(`${API}/actions`, {
      method: "POST",
      body: { action, ply: state.view.ply },
      headers: { "Idempotency-Key": newKey() },
    });
    apply(result.game);
    return true;
  } catch (error) {
    if (!quiet) toast(error.message);
    setLastError(error);
    if (error.code === "stale_ply" || error.status === 409) {
      if (quiet) toast(gettext("The game moved on: the table was refreshed."), "info");
      await refresh();
    }
    return false;
  } finally {
    idle();
    root.classList.remove("busy");
  }
}

// ------------------------------------------------------------------ the turn

export async function draw() {
  if (!myTurn() || !can("draw")) return;
  await act({ type: "draw" });
}

export async function takeDiscard() {
  if (myTurn() && can("take") && deal().phase === "draw") await act({ type: "take" });
}

export function undoTake() {
  return act({ type: "undo" });
}

export async function onDiscardPile() {
  const refusal = discardPileRefusal();
  if (refusal) {
    toast(refusal, "info");
    return;
  }
  const d = deal();
  if (!myTurn()) return;
  if (d.phase === "draw" && can("take")) {
    await act({ type: "take" });
    return;
  }
  await discardSelected();
}

export async function discardSelected() {
  const items = selectedItems();
  if (!myTurn() || !can("discard")) return;
  if (items.length !== 1) {
    toast(gettext("Select exactly one card to discard."), "info");
    return;
  }
  if (state.hand.staged.length) {
    toast(gettext('Lay your opening down ("Open") or cancel it before you discard.'));
    return;
  }
  clearSelection();
  const ok = await act({ type: "discard", card: items[0].card });
  if (!ok) {
    select(items[0].id);
    changed();
  }
}

export async function layGroup() {
  const d = deal();
  const items = selectedItems();
  if (!myTurn() || d.phase !== "play" || items.length < 3 || state.busy) return;
  if (!d.opened[mySeat()]) {
    // Into the opening row; the server says what it is worth (renderStaging).
    stage(items);
    clearSelection();
    changed();
    return;
  }
  // Ask the server how the cards are laid out (where a joker goes), then lay them.
  let meld;
  setBusy(true);
  try {
    meld = (await checkMelds([items.map((item) => item.id)])).melds[0];
  } catch (error) {
    toast(error.message);
    return;
  } finally {
    idle();
  }
  if (!meld.valid) {
    toast(meld.message);
    return;
  }
  const ok = await act({ type: "lay", melds: [meld.cards.map((item) => item.card)] });
  if (ok) {
    clearSelection();
    changed();
  }
}

export async function openNow() {
  if (!state.hand.staged.length) return;
  const done = meldCheckAnswer("staging", stagedMelds());
  if (!done || !done.answer || !done.answer.opening.valid) return;
  const melds = done.answer.melds.map((meld) => meld.cards.map((item) => item.card));
  const ok = await act({ type: "lay", melds });
  if (ok) {
    clearStaged();
    changed();
    toast(gettext("You opened!"), "info");
  }
}

// A click on a table meld with cards selected: swap a joker (the joker itself was
// clicked) or lay the cards off. From the keyboard (Enter on a meld) a joker swap is
// tried first when the meld holds one; Shift+Enter puts a joker at the low end.
export async function onMeld(meld, position, { fromKeyboard = false } = {}) {
  if (!myTurn() || deal().phase !== "play") return;
  const items = selectedItems();
  if (!items.length) {
    toast(gettext("Select a card from your hand first, then click the meld."), "info");
    return;
  }
  const clicked = position === null ? null : meld.cards[position];
  const allReal = items.every((item) => !parseCard(item.card).joker);
  const hasJoker = meld.cards.some((pair) => pair.card === "JK");
  const swap = clicked ? clicked.card === "JK" : fromKeyboard && hasJoker;
  if (swap && allReal && can("swap")) {
    const cards = items.map((item) => item.card);
    const ok = await act({ type: "swap", cards, meld: meld.index }, { quiet: fromKeyboard });
    if (ok) {
      clearSelection();
      changed();
    }
    if (ok || !fromKeyboard) return;
  }
  if (!can("off")) {
    toast(
      deal().opened[mySeat()]
        ? gettext("Nothing can be laid off now.")
        : interpolate(gettext("Open first (%(points)s+) before you lay off."), { points: ruleset().opening_minimum }, true),
    );
    return;
  }
  // Several cards: lay each where it fits, in any order that works.
  let pending = [...items];
  while (pending.length) {
    const left = [];
    let laid = false;
    for (const item of pending) {
      const joker = parseCard(item.card).joker;
      const action = { type: "off", card: item.card, meld: meld.index, end: joker && position === 0 ? "low" : null };
      if (await act(action, { quiet: true })) {
        deselect(item.id);
        laid = true;
      } else {
        if (state.lastError && state.lastError.status === 409) return;
        left.push(item);
      }
    }
    pending = left;
    if (!laid) break;
  }
  if (pending.length && state.lastError) toast(state.lastError.message);
  changed();
}

// ------------------------------------------------------------------ the seat

export async function join(code) {
  const result = await call(`${API}/join`, { method: "POST", body: { invite_code: code || "" } });
  if (result) {
    setMissing(false);
    apply(result);
    toast(gettext("You joined the game."), "info");
  }
}

export async function start() {
  const result = await call(`${API}/start`, { method: "POST" });
  if (result) apply(result);
}

export async function resign() {
  if (!window.confirm(gettext("Resign this game? Your total stays and the server plays your seat."))) return;
  const result = await call(`${API}/resign`, { method: "POST" });
  if (result) apply(result);
}

export async function leave() {
  try {
    await api(`${API}/leave`, { method: "POST" });
    window.location.href = LOBBY_URL;
  } catch (error) {
    toast(error.message);
  }
}

export async function abort() {
  if (!window.confirm(gettext("Cancel this game for everyone?"))) return;
  const result = await call(`${API}/abort`, { method: "POST" });
  if (result) apply(result);
}
