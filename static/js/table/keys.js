// The table's keyboard: the keys listed in the page's "How to play & keys" panel.

import { $ } from "../dom.js";
import { discardSelected, draw, layGroup, takeDiscard } from "./actions.js";
import { deselectAll, moveSelected, sortHand } from "./hand.js";
import { state } from "./store.js";

export function onKey(event) {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  if (target && (target.matches("input, textarea, select") || target.isContentEditable)) return;
  if ($("summary").open || $("absent-dialog").open) return;
  const key = event.key;
  if (key === "ArrowLeft" || key === "ArrowRight") {
    const direction = key === "ArrowLeft" ? -1 : 1;
    if (moveSelected(direction)) {
      event.preventDefault();
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
  else if (key === "d" || key === "D") draw();
  else if (key === "t" || key === "T") takeDiscard();
  else if (key === "x" || key === "X") discardSelected();
  else if (key === "l" || key === "L") layGroup();
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
