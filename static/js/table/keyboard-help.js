// The keyboard's way around the table: to the hand, to the melds, and the dialog that
// lists every key (opened with "?" or the hand tools' "Keyboard" button).

import { $ } from "../dom.js";

// The focus goes to the card that just arrived, else the first card of the hand.
export function focusHand() {
  const hand = $("hand");
  const card = hand.querySelector(".hand-card.card-fresh, .hand-card.card-taken") || hand.querySelector(".hand-card");
  if (card) card.focus();
}

// The first meld on the table that takes the selected cards (else the first meld).
export function focusMelds() {
  const meld = $("melds").querySelector(".meld-target") || $("melds").querySelector(".meld");
  if (!meld) return;
  if (!meld.hasAttribute("tabindex")) meld.tabIndex = -1;
  meld.focus();
}

export function openKeyboardHelp() {
  const dialog = $("keyboard-help");
  if (!dialog.open) dialog.showModal();
}

export function wireKeyboardHelp() {
  $("keyboard-button").addEventListener("click", openKeyboardHelp);
}
