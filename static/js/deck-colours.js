// The deck's colours: "two" (♠ ♣ black, ♥ ♦ red) or "four" (♦ blue, ♣ green as well).
// A signed-in player's choice is their account's: the page says it on
// <body data-card-colours> and a change is saved through PATCH /api/v1/me/settings.
// A visitor's choice is kept in this browser. The stylesheets colour the suits from
// that attribute, so every page that draws cards follows it.

import { api } from "./api.js";

const KEY = "remi:card-colours";
const COLOURS = ["two", "four"];
const SIGNED_IN = document.body.hasAttribute("data-card-colours");

function stored() {
  try {
    const value = localStorage.getItem(KEY);
    return COLOURS.includes(value) ? value : null;
  } catch {
    return null;
  }
}

function keep(value) {
  try {
    localStorage.setItem(KEY, value);
  } catch {
    // private mode: the choice lasts for this page only
  }
}

export function deckColours() {
  const value = document.body.dataset.cardColours;
  return COLOURS.includes(value) ? value : "two";
}

// The account's choice wins; a visitor gets what this browser kept.
export function applyDeckColours() {
  if (!SIGNED_IN) document.body.dataset.cardColours = stored() || "two";
}

// Shown at once; saved to the account (or the browser) behind it. Resolves to the
// colours in force: a refused save puts the previous ones back.
export async function setDeckColours(value) {
  if (!COLOURS.includes(value)) return deckColours();
  const before = deckColours();
  document.body.dataset.cardColours = value;
  if (!SIGNED_IN) {
    keep(value);
    return value;
  }
  try {
    await api("/api/v1/me/settings", { method: "PATCH", body: { card_colours: value } });
    return value;
  } catch {
    document.body.dataset.cardColours = before;
    return before;
  }
}

applyDeckColours();
