// The cards drawn for the seats before the first deal (rules that seat the players by
// drawn cards): shown clockwise from the starter, with the cards drawn again for a tie.

import { cardShort } from "../cards.js";
import { $, el } from "../dom.js";
import { gettext } from "../i18n.js";
import { state } from "./store.js";
import { seatName } from "./view.js";

export function renderSeating() {
  const seating = state.view.seating;
  const panel = $("seating-panel");
  panel.hidden = !seating;
  if (!seating) return;
  const list = $("seating");
  list.replaceChildren();
  const seats = seating.cards.length;
  for (let k = 0; k < seats; k += 1) {
    const position = (seating.starter + k) % seats;
    const item = el("li", "seating-row");
    item.dataset.seat = String(position);
    const drawn = seating.cards[position].map(cardShort);
    item.append(el("span", "seating-name", seatName(position)), el("span", "seating-cards", drawn.join(` ${gettext("then")} `)));
    if (k === 0) item.append(el("span", "badge", gettext("starts")));
    list.append(item);
  }
}
