// The table's switch between the two-colour and the four-colour deck (the setting
// itself is ../deck-colours.js: the account's, or this browser's for a visitor).

import { deckColours, setDeckColours } from "../deck-colours.js";
import { $ } from "../dom.js";
import { gettext } from "../i18n.js";
import { announce } from "./reorder.js";

function show(colours) {
  $("deck-colours").setAttribute("aria-pressed", String(colours === "four"));
}

async function toggle() {
  const colours = await setDeckColours(deckColours() === "four" ? "two" : "four");
  show(colours);
  announce(colours === "four" ? gettext("Four-colour deck: ♦ blue, ♣ green.") : gettext("Two-colour deck."));
}

export function wireDeckToggle() {
  const button = $("deck-colours");
  show(deckColours());
  button.addEventListener("click", toggle);
}
