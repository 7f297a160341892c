// Why a click on the discard pile does nothing now, in one sentence for the player:
// the pile answers every click, with the move or with the reason there is none.

import { gettext, interpolate } from "../i18n.js";
import { selectedItems } from "./hand.js";
import { state } from "./store.js";
import { can, deal, mySeat, myTurn, ruleset } from "./view.js";

export function discardPileRefusal() {
  const d = deal();
  const v = state.view;
  if (!d || !v || v.you === null || v.status !== "active" || v.pause) return null;
  if (!myTurn()) return gettext("It is not your turn yet.");
  if (d.phase === "draw") {
    if (can("take")) return null;
    if (!d.discard.length) return gettext("The discard pile is empty: draw from the stock.");
    if (ruleset().discard_take === "opened_only" && !d.opened[mySeat()]) {
      return gettext("Only a player who has opened may take from the discard pile: draw from the stock.");
    }
    return gettext("You may not take from the discard pile now: draw from the stock.");
  }
  if (!can("discard")) return null;
  const count = selectedItems().length;
  if (count === 0) return gettext("Select the one card to throw away, then the discard pile.");
  if (count > 1) {
    return interpolate(gettext("%(count)s cards are selected: only one card is discarded."), { count }, true);
  }
  return null;
}
