// Cards: parsing the API's notation ("7H", "10D", "JK"), drawing them, sorting a hand,
// and the client-side meld check used for hints and the opening total. The server is
// always the judge: this mirrors games/engine/melds.py and values.py (RULES.md §3-4)
// so that the staging row can show a running total before anything is sent.

export const SUITS = {
  S: { symbol: "♠", name: "spades", red: false },
  H: { symbol: "♥", name: "hearts", red: true },
  C: { symbol: "♣", name: "clubs", red: false },
  D: { symbol: "♦", name: "diamonds", red: true },
};
// Alternating colours when sorted by suit.
const SUIT_ORDER = ["S", "H", "C", "D"];
const RANK_LABEL = { 1: "A", 11: "J", 12: "Q", 13: "K" };
const RANK_NAME = { 1: "ace", 11: "jack", 12: "queen", 13: "king" };
const ACE_HIGH = 14;

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
  if (card.joker) return "joker";
  return `${RANK_NAME[card.rank] ?? card.rank} of ${SUITS[card.suit].name}`;
}

// "7♥" for log lines and messages.
export function cardShort(text) {
  const card = parseCard(text);
  if (card.joker) return "Joker";
  return rankLabel(card.rank) + SUITS[card.suit].symbol;
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// The face of a card inside ``node`` (a <button> or <span>): corners and a centre pip.
export function drawFace(node, text) {
  const card = parseCard(text);
  node.classList.add("pcard");
  node.dataset.card = text;
  if (card.joker) {
    node.classList.add("card-joker");
    const corner = el("span", "corner corner-top");
    corner.append(el("span", "corner-joker", "JOKER"));
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

// ------------------------------------------------------------------ melds

export function positionValue(rank, ruleset) {
  if (rank === 1) return ruleset.ace_low_value;
  if (rank === ACE_HIGH) return ruleset.ace_high_value;
  return rank < 10 ? rank : 10;
}

function fail(code, message) {
  return { ok: false, code, message };
}

// Arrange ``items`` ([{id, card}], in hand order) into a meld as it would be laid out:
// a run low to high with jokers filling the gaps, a spare joker at the high end (the
// low end when a joker is the leftmost selected card, or when the high end is full).
// Returns {ok, kind, items, value} or {ok: false, code, message}.
export function arrangeMeld(items, ruleset, { laidDown = true } = {}) {
  if (items.length < 3) return fail("too_short", "a meld needs at least 3 cards");
  const parsed = items.map((item) => ({ ...item, c: parseCard(item.card) }));
  const reals = parsed.filter((item) => !item.c.joker);
  const jokers = parsed.filter((item) => item.c.joker);
  if (!reals.length) return fail("only_jokers", "a meld needs at least one real card");
  const first = reals[0].c;
  if (reals.length > 1 && reals.every((item) => item.c.rank === first.rank)) {
    return arrangeSet(parsed, reals, jokers, ruleset);
  }
  if (reals.every((item) => item.c.suit === first.suit)) {
    const preferLow = parsed[0].c.joker;
    return arrangeRun(reals, jokers, ruleset, laidDown, preferLow);
  }
  return fail("mixed_suits", "a run must be of one suit and a set of one rank");
}

function arrangeSet(all, reals, jokers, ruleset) {
  if (all.length > 4) return fail("too_long", "a set has at most 4 cards");
  if (jokers.length > ruleset.max_jokers_in_set) {
    return fail("too_many_jokers", `a set may hold at most ${ruleset.max_jokers_in_set} joker(s)`);
  }
  if (new Set(reals.map((item) => item.c.suit)).size !== reals.length) {
    return fail("duplicate_suit", "a set's cards must all be of different suits");
  }
  const rank = reals[0].c.rank === 1 ? ACE_HIGH : reals[0].c.rank;
  const ordered = [...reals].sort((a, b) => suitKey(a.c) - suitKey(b.c));
  return {
    ok: true,
    kind: "set",
    items: [...ordered, ...jokers].map(strip),
    value: positionValue(rank, ruleset) * all.length,
  };
}

function strip(item) {
  return { id: item.id, card: item.card };
}

function arrangeRun(reals, jokers, ruleset, laidDown, preferLow) {
  const limit = ruleset.max_jokers_in_run_laid;
  if (laidDown && limit !== null && limit !== undefined && jokers.length > limit) {
    return fail("too_many_jokers", `a run is laid down with at most ${limit} joker(s)`);
  }
  const aces = reals.filter((item) => item.c.rank === 1);
  // Each way of reading the aces: all low, all high, or (two aces) one of each.
  const readings = [];
  if (aces.length === 0) readings.push(() => reals.map((item) => item.c.rank));
  if (aces.length === 1) {
    readings.push(() => reals.map((item) => item.c.rank));
    readings.push(() => reals.map((item) => (item.c.rank === 1 ? ACE_HIGH : item.c.rank)));
  }
  if (aces.length === 2) {
    readings.push(() => {
      let seen = false;
      return reals.map((item) => {
        if (item.c.rank !== 1) return item.c.rank;
        const rank = seen ? ACE_HIGH : 1;
        seen = true;
        return rank;
      });
    });
  }
  let best = null;
  let why = fail("not_consecutive", "a run's cards must be consecutive");
  for (const read of readings) {
    const ranks = read();
    const result = placeRun(reals, ranks, jokers, preferLow);
    if (result.ok) {
      best = result;
      break;
    }
    if (result.code !== "not_consecutive") why = result;
  }
  if (!best) return why;
  let value = 0;
  for (let rank = best.low; rank <= best.high; rank += 1) value += positionValue(rank, ruleset);
  const royal = ruleset.royal_run_ace_value;
  if (royal !== null && royal !== undefined && best.high === ACE_HIGH && best.low <= 10) {
    value += royal - ruleset.ace_high_value;
  }
  return { ok: true, kind: "run", items: best.items.map(strip), value };
}

function placeRun(reals, ranks, jokers, preferLow) {
  const slots = new Map();
  for (let i = 0; i < reals.length; i += 1) {
    if (slots.has(ranks[i])) return fail("not_consecutive", "a run cannot hold the same card twice");
    slots.set(ranks[i], reals[i]);
  }
  const sorted = [...slots.keys()].sort((a, b) => a - b);
  let gaps = 0;
  for (let i = 1; i < sorted.length; i += 1) {
    const gap = sorted[i] - sorted[i - 1] - 1;
    if (gap > 1) {
      return gap <= jokers.length
        ? fail("adjacent_jokers", "two jokers may not stand side by side")
        : fail("not_consecutive", "a run's cards must be consecutive");
    }
    gaps += gap;
  }
  const spare = jokers.length - gaps;
  if (spare < 0) return fail("not_consecutive", "a run's cards must be consecutive");
  if (spare > 2) return fail("adjacent_jokers", "two jokers may not stand side by side");
  let low = sorted[0];
  let high = sorted[sorted.length - 1];
  if (spare === 2) {
    low -= 1;
    high += 1;
  } else if (spare === 1) {
    const highFits = high < ACE_HIGH;
    const lowFits = low > 1;
    if ((preferLow && lowFits) || !highFits) low -= 1;
    else high += 1;
  }
  if (low < 1 || high > ACE_HIGH) {
    return fail("wrap_around", "a run may not go round the corner (K-A-2)");
  }
  const spareJokers = [...jokers];
  const items = [];
  for (let rank = low; rank <= high; rank += 1) {
    items.push(slots.has(rank) ? slots.get(rank) : spareJokers.shift());
  }
  return { ok: true, items, low, high };
}
