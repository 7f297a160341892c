// Drawing one table state of the replay: every hand face up, the melds, the piles, whose
// turn it is. Cards are named by id in the state and looked up in the deal's ``cards``.

import { cardElement, sortBySuit } from "../cards.js";
import { $, el } from "../dom.js";
import { formatNumber, gettext, interpolate, ngettext } from "../i18n.js";
import { shownName } from "../names.js";

function cardsOf(ids, cards, className) {
  const row = el("div", className);
  for (const id of ids) row.append(cardElement(cards[id], { id }));
  return row;
}

function seatBlock(seat, name, state, cards, lastMover, total) {
  const position = seat.position;
  const block = el("section", "replay-seat");
  block.dataset.seat = String(position);
  if (state.to_move === position) block.classList.add("seat-to-move");
  if (lastMover === position) block.classList.add("replay-last-mover");
  const head = el("div", "replay-seat-head");
  head.append(el("strong", "seat-label", name));
  const hand = state.hands[position];
  head.append(el("span", "muted small", interpolate(ngettext("%(count)s card", "%(count)s cards", hand.length), { count: hand.length }, true)));
  if (state.opened[position]) head.append(el("span", "replay-tag", gettext("opened")));
  if (state.to_move === position) head.append(el("span", "replay-tag replay-tag-turn", gettext("to move")));
  if (total !== null) head.append(el("span", "seat-total small", interpolate(gettext("total %(total)s"), { total }, true)));
  // Sorted by suit, as a player would hold them: easier to read than the order dealt.
  const sorted = sortBySuit(hand.map((id) => ({ id, card: cards[id] }))).map((pair) => pair.id);
  block.append(head, cardsOf(sorted, cards, "replay-hand"));
  block.setAttribute("aria-label", name);
  return block;
}

export function renderState(replay, deal, index) {
  const state = deal.states[index];
  const cards = deal.cards;
  const move = index > 0 ? deal.moves[index - 1] : null;
  const seats = $("replay-seats");
  const totals = deal.result && index === deal.states.length - 1 ? deal.result.totals : null;
  seats.replaceChildren(
    ...replay.seats.map((seat) =>
      seatBlock(seat, seatName(replay, seat.position), state, cards, move ? move.seat : null, totals ? totals[seat.position] : null),
    ),
  );
  const melds = $("replay-melds");
  melds.replaceChildren(
    ...state.table.map((meld, i) => {
      const node = cardsOf(meld.cards, cards, "meld");
      node.dataset.index = String(i);
      node.title = interpolate(gettext("Laid by %(name)s"), { name: seatName(replay, meld.owner) }, true);
      return node;
    }),
  );
  if (!state.table.length) melds.append(el("p", "muted small", gettext("No melds on the table yet.")));
  const discard = $("replay-discard");
  const top = state.discard.length ? state.discard[state.discard.length - 1] : null;
  discard.replaceChildren(top === null ? el("span", "discard-empty", gettext("Discard")) : cardElement(cards[top], { id: top }));
  $("replay-discard-label").textContent = interpolate(
    ngettext("Discard pile: %(count)s card", "Discard pile: %(count)s cards", state.discard.length),
    { count: state.discard.length },
    true,
  );
  $("replay-stock").textContent = interpolate(
    ngettext("Stock: %(count)s card", "Stock: %(count)s cards", state.stock_count),
    { count: state.stock_count },
    true,
  );
}

export function seatName(replay, position) {
  const seat = replay.seats.find((s) => s.position === position);
  if (!seat) return interpolate(gettext("seat %(seat)s"), { seat: position }, true);
  return shownName(seat.user, replay.seats.map((other) => other.user));
}

export function renderResult(replay, deal, atEnd) {
  const panel = $("replay-result");
  const result = deal.result;
  panel.hidden = !(atEnd && result);
  if (panel.hidden) return;
  const table = $("replay-scores");
  const head = el("tr");
  for (const text of [gettext("Player"), gettext("Score"), gettext("Total")]) head.append(el("th", null, text));
  const rows = replay.seats.map((seat) => {
    const row = el("tr");
    const name = seatName(replay, seat.position) + (result.winner === seat.position ? " ★" : "");
    row.append(
      el("td", null, name),
      el("td", null, formatNumber(result.scores[seat.position])),
      el("td", null, formatNumber(result.totals[seat.position])),
    );
    return row;
  });
  table.replaceChildren(head, ...rows);
}
