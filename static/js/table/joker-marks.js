// What a joker on the table stands for, as the server says it (the meld's ``jokers``):
// in a run one card ("= 7♣"), in a set its rank in any suit the set lacks ("= 7").

import { cardShort, parseCard } from "../cards.js";
import { el } from "../dom.js";
import { gettext, interpolate } from "../i18n.js";

function standIn(meld, position) {
  return (meld.jokers || []).find((joker) => joker.position === position) || null;
}

// The short text shown on the card: "7♣", or "7" for a set's joker.
function shortText(joker) {
  return joker.card ? cardShort(joker.card) : joker.rank;
}

// The meld's cards as words for its label, each joker with what it stands for.
export function meldWords(meld) {
  return meld.cards
    .map((pair, position) => {
      const joker = pair.card === "JK" ? standIn(meld, position) : null;
      if (!joker) return cardShort(pair.card);
      if (joker.card) return interpolate(gettext("Joker as %(card)s"), { card: cardShort(joker.card) }, true);
      return interpolate(gettext("Joker as any %(rank)s"), { rank: joker.rank }, true);
    })
    .join(" ");
}

// The mark on a joker's face in a table meld, coloured as the suit it stands for.
export function markJoker(face, meld, position) {
  const joker = standIn(meld, position);
  if (!joker) return;
  const mark = el("span", "joker-stands", `= ${shortText(joker)}`);
  mark.setAttribute("aria-hidden", "true");
  if (joker.card) mark.classList.add(`suit-${parseCard(joker.card).suit}`);
  face.append(mark);
  face.closest(".meld")?.classList.add("meld-has-joker");
}
