// Arranging the hand by hand: a card dragged with the mouse or a finger (Pointer
// Events) takes the place of the card it passes over. A press that does not travel is
// an ordinary click (it selects); a drag is no click. The order is the hand's own
// (hand.js keeps it for the deal). What moved is said to screen readers.

import { cardName } from "../cards.js";
import { $ } from "../dom.js";
import { gettext, interpolate } from "../i18n.js";
import { handItems, placeCard } from "./hand.js";
import { changed, markDragMoved, setDrag, setSwallowClick, state } from "./store.js";

// How far (px) a press travels before it is a drag and no longer a click.
const DRAG_START = 8;

// Said once by the hand's live region (#hand-announce): a move, a pick-up, a drop.
export function announce(text) {
  const region = $("hand-announce");
  if (!region) return;
  // The same words twice in a row are still read: clear, then write.
  region.textContent = "";
  window.setTimeout(() => {
    region.textContent = text;
  }, 30);
}

export function announcePlace(id) {
  const items = handItems();
  const index = items.findIndex((item) => item.id === id);
  if (index < 0) return;
  announce(
    interpolate(
      gettext("%(card)s is now card %(place)s of %(count)s."),
      { card: cardName(items[index].card), place: index + 1, count: items.length },
      true,
    ),
  );
}

function cardNode(id) {
  return $("hand").querySelector(`.hand-card[data-id="${id}"]`);
}

function onPointerDown(event) {
  if (event.button !== 0 || !event.isPrimary) return;
  const card = event.target.closest(".hand-card");
  if (!card) return;
  setDrag({ id: Number(card.dataset.id), pointerId: event.pointerId, x: event.clientX, y: event.clientY, moved: false });
}

function onPointerMove(event) {
  const drag = state.hand.drag;
  if (!drag || event.pointerId !== drag.pointerId) return;
  if (!drag.moved) {
    if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < DRAG_START) return;
    markDragMoved();
  }
  event.preventDefault();
  follow(drag.id, event);
}

// The dragged card takes the place of the card under the pointer.
function follow(id, event) {
  const node = cardNode(id);
  if (!node) return;
  node.classList.add("dragging");
  $("hand").classList.add("hand-dragging");
  // The card on top under the pointer (cards overlap: the visible strip decides).
  const under = document.elementFromPoint(event.clientX, event.clientY);
  const target = under && under.closest("#hand .hand-card");
  if (!target || target === node) return;
  const ids = handItems().map((item) => item.id);
  const to = ids.indexOf(Number(target.dataset.id));
  const from = ids.indexOf(id);
  if (to < 0 || from < 0) return;
  placeCard(id, to);
  if (to > from) target.after(node);
  else target.before(node);
}

function onPointerEnd(event) {
  const drag = state.hand.drag;
  if (!drag || event.pointerId !== drag.pointerId) return;
  const { id, moved } = drag;
  // Pointer moves may be merged: the place where the card was let go decides.
  if (moved && event.type === "pointerup") follow(id, event);
  setDrag(null);
  $("hand").classList.remove("hand-dragging");
  if (!moved) return;
  // The click that follows the release is the end of the drag, not a selection.
  setSwallowClick(event.type === "pointerup");
  window.setTimeout(() => setSwallowClick(false), 0);
  changed();
  announcePlace(id);
}

function onClickCapture(event) {
  if (!state.hand.swallowClick) return;
  setSwallowClick(false);
  event.preventDefault();
  event.stopPropagation();
}

export function wireReorder() {
  const hand = $("hand");
  hand.addEventListener("pointerdown", onPointerDown);
  hand.addEventListener("click", onClickCapture, true);
  window.addEventListener("pointermove", onPointerMove, { passive: false });
  window.addEventListener("pointerup", onPointerEnd);
  window.addEventListener("pointercancel", onPointerEnd);
  // A card dragged with the mouse is not an image or a text selection being dragged.
  hand.addEventListener("dragstart", (event) => event.preventDefault());
}
