// A move of the replay in words: who did what with which cards. The game is over, so
// every card drawn is named.

import { cardShort } from "../cards.js";
import { gettext, interpolate } from "../i18n.js";

function cardsText(pairs) {
  return pairs.map((pair) => cardShort(pair.card)).join(" ");
}

function ownerText(owner, mover, seatName) {
  if (owner === null || owner === undefined) return gettext("a meld");
  if (owner === mover) return gettext("their own meld");
  return interpolate(gettext("%(name)s's meld"), { name: seatName(owner) }, true);
}

// ``before`` is the table the move was made at (to name the owner of a meld).
export function describeMove(move, before, seatName) {
  const e = move.event || {};
  const who = seatName(move.seat);
  const meld = before && e.meld !== undefined && e.meld !== null ? before.table[e.meld] : null;
  const owner = meld ? meld.owner : null;
  let text;
  switch (e.type || move.kind) {
    case "draw":
      text = e.card
        ? interpolate(gettext("%(name)s drew %(card)s from the stock"), { name: who, card: cardShort(e.card.card) }, true)
        : interpolate(gettext("%(name)s drew from the stock"), { name: who }, true);
      break;
    case "take":
      text = interpolate(gettext("%(name)s took %(card)s from the discard pile"), { name: who, card: cardShort(e.card.card) }, true);
      break;
    case "undo":
      text = interpolate(
        gettext("%(name)s put %(card)s back and drew from the stock"),
        { name: who, card: cardShort(e.returned.card) },
        true,
      );
      break;
    case "lay":
      text = interpolate(gettext("%(name)s laid down %(melds)s"), { name: who, melds: (e.melds || []).map(cardsText).join(" · ") }, true);
      break;
    case "off":
      text = interpolate(
        gettext("%(name)s laid %(card)s off onto %(meld)s"),
        { name: who, card: cardShort(e.card.card), meld: ownerText(owner, move.seat, seatName) },
        true,
      );
      break;
    case "swap":
      text = interpolate(gettext("%(name)s gave %(cards)s for a joker"), { name: who, cards: cardsText(e.cards) }, true);
      break;
    case "discard":
      text = interpolate(gettext("%(name)s discarded %(card)s"), { name: who, card: cardShort(e.card.card) }, true);
      break;
    case "resign":
      text = interpolate(gettext("%(name)s resigned"), { name: who }, true);
      break;
    default:
      text = interpolate(gettext("%(name)s: %(kind)s"), { name: who, kind: move.kind }, true);
  }
  if (move.by_server) text += " " + gettext("(played by the server)");
  if (e.reshuffled) text += " " + gettext("The discard pile was shuffled into a new stock.");
  return text;
}
