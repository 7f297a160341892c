// The table's keyboard: the keys listed in the page's "How to play & keys" panel.

import { $ } from "../dom.js";
import { discardSelected, draw, layGroup, openNow, takeDiscard } from "./actions.js";
import { deselectAll, handItems, moveSelected, sortHand } from "./hand.js";
import { focusHand, focusMelds, openKeyboardHelp } from "./keyboard-help.js";
import { announcePlace } from "./reorder.js";
import { state } from "./store.js";

// The letter keys by the physical key (KeyboardEvent.code), not the character typed: on
// a Cyrillic layout the key of Latin D types "д", and it draws all the same. The hints
// show each key as the player's layout prints it (key-labels.js).
const LETTER_KEYS = Object.freeze({
  KeyD: () => draw().then(() => focusHand()),
  KeyT: () => takeDiscard().then(() => focusHand()),
  KeyX: () => discardSelected(),
  KeyL: () => layGroup().then(() => focusHand()),
  KeyO: () => openNow().then(() => focusHand()),
  KeyH: () => focusHand(),
  KeyM: () => focusMelds(),
});

export function onKey(event) {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  if (target && (target.matches("input, textarea, select") || target.isContentEditable)) return;
  if ($("summary").open || $("absent-dialog").open || $("keyboard-help").open) return;
  const key = event.key;
  if (key === "ArrowLeft" || key === "ArrowRight") {
    const direction = key === "ArrowLeft" ? -1 : 1;
    // Shift walks the focus even with cards selected, to select more of them.
    if (!event.shiftKey && moveSelected(direction)) {
      event.preventDefault();
      announceMoved();
      return;
    }
    moveFocus(direction, event);
  } else if (key === "ArrowDown" || key === "Escape") {
    if (state.hand.selected.size) {
      event.preventDefault();
      deselectAll();
    }
  } else if (key === "1") sortHand("suit");
  else if (key === "3") sortHand("rank");
  else if (LETTER_KEYS[event.code]) LETTER_KEYS[event.code]();
  else if (key === "?") {
    event.preventDefault();
    openKeyboardHelp();
  }
}

// The moved cards' new place, said for the focused card (or the first one moved).
function announceMoved() {
  const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest("#hand .hand-card");
  const id = focused && state.hand.selected.has(Number(focused.dataset.id)) ? Number(focused.dataset.id) : null;
  const first = handItems().find((item) => state.hand.selected.has(item.id));
  if (id !== null) announcePlace(id);
  else if (first) announcePlace(first.id);
}

// Nothing selected: the arrows walk the focus along the hand.
function moveFocus(direction, event) {
  const cards = [...$("hand").querySelectorAll(".pcard")];
  const index = cards.indexOf(document.activeElement);
  if (index >= 0) {
    const next = cards[Math.min(cards.length - 1, Math.max(0, index + direction))];
    next.focus();
    event.preventDefault();
  }
}
