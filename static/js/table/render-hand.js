// Drawing the player's side: the opening row with the server's verdict on each meld,
// the hand fitted to the width, and the tools whose state follows the selection.

import { cardElement, cardName, cardShort, drawFace } from "../cards.js";
import { $, button, el } from "../dom.js";
import { formatNumber, gettext, interpolate, ngettext } from "../i18n.js";
import { handItems, putBack, selectedItems, stagedMelds, toggle } from "./hand.js";
import { askMeldCheck, meldCheckAnswer } from "./meld-check.js";
import { setDrawnLook, state } from "./store.js";
import { can, deal, mySeat, myTurn, ruleset } from "./view.js";

export function renderStaging() {
  const staged = state.hand.staged;
  const box = $("staging");
  box.hidden = !staged.length;
  const note = $("staging-note");
  if (!staged.length) {
    $("staging-melds").replaceChildren();
    note.textContent = "";
    return;
  }
  const min = ruleset().opening_minimum;
  const melds = stagedMelds();
  askMeldCheck("staging", melds, () => {
    if (state.view) renderStaging();
  });
  const done = meldCheckAnswer("staging", melds);
  const answer = done && done.answer;
  const valid = Boolean(answer && answer.opening.valid);
  const totalNode = $("staging-total");
  totalNode.textContent = answer
    ? `${formatNumber(answer.total)} / ${formatNumber(answer.opening_minimum)}`
    : done
      ? `? / ${formatNumber(min)}`
      : gettext("checking…");
  totalNode.classList.toggle("enough", valid);
  totalNode.classList.toggle("checking", !done);
  if (done && done.error) note.textContent = interpolate(gettext("Cannot check the opening: %(error)s"), { error: done.error.message }, true);
  else if (answer && answer.melds.some((meld) => !meld.valid)) note.textContent = notAMeld(answer.opening.message);
  else if (answer && !valid && answer.opening.code !== "opening_too_low") note.textContent = answer.opening.message;
  else note.textContent = "";
  const list = $("staging-melds");
  list.replaceChildren();
  for (const [index, meld] of staged.entries()) {
    const verdict = answer ? answer.melds[index] : null;
    const node = el("div", `meld meld-staged${verdict ? ` meld-${verdict.kind || "invalid"}` : " meld-checking"}`);
    // The cards as the server lays them out (a joker in its place), once it has said.
    for (const item of verdict ? verdict.cards : meld.items) node.append(cardElement(item.card, { id: item.id }));
    const value = el("span", "meld-value", verdict ? (verdict.valid ? formatNumber(verdict.value) : "✗") : "…");
    if (verdict && !verdict.valid) {
      node.title = notAMeld(verdict.message);
      value.setAttribute("aria-label", notAMeld(verdict.message));
    }
    node.append(value);
    node.append(
      button("×", "meld-remove", () => putBack(index), {
        "aria-label": gettext("Put this meld back in your hand"),
        title: gettext("Back to hand"),
      }),
    );
    list.append(node);
  }
  const open = $("open-button");
  open.disabled = !valid || state.busy;
  const short = answer && answer.opening.code === "opening_too_low" ? answer.opening_minimum - answer.total : 0;
  open.textContent = short > 0 ? interpolate(gettext("Open (%(points)s more)"), { points: short }, true) : gettext("Open");
}

function notAMeld(message) {
  return interpolate(gettext("Not a meld: %(reason)s"), { reason: message }, true);
}

// Everything a hand card's button shows, card by card, in order.
function handLook(items, d) {
  const hand = state.hand;
  const taken = d.taken ? d.taken.id : null;
  const flags = (item) => [hand.selected.has(item.id), hand.fresh.has(item.id), taken === item.id].map(Number).join("");
  return items.map((item) => `${item.id}:${item.card}:${flags(item)}`).join(",");
}

export function renderHand() {
  const d = deal();
  const area = $("hand-area");
  area.hidden = !d || !d.hand || state.view.status !== "active";
  if (area.hidden) return;
  const hand = $("hand");
  const items = handItems();
  // The table is drawn again when anything arrives (the chips, the log, a view with a
  // new clock): cards that look the same keep their buttons, since a button replaced
  // between a press and its release takes no click and the player's tap would be lost.
  const look = handLook(items, d);
  if (look === state.hand.drawnLook && hand.querySelector(".hand-card")) {
    if (!state.hand.drag) for (const node of hand.querySelectorAll(".dragging")) node.classList.remove("dragging");
    fitHand();
    renderTools();
    return;
  }
  setDrawnLook(look);
  const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest("#hand .pcard");
  const focusId = focused ? focused.dataset.id : null;
  hand.replaceChildren();
  for (const item of items) hand.append(handCard(item, d));
  hand.dataset.count = String(items.length);
  fitHand();
  if (focusId) {
    const again = hand.querySelector(`.pcard[data-id="${focusId}"]`);
    if (again) again.focus();
  }
  renderTools();
}

function handCard(item, d) {
  const node = el("button");
  node.type = "button";
  drawFace(node, item.card);
  node.classList.add("hand-card");
  node.dataset.id = String(item.id);
  const selected = state.hand.selected.has(item.id);
  node.setAttribute("aria-pressed", String(selected));
  if (selected) node.classList.add("selected");
  let label = cardName(item.card);
  if (d.taken && d.taken.id === item.id) {
    node.classList.add("card-taken");
    node.append(el("span", "card-flag", gettext("taken")));
    label = interpolate(gettext("%(card)s, taken from the discard pile"), { card: label }, true);
  } else if (state.hand.fresh.has(item.id)) {
    node.classList.add("card-fresh");
    node.append(el("span", "card-flag", gettext("new")));
    label = interpolate(gettext("%(card)s, just drawn"), { card: label }, true);
  }
  node.setAttribute("aria-label", label);
  node.addEventListener("click", () => toggle(item.id));
  return node;
}

// Overlap the cards as much as the width asks, each keeping a strip wide enough for its
// corner ("10♥") and a fingertip; a hand that cannot keep that in one row takes as
// many rows as it needs (on a phone the rows overlap too: table-phone.css).
const MIN_STRIP_PX = 28;

export function fitHand() {
  const hand = $("hand");
  for (const node of hand.querySelectorAll(".hand-break")) node.remove();
  const cards = [...hand.querySelectorAll(".hand-card")];
  if (!cards.length) return;
  for (const card of cards) card.classList.remove("row-start", "row-next");
  const width = hand.clientWidth - 12;
  const cardWidth = cards[0].getBoundingClientRect().width || 70;
  const gap = 6;
  const stepFor = (count) => {
    if (count < 2 || count * cardWidth + (count - 1) * gap <= width) return cardWidth + gap;
    return Math.floor((width - cardWidth - 4) / (count - 1));
  };
  const least = Math.max(MIN_STRIP_PX, cardWidth * 0.4);
  let rows = 1;
  while (stepFor(Math.ceil(cards.length / rows)) < least && rows < cards.length) rows += 1;
  const perRow = Math.ceil(cards.length / rows);
  const step = Math.min(stepFor(perRow), cardWidth + gap);
  for (let start = perRow; start < cards.length; start += perRow) {
    cards[start].classList.add("row-start");
    hand.insertBefore(el("span", "hand-break"), cards[start]);
  }
  for (const card of cards.slice(perRow)) card.classList.add("row-next");
  hand.style.setProperty("--step", `${step - cardWidth}px`);
}

function renderTools() {
  const d = deal();
  const turn = myTurn();
  const items = selectedItems();
  const opened = d.opened[mySeat()];
  const firstRoundBlock = ruleset().no_opening_in_first_round && d.first_round;
  const layable = turn && d.phase === "play" && items.length >= 3 && !firstRoundBlock && (opened ? can("lay") : true);
  $("lay-group").disabled = !layable || state.busy;
  $("discard-button").disabled = !(turn && can("discard") && items.length === 1) || state.busy;
  $("undo-take").hidden = !(turn && can("undo"));
  $("deselect").disabled = !state.hand.selected.size;
  const info = $("selection-info");
  info.classList.remove("info-bad", "info-good");
  const question = items.length >= 3 ? [items.map((item) => item.id)] : [];
  askMeldCheck("selection", question, () => {
    if (deal() && deal().hand) renderTools();
  });
  if (question.length) {
    const done = meldCheckAnswer("selection", question);
    const meld = done && done.answer ? done.answer.melds[0] : null;
    if (!done) {
      info.textContent = gettext("Checking…");
    } else if (!meld) {
      info.textContent = interpolate(gettext("%(count)s selected"), { count: items.length }, true);
    } else if (meld.valid) {
      const worth = meld.kind === "run" ? gettext("Run worth %(points)s") : gettext("Set worth %(points)s");
      info.textContent = interpolate(worth, { points: meld.value }, true);
      info.classList.add("info-good");
    } else {
      info.textContent = notAMeld(meld.message);
      info.classList.add("info-bad");
    }
  } else if (items.length) {
    const cards = items.map((item) => cardShort(item.card)).join(" ");
    info.textContent = interpolate(gettext("%(count)s selected: %(cards)s"), { count: items.length, cards }, true);
  } else {
    const count = handItems().length;
    info.textContent = interpolate(ngettext("%(count)s card", "%(count)s cards", count), { count }, true);
  }
}
