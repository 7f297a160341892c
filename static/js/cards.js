// Cards: parsing the API's notation ("7H", "10D", "JK"), drawing them, sorting a hand.
// No rules here: what makes a meld and what it is worth is the engine's alone, asked
// through POST /api/v1/games/{id}/melds/check (table/meld-check.js).

// Every page that draws cards colours them as the player chose (two or four colours).
import "./deck-colours.js";
import { el } from "./dom.js";
import { gettext, interpolate } from "./i18n.js";

export const SUITS = {
  S: { symbol: "♠", name: gettext("spades"), red: false },
  H: { symbol: "♥", name: gettext("hearts"), red: true },
  C: { symbol: "♣", name: gettext("clubs"), red: false },
  D: { symbol: "♦", name: gettext("diamonds"), red: true },
};
// Alternating colours when sorted by suit.
const SUIT_ORDER = ["S", "H", "C", "D"];
const RANK_LABEL = { 1: "A", 11: "J", 12: "Q", 13: "K" };
const RANK_NAME = { 1: gettext("ace"), 11: gettext("jack"), 12: gettext("queen"), 13: gettext("king") };

export function parseCard(text) {
  if (text === "JK") return { text, joker: true, rank: null, suit: null };
  const suit = text.slice(-1);
  const head = text.slice(0, -1);
  const rank = { A: 1, J: 11, Q: 12, K: 13 }[head] ?? Number(head);
  return { text, joker: false, rank, suit };
}

export function rankLabel(rank) {
  return RANK_LABEL[rank] ?? String(rank);
}

export function cardName(text) {
  const card = parseCard(text);
  if (card.joker) return gettext("joker");
  // Translators: a card's name, e.g. "7 of hearts", "queen of spades".
  return interpolate(gettext("%(rank)s of %(suit)s"), { rank: RANK_NAME[card.rank] ?? card.rank, suit: SUITS[card.suit].name }, true);
}

// A card as a player types it: as the table draws it ("7♥", "10♠", "A♦", "★" or the
// word for a joker) or in the API's notation ("7H", "JK"); null for anything else.
const SYMBOL_SUIT = { "♠": "S", "♥": "H", "♣": "C", "♦": "D" };
export function cardFromTyped(typed) {
  const text = typed.trim();
  if (text === "★" || text.toLowerCase() === gettext("Joker").toLowerCase()) return "JK";
  const code = text.toUpperCase();
  const suit = SYMBOL_SUIT[text.slice(-1)] ?? code.slice(-1);
  const head = code.slice(0, code.length - 1);
  if (code === "JK") return "JK";
  if (!"SHCD".includes(suit) || !/^(10|[2-9AJQK])$/.test(head)) return null;
  return head + suit;
}

// "7♥" for log lines and messages.
export function cardShort(text) {
  const card = parseCard(text);
  if (card.joker) return gettext("Joker");
  return rankLabel(card.rank) + SUITS[card.suit].symbol;
}

// The face of a card inside ``node`` (a <button> or <span>): corners and a centre pip.
export function drawFace(node, text) {
  const card = parseCard(text);
  node.classList.add("pcard");
  node.dataset.card = text;
  if (card.joker) {
    node.classList.add("card-joker");
    const corner = el("span", "corner corner-top");
    corner.append(el("span", "corner-joker", gettext("JOKER")));
    const bottom = corner.cloneNode(true);
    bottom.className = "corner corner-bottom";
    const centre = el("span", "pip pip-joker");
    centre.append(el("span", "joker-star", "★"));
    node.append(corner, centre, bottom);
    return node;
  }
  const suit = SUITS[card.suit];
  node.classList.add(suit.red ? "card-red" : "card-black", `suit-${card.suit}`);
  const label = rankLabel(card.rank);
  const corner = el("span", "corner corner-top");
  corner.append(el("span", "corner-rank", label), el("span", "corner-suit", suit.symbol));
  const bottom = corner.cloneNode(true);
  bottom.className = "corner corner-bottom";
  let centre;
  if (card.rank >= 11) {
    centre = el("span", "pip pip-court");
    centre.append(el("span", "court-rank", label), el("span", "court-suit", suit.symbol));
  } else {
    centre = el("span", "pip", suit.symbol);
  }
  node.append(corner, centre, bottom);
  return node;
}

export function cardElement(text, { tag = "span", id = null } = {}) {
  const node = drawFace(document.createElement(tag), text);
  if (id !== null) node.dataset.id = String(id);
  if (tag !== "button") node.setAttribute("aria-hidden", "true");
  return node;
}

export function backElement(className = "") {
  return el("span", `pcard card-back ${className}`.trim());
}

// ------------------------------------------------------------------ sorting

function suitKey(card) {
  return card.joker ? 99 : SUIT_ORDER.indexOf(card.suit);
}

// "1-2-3": runs, by suit then A..K; jokers last.
export function sortBySuit(items) {
  return [...items].sort((a, b) => {
    const x = parseCard(a.card);
    const y = parseCard(b.card);
    return suitKey(x) - suitKey(y) || (x.rank ?? 99) - (y.rank ?? 99) || a.id - b.id;
  });
}

// "3-3-3": sets, by rank A..K then suit; jokers last.
export function sortByRank(items) {
  return [...items].sort((a, b) => {
    const x = parseCard(a.card);
    const y = parseCard(b.card);
    return (x.rank ?? 99) - (y.rank ?? 99) || suitKey(x) - suitKey(y) || a.id - b.id;
  });
}
