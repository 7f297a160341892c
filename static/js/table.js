// The table page: renders the viewer's view of a game from the REST API and sends the
// player's actions. Nothing is drawn that the API did not return to this viewer.

import { ApiError, api, newKey } from "./api.js";
import {
  backElement,
  cardElement,
  cardName,
  cardShort,
  drawFace,
  parseCard,
  sortByRank,
  sortBySuit,
} from "./cards.js";
import { TableChat } from "./chat.js";
import { Live } from "./live.js";

const root = document.getElementById("game");
const GAME = root.dataset.gameId;
const API = root.dataset.api;
const INVITE = root.dataset.invite || "";
const LOBBY_URL = root.dataset.lobbyUrl;
const $ = (id) => document.getElementById(id);

const PRESET_NAMES = { macedonian: "Macedonian Remi", serbian: "Serbian Remi", polish51: "Polish Remik 51" };
const FINISH_NAMES = {
  normal: "went out",
  joker: "went out with a joker",
  mixed_hand: "went out in a mixed hand",
  dry_hand: "went out in one go: a hand!",
  void: "",
};
const END_REASONS = {
  completed: "All deals played.",
  resigned: "The other players resigned.",
  score_limit: "A player reached the score limit.",
  timeout: "A player ran out of time.",
  absent: "A player did not come back to the table.",
};
const ABSENT_CHOICES = {
  wait: { label: "Wait longer", hint: "Give them another wait to come back." },
  continue: { label: "Continue without them", hint: "Their seat is out; the game goes on." },
  end: { label: "End the game", hint: "Their seat is out; the lowest total wins now." },
};

const state = {
  view: null,
  missing: false, // 404: a private game we may join with the invite code
  order: [], // the hand as the player arranged it (card ids)
  orderKey: null,
  selected: new Set(),
  staged: [], // the opening row: [{items: [{id, card}]}], each meld as the player picked it
  fresh: new Set(), // cards that just arrived in the hand
  busy: false,
  raw: "", // the last view as received, to skip re-rendering an unchanged poll
  lastError: null,
  logPly: 0, // the last move shown in the log
  logDeal: null,
  logStarted: false,
  logSyncing: false,
  logAgain: false,
  loaded: false,
  summaryShown: 0, // the ply of the last deal result shown in a dialog
  gameOverShown: false,
  absent: null, // GET /absent: the table waiting for an absent player (RULES.md §10)
  absentDecided: null, // what was decided about the last absent player (shown once)
  absentBy: null, // "host" or "default", from the websocket's absent_decided event
  absentDismissed: null, // the host closed the choice dialog for this wait (key)
  absentLoading: false,
  absentAgain: false,
};

// ------------------------------------------------------------------ small helpers

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

function button(text, className, onClick, attrs = {}) {
  const node = el("button", className, text);
  node.type = "button";
  node.addEventListener("click", onClick);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

// Asking the server what melds are worth (POST …/melds/check): the engine is the only
// judge of melds, values and the opening, under the game's own ruleset. Questions are
// debounced and only the answer to the latest one counts; ``answerFor(melds)`` is that
// answer while it still answers these melds at this ply (else null: "checking…").
class MeldCheck {
  constructor(onAnswer, delayMs = 150) {
    this.onAnswer = onAnswer;
    this.delayMs = delayMs;
    this.asked = null; // the key of the latest question
    this.answered = null; // {key, answer, error}
    this.seq = 0;
    this.timer = null;
  }

  static key(melds) {
    return `${state.view ? state.view.ply : ""}:${JSON.stringify(melds)}`;
  }

  ask(melds) {
    const key = MeldCheck.key(melds);
    if (key === this.asked) return;
    this.asked = key;
    clearTimeout(this.timer);
    const seq = ++this.seq;
    if (!melds.length) return;
    this.timer = setTimeout(async () => {
      let answer = null;
      let error = null;
      try {
        answer = await checkMelds(melds);
      } catch (caught) {
        error = caught;
      }
      if (seq !== this.seq) return; // a newer question is on its way
      this.answered = { key, answer, error };
      this.onAnswer();
    }, this.delayMs);
  }

  answerFor(melds) {
    const done = this.answered;
    return done && done.key === MeldCheck.key(melds) ? done : null;
  }
}

function checkMelds(melds) {
  return api(`${API}/melds/check`, { method: "POST", body: { melds } });
}

const stagingCheck = new MeldCheck(() => {
  if (state.view) renderStaging();
});
const selectionCheck = new MeldCheck(() => {
  if (deal() && deal().hand) renderTools();
});

function deal() {
  return state.view && state.view.deal;
}

function mySeat() {
  return state.view ? state.view.you : null;
}

function seatOf(position) {
  return state.view.seats.find((seat) => seat.position === position);
}

function seatName(position, { you = true } = {}) {
  if (you && position === mySeat()) return "You";
  const seat = seatOf(position);
  return seat ? seat.user.display_name || seat.user.username : `Seat ${position + 1}`;
}

function myTurn() {
  const d = deal();
  return Boolean(d && state.view.status === "active" && mySeat() !== null && d.to_move === mySeat());
}

function can(kind) {
  return Boolean(state.view && state.view.can.act.includes(kind));
}

function ruleset() {
  return state.view.ruleset;
}

function handMap() {
  const d = deal();
  const map = new Map();
  if (d && d.hand) for (const pair of d.hand) map.set(pair.id, pair.card);
  return map;
}

function stagedIds() {
  return new Set(state.staged.flatMap((meld) => meld.items.map((item) => item.id)));
}

// The hand as shown: the player's order, without the cards waiting in the opening row.
function handItems() {
  const cards = handMap();
  const staged = stagedIds();
  return state.order.filter((id) => cards.has(id) && !staged.has(id)).map((id) => ({ id, card: cards.get(id) }));
}

function selectedItems() {
  return handItems().filter((item) => state.selected.has(item.id));
}

function formatLeft(ms) {
  if (ms <= 0) return "time's up";
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return `${d}d ${h}h left`;
  if (h > 0) return `${h}h ${m}m left`;
  return `${m}:${String(s % 60).padStart(2, "0")} left`;
}

// "1:05": minutes and seconds left (none below 0).
function formatClock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function bankText(seconds) {
  return seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`;
}

function initials(name) {
  return (name || "?").trim().slice(0, 1).toUpperCase();
}

// ------------------------------------------------------------------ toasts

function toast(message, kind = "error") {
  const box = $("toasts");
  const item = el("div", `toast toast-${kind}`);
  item.setAttribute("role", kind === "error" ? "alert" : "status");
  item.append(el("span", "toast-text", message));
  const close = button("×", "toast-close", () => item.remove(), { "aria-label": "Dismiss" });
  item.append(close);
  box.append(item);
  while (box.children.length > 4) box.firstElementChild.remove();
  setTimeout(() => item.classList.add("toast-leaving"), kind === "error" ? 6000 : 3500);
  setTimeout(() => item.remove(), kind === "error" ? 6600 : 4100);
}

// ------------------------------------------------------------------ talking to the API

async function refresh() {
  try {
    const view = await api(API);
    state.missing = false;
    const raw = JSON.stringify(view);
    if (raw === state.raw) return;
    state.raw = raw;
    apply(view);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      state.missing = true;
      state.view = null;
      render();
    } else if (error instanceof ApiError && error.status === 401) {
      window.location.reload();
    } else if (!state.loaded) {
      toast(error.message);
    }
  }
}

async function call(path, options = {}) {
  if (state.busy) return null;
  state.busy = true;
  root.classList.add("busy");
  try {
    return await api(path, options);
  } catch (error) {
    toast(error.message);
    if (error.status === 409 || error.status === 403) await refresh();
    return null;
  } finally {
    state.busy = false;
    root.classList.remove("busy");
  }
}

// Send one action with the ply it was made on. Returns true if the server took it.
async function act(action, { quiet = false } = {}) {
  if (state.busy || !state.view) return false;
  state.busy = true;
  root.classList.add("busy");
  try {
    const result = await api(`${API}/actions`, {
      method: "POST",
      body: { action, ply: state.view.ply },
      headers: { "Idempotency-Key": newKey() },
    });
    apply(result.game);
    return true;
  } catch (error) {
    if (!quiet) toast(error.message);
    state.lastError = error;
    if (error.code === "stale_ply" || error.status === 409) {
      if (quiet) toast("The game moved on: the table was refreshed.", "info");
      await refresh();
    }
    return false;
  } finally {
    state.busy = false;
    root.classList.remove("busy");
  }
}

// ------------------------------------------------------------------ applying a new view

function apply(view) {
  const before = state.view;
  // An answer that left the server before the one we hold: keep the newer state.
  if (before && view.ply < before.ply) return;
  state.raw = JSON.stringify(view);
  state.view = view;
  if (!state.loaded) tableChat.sync();
  state.loaded = true;
  tableChat.setWriter(view.you !== null && view.you !== undefined, view.status);
  syncHand(before);
  render();
  loadAbsent();
  if (!state.logStarted || view.ply > state.logPly || (before && before.status !== view.status)) {
    syncLog();
  }
}

function syncHand(before) {
  const d = deal();
  const key = d && d.hand ? `remi:${GAME}:${state.view.deal_number}:order` : null;
  if (key !== state.orderKey) {
    if (state.orderKey) forgetOrder(state.orderKey);
    state.orderKey = key;
    state.order = [];
    state.staged = [];
    state.selected.clear();
    state.fresh.clear();
    if (key) {
      try {
        state.order = JSON.parse(localStorage.getItem(key) || "[]");
      } catch {
        state.order = [];
      }
    }
    before = null; // a new deal: nothing is "fresh"
  }
  if (!key) return;
  const cards = handMap();
  const known = new Set(state.order);
  const arrived = d.hand.map((pair) => pair.id).filter((id) => !known.has(id));
  state.order = state.order.filter((id) => cards.has(id)).concat(arrived);
  if (arrived.length && before && before.deal) state.fresh = new Set(arrived);
  if (!myTurn()) state.fresh.clear();
  for (const id of [...state.selected]) if (!cards.has(id)) state.selected.delete(id);
  // The opening row lives only during this player's turn, with cards still in hand.
  const staged = stagedIds();
  if (!myTurn() || d.phase !== "play" || d.opened[mySeat()] || [...staged].some((id) => !cards.has(id))) {
    state.staged = [];
  }
  saveOrder();
}

function forgetOrder(key) {
  try {
    localStorage.removeItem(key);
  } catch {
    // nothing was kept
  }
}

function saveOrder() {
  if (!state.orderKey) return;
  try {
    localStorage.setItem(state.orderKey, JSON.stringify(state.order));
  } catch {
    // private mode: the order just is not kept
  }
}

// ------------------------------------------------------------------ rendering

function render() {
  root.dataset.state = state.missing ? "missing" : state.view ? state.view.status : "loading";
  if (state.missing) {
    renderMissing();
    return;
  }
  if (!state.view) return;
  renderHeader();
  renderOpponents();
  renderPiles();
  renderMelds();
  renderWaiting();
  renderMe();
  renderStaging();
  renderHand();
  renderScores();
  renderAbsent();
  tick();
}

function renderMissing() {
  $("game-meta").textContent = INVITE ? "A private game" : "This game cannot be found.";
  $("game-actions").replaceChildren();
  const box = $("waiting");
  box.hidden = false;
  box.replaceChildren();
  if (INVITE) {
    box.append(el("h2", null, "You are invited to a private game"));
    box.append(el("p", null, "Join to take a free seat at the table."));
    box.append(button("Join the game", "button", () => join(INVITE)));
  } else {
    box.append(el("h2", null, "No such game"));
    box.append(el("p", null, "It may be private, or the link may be wrong."));
    const link = el("a", "button", "Back to the lobby");
    link.href = LOBBY_URL;
    box.append(link);
  }
}

function renderHeader() {
  const v = state.view;
  $("game-name").textContent = PRESET_NAMES[v.preset] || `${v.preset} Remi`;
  const bits = [];
  if (v.status === "lobby") bits.push("Waiting for players");
  else if (v.status === "aborted") bits.push("Aborted");
  else bits.push(`Deal ${v.deal_number} of ${v.deals_in_match}`);
  bits.push(`${v.players} players`);
  const tc = v.time_control;
  let pace = tc.kind === "live" ? `${tc.seconds_per_turn} s a turn` : `${tc.days_per_move} days a move`;
  if (tc.kind === "live" && tc.time_bank_s) pace += ` + ${bankText(tc.time_bank_s)} bank`;
  bits.push(pace);
  bits.push(v.visibility === "private" ? "private" : "public");
  if (tc.rated) bits.push("rated");
  $("game-meta").textContent = bits.join(" · ");

  const actions = $("game-actions");
  actions.replaceChildren();
  const c = v.can;
  // Joining and starting a game in the lobby are offered on the table itself.
  if (c.join && v.status !== "lobby") actions.append(button("Return to my seat", "button button-small", () => join(INVITE)));
  if (c.resign) actions.append(button("Resign", "button button-small button-quiet", resign));
  if (c.leave && v.status === "lobby") actions.append(button("Leave", "button button-small button-quiet", leave));
  if (c.abort) actions.append(button("Cancel game", "button button-small button-quiet", abort));
  const yourTurn = myTurn();
  document.title = `${yourTurn ? "● Your turn · " : ""}${$("game-name").textContent} · Remi online`;
}

// Seats in playing order, starting after the viewer (or from seat 0 for a spectator).
function othersInOrder() {
  const v = state.view;
  const start = v.you === null ? 0 : v.you + 1;
  const out = [];
  for (let k = 0; k < v.players; k += 1) {
    const position = (start + k) % v.players;
    if (position !== v.you) out.push(position);
  }
  return out;
}

function seatBadges(position) {
  const d = deal();
  const v = state.view;
  const seat = seatOf(position);
  const badges = el("span", "badges");
  if (seat && seat.user.is_bot) badges.append(el("span", "badge badge-bot", "bot"));
  if (d && d.opened[position]) badges.append(el("span", "badge badge-opened", "opened"));
  if (d && d.dealer === position && v.status === "active") badges.append(el("span", "badge", "dealer"));
  if (seat && seat.status === "left") badges.append(el("span", "badge badge-away", "away"));
  if (seat && seat.status === "out") badges.append(el("span", "badge badge-away", "resigned"));
  if (v.winners && v.winners.includes(position)) badges.append(el("span", "badge badge-win", "winner"));
  return badges;
}

function turnTag(position) {
  const d = deal();
  const v = state.view;
  if (!d || v.status !== "active" || d.to_move !== position) return null;
  const tag = el("span", "turn-tag");
  tag.append(el("span", "turn-dot"), el("span", null, position === v.you ? "Your turn" : "To move"));
  const away = awaited();
  if (away && away.seat === position) {
    tag.append(el("span", "countdown countdown-away", "away"));
  } else if (v.deadline_at) {
    const clock = el("span", "countdown");
    clock.dataset.deadline = v.deadline_at;
    // With a time bank the turn's own seconds come first, then the bank (another colour).
    if (v.turn_ends_at && v.turn_ends_at !== v.deadline_at) clock.dataset.turnEnds = v.turn_ends_at;
    tag.append(clock);
  }
  return tag;
}

// ------------------------------------------------------------------ time bank

function hasBank() {
  const tc = state.view.time_control;
  return tc.kind === "live" && tc.time_bank_s > 0 && state.view.status !== "lobby";
}

// What is left of a seat's bank now (ms): the mover's runs down from turn_ends_at on.
function bankLeftMs(position) {
  const v = state.view;
  const seat = seatOf(position);
  if (!seat || seat.time_bank_remaining_s === null || seat.time_bank_remaining_s === undefined) return null;
  let left = seat.time_bank_remaining_s * 1000;
  const d = deal();
  if (d && v.status === "active" && d.to_move === position && v.turn_ends_at && v.deadline_at) {
    const away = awaited();
    if (away && away.seat === position) return 0;
    const now = Date.now();
    if (now > Date.parse(v.turn_ends_at)) left = Math.min(left, Math.max(0, Date.parse(v.deadline_at) - now));
  }
  return left;
}

function bankChip(position) {
  const seat = seatOf(position);
  if (!hasBank() || !seat || seat.status === "out") return null;
  const chip = el("span", "bank-chip");
  chip.dataset.bankOf = String(position);
  chip.title = "Time bank: extra time for the whole game, used when a turn runs long";
  return chip;
}

function tickBanks() {
  const d = deal();
  for (const chip of document.querySelectorAll("[data-bank-of]")) {
    const position = Number(chip.dataset.bankOf);
    const left = bankLeftMs(position);
    if (left === null) continue;
    const text = formatClock(left);
    chip.textContent = `bank ${text}`;
    chip.setAttribute("aria-label", `time bank ${text}`);
    const seat = seatOf(position);
    const running =
      d && state.view.status === "active" && d.to_move === position && left < seat.time_bank_remaining_s * 1000;
    chip.classList.toggle("bank-running", Boolean(running && left > 0));
    chip.classList.toggle("bank-empty", left <= 0);
  }
}

function renderOpponents() {
  const v = state.view;
  const d = deal();
  const box = $("opponents");
  box.replaceChildren();
  const others = othersInOrder();
  box.dataset.count = String(others.length);
  for (const position of others) {
    const seat = seatOf(position);
    const node = el("div", "seat");
    node.dataset.seat = String(position);
    if (d && v.status === "active" && d.to_move === position) node.classList.add("seat-to-move");
    if (!seat) {
      node.classList.add("seat-empty");
      node.append(el("div", "seat-info", "Free seat"));
      box.append(node);
      continue;
    }
    const count = d ? d.hand_counts[position] : 0;
    const fan = el("div", "fan");
    fan.setAttribute("aria-hidden", "true");
    const shown = Math.min(count, 15);
    for (let i = 0; i < shown; i += 1) {
      const back = backElement("fan-card");
      back.style.setProperty("--i", String(i - (shown - 1) / 2));
      fan.append(back);
    }
    if (d) {
      const badge = el("span", "fan-count", String(count));
      fan.append(badge);
    }
    const info = el("div", "seat-info");
    const name = el("div", "seat-name");
    name.append(el("span", "avatar-dot", initials(seatName(position, { you: false }))), el("span", "seat-label", seatName(position)));
    const line = el("div", "seat-line");
    line.append(el("span", "seat-total", `${seat.total} pts`), seatBadges(position));
    const bank = bankChip(position);
    if (bank) line.append(bank);
    info.append(name, line);
    const turn = turnTag(position);
    if (turn) info.append(turn);
    node.setAttribute(
      "aria-label",
      `${seatName(position)}: ${count} cards, total ${seat.total}${d && d.opened[position] ? ", opened" : ""}`,
    );
    node.append(fan, info);
    box.append(node);
  }
}

function renderPiles() {
  const d = deal();
  const stock = $("stock");
  const discard = $("discard");
  const piles = stock.closest(".piles");
  piles.hidden = !d;
  if (!d) return;
  const drawNow = myTurn() && can("draw");
  stock.disabled = !drawNow || state.busy;
  stock.classList.toggle("pile-active", drawNow);
  stock.setAttribute("aria-label", drawNow ? `Draw from the stock (${d.stock_count} cards)` : `Stock: ${d.stock_count} cards`);
  $("stock-label").textContent = `Stock · ${d.stock_count}`;

  discard.replaceChildren();
  const pile = d.discard;
  const top = pile.length ? pile[pile.length - 1] : null;
  if (pile.length > 2) discard.append(backElement("pile-under pile-under-2"));
  if (pile.length > 1) discard.append(backElement("pile-under"));
  if (top) {
    const face = cardElement(top.card, { id: top.id });
    if (d.taken && d.taken.id === top.id) face.classList.add("card-taken");
    discard.append(face);
  } else {
    discard.append(el("span", "discard-empty", "Discard"));
  }
  const takeNow = myTurn() && can("take") && d.phase === "draw";
  const one = selectedItems();
  const discardNow = myTurn() && can("discard") && one.length === 1;
  discard.disabled = !(takeNow || discardNow) || state.busy;
  discard.classList.toggle("pile-active", takeNow || discardNow);
  let label = `Discard pile: ${pile.length} cards${top ? `, ${cardName(top.card)} on top` : ""}`;
  if (discardNow) label = `Discard the ${cardName(one[0].card)}`;
  else if (takeNow && top) label = `Take the ${cardName(top.card)} from the discard pile`;
  discard.setAttribute("aria-label", label);
  $("discard-label").textContent = `Discard · ${pile.length}`;
}

function renderMelds() {
  const d = deal();
  const box = $("melds");
  box.replaceChildren();
  if (!d) return;
  if (!d.table.length) {
    if (state.view.status === "active") box.append(el("p", "melds-empty", "No melds on the table yet."));
    return;
  }
  const selecting = myTurn() && state.selected.size > 0 && (can("off") || can("swap"));
  const owners = [];
  if (state.view.you !== null) owners.push(state.view.you);
  owners.push(...othersInOrder());
  for (const owner of owners) {
    const melds = d.table.filter((meld) => meld.owner === owner);
    if (!melds.length) continue;
    const group = el("section", "meld-group");
    group.dataset.owner = String(owner);
    const title = el("h3", "meld-owner", owner === state.view.you ? "Your melds" : `${seatName(owner)}'s melds`);
    group.append(title);
    const row = el("div", "meld-row");
    for (const meld of melds) row.append(meldElement(meld, selecting));
    group.append(row);
    box.append(group);
  }
}

function meldElement(meld, selecting) {
  const node = el("div", `meld meld-${meld.kind}`);
  node.dataset.index = String(meld.index);
  const words = meld.cards.map((pair) => cardShort(pair.card)).join(" ");
  node.setAttribute("aria-label", `Meld ${meld.index + 1}, a ${meld.kind}: ${words}`);
  if (selecting) {
    node.classList.add("meld-target");
    node.tabIndex = 0;
    node.setAttribute("role", "button");
    node.title = "Lay the selected card here (click the first card: low end). Click a joker to swap it.";
  }
  meld.cards.forEach((pair, position) => {
    const face = cardElement(pair.card, { id: pair.id });
    face.dataset.position = String(position);
    node.append(face);
  });
  node.addEventListener("click", (event) => {
    const card = event.target.closest(".pcard");
    onMeld(meld, card ? Number(card.dataset.position) : null);
  });
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      event.stopPropagation();
      onMeld(meld, event.shiftKey ? 0 : null, { fromKeyboard: true });
    }
  });
  return node;
}

function renderWaiting() {
  const v = state.view;
  const box = $("waiting");
  box.replaceChildren();
  box.hidden = v.status === "active";
  if (v.status === "lobby") {
    const taken = v.seats.length;
    box.append(el("h2", null, taken < v.players ? "Waiting for players" : "Everyone is here"));
    box.append(el("p", "muted", `${taken} of ${v.players} seats taken.`));
    const list = el("ul", "lobby-seats");
    for (let position = 0; position < v.players; position += 1) {
      const seat = seatOf(position);
      const item = el("li", seat ? "lobby-seat" : "lobby-seat lobby-seat-free");
      if (seat) {
        item.append(el("span", "avatar-dot", initials(seat.user.display_name)));
        item.append(el("span", null, seat.user.display_name + (position === v.you ? " (you)" : "")));
        if (seat.user.username === v.owner) item.append(el("span", "badge", "host"));
        if (seat.user.is_bot) item.append(el("span", "badge badge-bot", "bot"));
      } else {
        item.append(el("span", "avatar-dot", "?"), el("span", "muted", "Free seat"));
      }
      list.append(item);
    }
    box.append(list);
    if (v.invite_code) {
      const url = `${window.location.origin}/games/${v.id}/?invite=${v.invite_code}`;
      const share = el("div", "invite");
      share.append(el("label", null, "Invite link (a private game: share it with your friends)"));
      const row = el("div", "invite-row");
      const input = el("input", "invite-input");
      input.readOnly = true;
      input.value = url;
      input.setAttribute("aria-label", "Invite link");
      row.append(
        input,
        button("Copy", "button button-small", async () => {
          try {
            await navigator.clipboard.writeText(url);
            toast("Invite link copied.", "info");
          } catch {
            input.select();
          }
        }),
      );
      share.append(row);
      box.append(share);
    }
    const actions = el("div", "waiting-actions");
    if (v.can.start) actions.append(button("Start the game", "button", start));
    else if (v.you === 0) actions.append(el("p", "muted", "You can start once every seat is taken."));
    if (v.can.join) actions.append(button("Join", "button", () => join(INVITE)));
    box.append(actions);
  } else if (v.status === "finished" || v.status === "aborted") {
    if (v.status === "aborted") {
      box.append(el("h2", null, "This game was cancelled"));
    } else {
      box.append(el("h2", null, gameOverTitle()));
      box.append(el("p", "muted", END_REASONS[v.end_reason] || ""));
      box.append(standingsTable());
    }
    const link = el("a", "button", "New game");
    link.href = LOBBY_URL;
    box.append(link);
  }
}

function gameOverTitle() {
  const v = state.view;
  const winners = v.winners || [];
  if (v.you !== null && winners.includes(v.you)) return winners.length > 1 ? "You share the win!" : "You won the game!";
  if (!winners.length) return "Game over";
  return `${winners.map((w) => seatName(w, { you: false })).join(" and ")} won the game`;
}

function standingsTable() {
  const v = state.view;
  const table = el("table", "standings");
  const head = el("tr");
  const changes = new Map((v.rating_changes || []).map((change) => [change.position, change]));
  head.append(el("th", null, "#"), el("th", null, "Player"), el("th", "num", "Total"));
  if (changes.size) head.append(el("th", "num", "Rating"));
  table.append(head);
  const seats = [...v.seats].sort((a, b) => a.total - b.total);
  seats.forEach((seat, place) => {
    const row = el("tr", (v.winners || []).includes(seat.position) ? "winner-row" : "");
    const name = el("td");
    const link = el("a", "player-link", seatName(seat.position));
    link.href = `/accounts/players/${encodeURIComponent(seat.user.username)}/`;
    name.append(link);
    row.append(el("td", null, String(place + 1)), name, el("td", "num", String(seat.total)));
    const change = changes.get(seat.position);
    if (changes.size) row.append(el("td", "num", change ? ratingText(change) : ""));
    table.append(row);
  });
  if (!v.time_control.rated || v.status !== "finished" || changes.size) return table;
  const box = el("div");
  box.append(table, el("p", "muted", "Not rated: the game was left before every player had made a move."));
  return box;
}

// "1500 → 1658 (+158)"; a provisional rating carries a "?".
function ratingText(change) {
  const sign = change.change > 0 ? "+" : change.change < 0 ? "−" : "±";
  const mark = change.provisional ? "?" : "";
  return `${change.rating_before} → ${change.rating_after}${mark} (${sign}${Math.abs(change.change)})`;
}

function renderMe() {
  const v = state.view;
  const d = deal();
  const box = $("me-seat");
  box.replaceChildren();
  if (v.you === null) {
    if (v.status !== "lobby") box.append(el("span", "muted", "You are watching this game."));
  } else {
    const seat = seatOf(v.you);
    const name = el("div", "seat-name");
    name.append(el("span", "avatar-dot avatar-me", initials(seat.user.display_name)), el("span", "seat-label", seat.user.display_name));
    const line = el("div", "seat-line");
    line.append(el("span", "seat-total", `${seat.total} pts`), seatBadges(v.you));
    const bank = bankChip(v.you);
    if (bank) line.append(bank);
    box.append(name, line);
    const turn = turnTag(v.you);
    if (turn) box.append(turn);
  }
  $("me").classList.toggle("me-to-move", myTurn());
  $("prompt").textContent = d && v.status === "active" ? promptText() : "";
}

function promptText() {
  const v = state.view;
  const d = deal();
  if (v.you === null) return `${seatName(d.to_move)} is to move.`;
  if (!myTurn()) return `Waiting for ${seatName(d.to_move)}…`;
  const min = ruleset().opening_minimum;
  if (d.phase === "draw") {
    return can("take") && d.discard.length
      ? "Your turn: draw from the stock, or take the top card of the discard pile."
      : "Your turn: draw a card from the stock.";
  }
  if (d.must_return) {
    return `You took the ${cardName(d.must_return)} without having opened: open now (${min}+), or discard it back.`;
  }
  if (d.opened[v.you]) return "Lay down melds, lay off onto the table or swap jokers, then discard one card.";
  if (ruleset().no_opening_in_first_round && d.first_round) {
    return "Nobody lays down in their first turn of a deal: discard one card.";
  }
  return `Open with melds worth ${min} or more (select cards, then "Lay group"), or discard one card.`;
}

function stagedMelds() {
  return state.staged.map((meld) => meld.items.map((item) => item.id));
}

function renderStaging() {
  const box = $("staging");
  box.hidden = !state.staged.length;
  const note = $("staging-note");
  if (!state.staged.length) {
    $("staging-melds").replaceChildren();
    note.textContent = "";
    return;
  }
  const min = ruleset().opening_minimum;
  const melds = stagedMelds();
  stagingCheck.ask(melds);
  const done = stagingCheck.answerFor(melds);
  const answer = done && done.answer;
  const valid = Boolean(answer && answer.opening.valid);
  const totalNode = $("staging-total");
  totalNode.textContent = answer ? `${answer.total} / ${answer.opening_minimum}` : done ? `? / ${min}` : "checking…";
  totalNode.classList.toggle("enough", valid);
  totalNode.classList.toggle("checking", !done);
  if (done && done.error) note.textContent = `Cannot check the opening: ${done.error.message}`;
  else if (answer && answer.melds.some((meld) => !meld.valid)) note.textContent = `Not a meld: ${answer.opening.message}`;
  else if (answer && !valid && answer.opening.code !== "opening_too_low") note.textContent = answer.opening.message;
  else note.textContent = "";
  const list = $("staging-melds");
  list.replaceChildren();
  for (const [index, meld] of state.staged.entries()) {
    const verdict = answer ? answer.melds[index] : null;
    const node = el("div", `meld meld-staged${verdict ? ` meld-${verdict.kind || "invalid"}` : " meld-checking"}`);
    // The cards as the server lays them out (a joker in its place), once it has said.
    for (const item of verdict ? verdict.cards : meld.items) node.append(cardElement(item.card, { id: item.id }));
    const value = el("span", "meld-value", verdict ? (verdict.valid ? String(verdict.value) : "✗") : "…");
    if (verdict && !verdict.valid) {
      node.title = `Not a meld: ${verdict.message}`;
      value.setAttribute("aria-label", `not a meld: ${verdict.message}`);
    }
    node.append(value);
    node.append(
      button("×", "meld-remove", () => {
        state.staged.splice(index, 1);
        render();
      }, { "aria-label": "Put this meld back in your hand", title: "Back to hand" }),
    );
    list.append(node);
  }
  const open = $("open-button");
  open.disabled = !valid || state.busy;
  const short = answer && answer.opening.code === "opening_too_low" ? answer.opening_minimum - answer.total : 0;
  open.textContent = short > 0 ? `Open (${short} more)` : "Open";
}

function renderHand() {
  const d = deal();
  const area = $("hand-area");
  area.hidden = !d || !d.hand || state.view.status !== "active";
  if (area.hidden) return;
  const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest("#hand .pcard");
  const focusId = focused ? focused.dataset.id : null;
  const hand = $("hand");
  hand.replaceChildren();
  const items = handItems();
  for (const item of items) {
    const node = document.createElement("button");
    node.type = "button";
    drawFace(node, item.card);
    node.classList.add("hand-card");
    node.dataset.id = String(item.id);
    const selected = state.selected.has(item.id);
    node.setAttribute("aria-pressed", String(selected));
    if (selected) node.classList.add("selected");
    let label = cardName(item.card);
    if (d.taken && d.taken.id === item.id) {
      node.classList.add("card-taken");
      node.append(el("span", "card-flag", "taken"));
      label += ", taken from the discard pile";
    } else if (state.fresh.has(item.id)) {
      node.classList.add("card-fresh");
      node.append(el("span", "card-flag", "new"));
      label += ", just drawn";
    }
    node.setAttribute("aria-label", label);
    node.addEventListener("click", () => toggle(item.id));
    hand.append(node);
  }
  hand.dataset.count = String(items.length);
  fitHand();
  if (focusId) {
    const again = hand.querySelector(`.pcard[data-id="${focusId}"]`);
    if (again) again.focus();
  }
  renderTools();
}

// Overlap the cards as much as the width asks; on a narrow screen a long hand takes
// two rows rather than strips too thin to tap.
function fitHand() {
  const hand = $("hand");
  for (const node of hand.querySelectorAll(".hand-break")) node.remove();
  const cards = [...hand.querySelectorAll(".hand-card")];
  if (!cards.length) return;
  for (const card of cards) card.classList.remove("row-start");
  const width = hand.clientWidth - 12;
  const cardWidth = cards[0].getBoundingClientRect().width || 70;
  const gap = 6;
  const stepFor = (count) => {
    if (count < 2 || count * cardWidth + (count - 1) * gap <= width) return cardWidth + gap;
    return Math.max(cardWidth * 0.28, Math.floor((width - cardWidth - 4) / (count - 1)));
  };
  let step = stepFor(cards.length);
  if (step < cardWidth * 0.4 && cards.length > 8) {
    const perRow = Math.ceil(cards.length / 2);
    step = stepFor(perRow);
    const start = cards[perRow];
    start.classList.add("row-start");
    const lineBreak = document.createElement("span");
    lineBreak.className = "hand-break";
    hand.insertBefore(lineBreak, start);
  }
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
  $("lay-group").textContent = opened ? "Lay group" : "Lay group";
  $("discard-button").disabled = !(turn && can("discard") && items.length === 1) || state.busy;
  $("undo-take").hidden = !(turn && can("undo"));
  $("deselect").disabled = !state.selected.size;
  const info = $("selection-info");
  info.classList.remove("info-bad", "info-good");
  const question = items.length >= 3 ? [items.map((item) => item.id)] : [];
  selectionCheck.ask(question);
  if (question.length) {
    const done = selectionCheck.answerFor(question);
    const meld = done && done.answer ? done.answer.melds[0] : null;
    if (!done) {
      info.textContent = "Checking…";
    } else if (!meld) {
      info.textContent = `${items.length} selected`;
    } else if (meld.valid) {
      info.textContent = `${meld.kind === "run" ? "Run" : "Set"} worth ${meld.value}`;
      info.classList.add("info-good");
    } else {
      info.textContent = `Not a meld: ${meld.message}`;
      info.classList.add("info-bad");
    }
  } else if (items.length) {
    info.textContent = `${items.length} selected: ${items.map((item) => cardShort(item.card)).join(" ")}`;
  } else {
    info.textContent = `${handItems().length} cards`;
  }
}

function renderScores() {
  const v = state.view;
  const d = deal();
  const table = $("scores");
  table.replaceChildren();
  const head = el("tr");
  head.append(el("th", null, "Player"), el("th", "num", "Cards"), el("th", "num", "Total"));
  table.append(head);
  for (const seat of v.seats) {
    const row = el("tr");
    if (seat.position === v.you) row.classList.add("me-row");
    if (d && v.status === "active" && d.to_move === seat.position) row.classList.add("to-move-row");
    const name = el("td", "score-name");
    name.append(el("span", "score-turn", d && v.status === "active" && d.to_move === seat.position ? "▶" : ""));
    name.append(document.createTextNode(seatName(seat.position)));
    if ((v.winners || []).includes(seat.position)) name.append(el("span", "badge badge-win", "winner"));
    row.append(name, el("td", "num", d ? String(d.hand_counts[seat.position]) : "–"), el("td", "num", String(seat.total)));
    table.append(row);
  }
  const rules = ruleset();
  const bits = [`Opening ${rules.opening_minimum}`];
  if (rules.match_end_score) bits.push(`match ends at ${rules.match_end_score}`);
  bits.push("lowest total wins");
  $("match-info").textContent = bits.join(" · ");
}

// The deadline clocks. A turn clock with a time bank (data-turn-ends) counts the turn's
// own seconds, then the mover's bank ("bank 0:42", another colour).
function tick() {
  const now = Date.now();
  for (const node of document.querySelectorAll("[data-deadline]")) {
    const left = Date.parse(node.dataset.deadline) - now;
    if (node.dataset.format === "clock") {
      node.textContent = formatClock(left);
      continue;
    }
    const ends = node.dataset.turnEnds ? Date.parse(node.dataset.turnEnds) : null;
    const inBank = ends !== null && now >= ends && left > 0;
    if (ends !== null && !inBank && left > 0) node.textContent = formatLeft(ends - now);
    else node.textContent = inBank ? `bank ${formatClock(left)}` : formatLeft(left);
    node.classList.toggle("countdown-bank", inBank);
    node.classList.toggle("countdown-low", left < 15000 && (ends === null || inBank));
  }
  if (state.view) tickBanks();
}

// ------------------------------------------------------------------ an absent player (RULES.md §10)

// The wait of the current turn, if the table is waiting for its player.
function awaited() {
  const a = state.absent;
  return a && a.absent && state.view && a.ply === state.view.ply && state.view.status === "active" ? a.absent : null;
}

async function loadAbsent() {
  const v = state.view;
  if (!v || v.status !== "active" || v.time_control.kind !== "live") {
    noteAbsent(null);
    return;
  }
  if (state.absentLoading) {
    state.absentAgain = true;
    return;
  }
  state.absentLoading = true;
  try {
    noteAbsent(await api(`${API}/absent`));
  } catch {
    // the next change or poll tries again
  } finally {
    state.absentLoading = false;
    if (state.absentAgain) {
      state.absentAgain = false;
      loadAbsent();
    }
  }
}

function noteAbsent(body) {
  const before = state.absent && state.absent.absent;
  const now = body && body.absent;
  if (!before && !now) {
    state.absent = body;
    return;
  }
  if (before && !now) state.absentDecided = decidedText(before);
  if (now) {
    state.absentDecided = null;
    state.absentBy = null;
  }
  state.absent = body;
  renderAbsent();
  renderOpponents();
  renderMe();
  tick();
}

// What became of the player the table was waiting for, from the game as it is now.
function decidedText(wait) {
  const v = state.view;
  const seat = seatOf(wait.seat);
  const name = seatName(wait.seat, { you: false });
  const ended = v.status === "finished" && v.end_reason === "absent";
  if (ended || (seat && seat.status === "out")) {
    if (wait.seat === v.you) {
      return ended ? "You did not come back in time: the game was ended." : "You did not come back in time: the game goes on without you.";
    }
    if (state.absentBy === "host") {
      return ended ? `The host ended the game: ${name} did not come back.` : `The host chose to go on without ${name}.`;
    }
    const lead = state.absentBy === "default" ? `${name} did not come back and the host did not choose` : `${name} did not come back`;
    return ended ? `${lead}: the game ended.` : `${lead}: the game goes on without them.`;
  }
  if (v.status === "active") return wait.seat === v.you ? "Welcome back!" : `${name} is back.`;
  return null;
}

function renderAbsent() {
  const box = $("absent");
  const v = state.view;
  const away = v ? awaited() : null;
  box.replaceChildren();
  if (!away) {
    closeAbsentDialog();
    box.hidden = !(v && state.absentDecided);
    if (!box.hidden) {
      box.className = "absent-banner absent-decided";
      box.append(
        el("span", "absent-text", state.absentDecided),
        button("OK", "button button-small button-quiet", () => {
          state.absentDecided = null;
          renderAbsent();
        }, { "aria-label": "Dismiss this message" }),
      );
    }
    return;
  }
  box.hidden = false;
  const name = seatName(away.seat, { you: false });
  const mine = away.seat === v.you;
  const clock = el("span", "absent-clock");
  clock.dataset.deadline = away.deadline_at;
  clock.dataset.format = "clock";
  const text = el("span", "absent-text");
  box.append(el("span", "absent-dot"), text);
  if (away.stage === "waiting") {
    box.className = "absent-banner";
    if (mine) text.append("The table is waiting for you — ", clock, ". Make your move to stay in the game.");
    else {
      text.append(`Waiting for ${name} — `, clock);
      if (away.waits > 1) text.append(" (the host chose to wait longer)");
    }
    closeAbsentDialog();
    return;
  }
  box.className = "absent-banner absent-choosing";
  if (state.absent.you_choose) {
    text.append(`${name} has not come back. Your choice — default in `, clock);
    box.append(button("Choose…", "button button-small", openAbsentDialog, { id: "absent-open" }));
    const key = absentKey();
    if (state.absentDismissed !== key) openAbsentDialog();
    else fillAbsentDialog();
  } else if (mine) {
    text.append("You were away: the host is deciding whether to go on without you — ", clock, ". Move now to stay.");
  } else {
    text.append(`${name} has not come back: the host is deciding — `, clock);
  }
}

function absentKey() {
  const away = awaited();
  return away ? `${state.absent.ply}:${away.waits}` : null;
}

function fillAbsentDialog() {
  const away = awaited();
  if (!away) return;
  const name = seatName(away.seat, { you: false });
  $("absent-title").textContent = `${name} has not come back`;
  $("absent-text").textContent = `The table waited for ${name}. As the host, you decide what happens now.`;
  const clock = el("span", "absent-clock");
  clock.dataset.deadline = away.deadline_at;
  clock.dataset.format = "clock";
  const fallback = away.default === "end" ? "the game ends" : `the game goes on without ${name}`;
  $("absent-default").replaceChildren("Without a choice in ", clock, `, ${fallback}.`);
  const actions = $("absent-actions");
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.choice : null;
  actions.replaceChildren();
  for (const choice of away.choices) {
    const info = ABSENT_CHOICES[choice];
    const item = button("", `absent-choice${choice === away.default ? " absent-choice-default" : ""}`, () => chooseAbsent(choice));
    item.dataset.choice = choice;
    item.append(el("span", "absent-choice-label", info.label + (choice === away.default ? " (default)" : "")));
    item.append(el("span", "absent-choice-hint", info.hint));
    actions.append(item);
    if (choice === focused) item.focus();
  }
  tick();
}

function openAbsentDialog() {
  const dialog = $("absent-dialog");
  fillAbsentDialog();
  if (!dialog.open) {
    dialog.showModal();
    const first = $("absent-actions").querySelector("button");
    if (first) first.focus();
  }
}

function closeAbsentDialog() {
  const dialog = $("absent-dialog");
  if (dialog.open) dialog.close();
}

async function chooseAbsent(choice) {
  const ply = state.absent ? state.absent.ply : null;
  const result = await call(`${API}/absent`, { method: "POST", body: { choice, ply } });
  if (result) {
    if (choice !== "wait") state.absentBy = "host";
    closeAbsentDialog();
    apply(result);
  } else {
    loadAbsent();
  }
}

// ------------------------------------------------------------------ the move log

async function syncLog() {
  if (state.logSyncing) {
    state.logAgain = true;
    return;
  }
  state.logSyncing = true;
  state.logAgain = false;
  try {
    const initial = !state.logStarted;
    state.logStarted = true;
    const after = initial ? Math.max(0, state.view.ply - 40) : state.logPly;
    const log = await api(`${API}/moves?after=${after}&limit=200`);
    for (const entry of log.moves) {
      if (entry.ply <= state.logPly) continue;
      addLog(entry);
      state.logPly = entry.ply;
      if (entry.event && entry.event.result && !initial && entry.ply > state.summaryShown) {
        state.summaryShown = entry.ply;
        showDealSummary(entry);
      }
    }
    state.logPly = Math.max(state.logPly, log.ply);
    // The log is newer than the table (moves made after the state we hold): re-read it.
    if (log.ply > state.view.ply) setTimeout(refresh, 0);
    if (!initial && state.view.status === "finished" && !state.gameOverShown && !$("summary").open) {
      showGameSummary();
    }
  } catch {
    // the log is a nicety; the table itself is already up to date
  } finally {
    state.logSyncing = false;
    if (state.logAgain) syncLog();
  }
}

function cardsText(pairs) {
  return pairs.map((pair) => cardShort(pair.card)).join(" ");
}

function describe(entry) {
  const e = entry.event || {};
  const who = seatName(entry.seat);
  switch (e.type || entry.kind) {
    case "draw":
      return e.card ? `${who} drew ${cardShort(e.card.card)} from the stock` : `${who} drew from the stock`;
    case "take":
      return `${who} took ${cardShort(e.card.card)} from the discard pile`;
    case "undo":
      return `${who} put ${cardShort(e.returned.card)} back and drew from the stock${e.card ? ` (${cardShort(e.card.card)})` : ""}`;
    case "lay":
      return `${who} laid down ${(e.melds || []).map(cardsText).join(" · ")}`;
    case "off":
      return `${who} laid ${cardShort(e.card.card)} off onto ${meldOwnerText(ownerOf(e.meld), entry.seat)}`;
    case "swap":
      return `${who} swapped ${cardsText(e.cards)} for a joker`;
    case "discard":
      return `${who} discarded ${cardShort(e.card.card)}`;
    case "resign":
      return `${who} resigned`;
    default:
      return `${who}: ${entry.kind}`;
  }
}

function meldOwnerText(owner, mover) {
  if (owner === null) return "a meld";
  if (owner === mover) return mover === mySeat() ? "your own meld" : "their own meld";
  return owner === mySeat() ? "your meld" : `${seatName(owner)}'s meld`;
}

function ownerOf(index) {
  const d = deal();
  const meld = d && d.table.find((m) => m.index === index);
  return meld ? meld.owner : null;
}

function addLog(entry) {
  const list = $("log");
  if (entry.deal !== null && entry.deal !== state.logDeal) {
    state.logDeal = entry.deal;
    list.append(el("li", "log-deal", `Deal ${entry.deal}`));
  }
  const item = el("li", "log-move");
  if (entry.seat === mySeat()) item.classList.add("log-mine");
  item.textContent = describe(entry) + (entry.by_server ? " (played by the server)" : "");
  list.append(item);
  const e = entry.event || {};
  if (e.reshuffled) list.append(el("li", "log-note", "The discard pile was shuffled into a new stock."));
  if (e.result) list.append(el("li", "log-note", resultLine(e.result)));
  while (list.children.length > 250) list.firstElementChild.remove();
  list.scrollTop = list.scrollHeight;
}

function resultLine(result) {
  if (result.winner === null || result.finish === "void") return "The deal ended void: nobody scores.";
  const text = `${seatName(result.winner)} ${FINISH_NAMES[result.finish] || "went out"}`;
  return text.endsWith("!") ? text : `${text}.`;
}

// ------------------------------------------------------------------ summaries

function showDealSummary(entry) {
  const result = entry.event.result;
  const v = state.view;
  const over = v.status === "finished";
  const title = over ? gameOverTitle() : `Deal ${entry.deal} is over`;
  const body = el("div");
  body.append(el("p", "summary-lead", resultLine(result)));
  const table = el("table", "standings");
  const head = el("tr");
  head.append(el("th", null, "Player"), el("th", "num", "Left in hand"), el("th", "num", "This deal"), el("th", "num", "Total"));
  table.append(head);
  for (const seat of v.seats) {
    const row = el("tr", seat.position === result.winner ? "winner-row" : "");
    const score = result.scores[seat.position];
    row.append(
      el("td", null, seatName(seat.position)),
      el("td", "num", seat.position === result.winner ? "–" : String(result.penalties[seat.position])),
      el("td", "num", `${score > 0 ? "+" : ""}${score}`),
      el("td", "num", String(seat.total)),
    );
    table.append(row);
  }
  body.append(table);
  if (over) {
    body.append(el("p", "muted", END_REASONS[v.end_reason] || ""));
    state.gameOverShown = true;
  } else {
    body.append(el("p", "muted", `Deal ${v.deal_number} of ${v.deals_in_match} is dealt. Lowest total wins the match.`));
  }
  openSummary(title, body, over);
}

function showGameSummary() {
  state.gameOverShown = true;
  const body = el("div");
  body.append(el("p", "muted", END_REASONS[state.view.end_reason] || ""));
  body.append(standingsTable());
  openSummary(gameOverTitle(), body, true);
}

function openSummary(title, body, over) {
  const dialog = $("summary");
  $("summary-title").textContent = title;
  $("summary-body").replaceChildren(body);
  const actions = $("summary-actions");
  actions.replaceChildren();
  if (over) {
    const link = el("a", "button button-ghost", "New game");
    link.href = LOBBY_URL;
    actions.append(link);
  }
  const close = el("button", "button", over ? "Close" : "Next deal");
  close.value = "close";
  actions.append(close);
  if (dialog.open) dialog.close();
  if (typeof dialog.showModal === "function") dialog.showModal();
  else dialog.setAttribute("open", "");
  close.focus();
}

// ------------------------------------------------------------------ what the player does

function toggle(id) {
  if (state.selected.has(id)) state.selected.delete(id);
  else state.selected.add(id);
  render();
}

function deselectAll() {
  state.selected.clear();
  render();
}

function sortHand(how) {
  const sorted = (how === "suit" ? sortBySuit : sortByRank)(handItems());
  const staged = state.order.filter((id) => stagedIds().has(id));
  state.order = sorted.map((item) => item.id).concat(staged);
  saveOrder();
  render();
}

// Move the selected cards one place left (-1) or right (+1) in the hand.
function moveSelected(direction) {
  const ids = handItems().map((item) => item.id);
  if (!state.selected.size) return false;
  const order = [...ids];
  const range = direction < 0 ? order.keys() : [...order.keys()].reverse();
  for (const i of range) {
    const j = i + direction;
    if (!state.selected.has(order[i]) || j < 0 || j >= order.length || state.selected.has(order[j])) continue;
    [order[i], order[j]] = [order[j], order[i]];
  }
  const staged = state.order.filter((id) => !ids.includes(id));
  state.order = order.concat(staged);
  saveOrder();
  render();
  return true;
}

async function draw() {
  if (!myTurn() || !can("draw")) return;
  await act({ type: "draw" });
}

async function onDiscardPile() {
  const d = deal();
  if (!myTurn()) return;
  if (d.phase === "draw" && can("take")) {
    await act({ type: "take" });
    return;
  }
  await discardSelected();
}

async function discardSelected() {
  const items = selectedItems();
  if (!myTurn() || !can("discard")) return;
  if (items.length !== 1) {
    toast("Select exactly one card to discard.", "info");
    return;
  }
  if (state.staged.length) {
    toast('Lay your opening down ("Open") or cancel it before you discard.');
    return;
  }
  state.selected.clear();
  const ok = await act({ type: "discard", card: items[0].card });
  if (!ok) {
    state.selected.add(items[0].id);
    render();
  }
}

async function layGroup() {
  const d = deal();
  const items = selectedItems();
  if (!myTurn() || d.phase !== "play" || items.length < 3 || state.busy) return;
  if (!d.opened[mySeat()]) {
    // Into the opening row; the server says what it is worth (renderStaging).
    state.staged.push({ items });
    state.selected.clear();
    render();
    return;
  }
  // Ask the server how the cards are laid out (where a joker goes), then lay them.
  let meld;
  state.busy = true;
  try {
    meld = (await checkMelds([items.map((item) => item.id)])).melds[0];
  } catch (error) {
    toast(error.message);
    return;
  } finally {
    state.busy = false;
  }
  if (!meld.valid) {
    toast(meld.message);
    return;
  }
  const ok = await act({ type: "lay", melds: [meld.cards.map((item) => item.card)] });
  if (ok) {
    state.selected.clear();
    render();
  }
}

async function openNow() {
  if (!state.staged.length) return;
  const done = stagingCheck.answerFor(stagedMelds());
  if (!done || !done.answer || !done.answer.opening.valid) return;
  const melds = done.answer.melds.map((meld) => meld.cards.map((item) => item.card));
  const ok = await act({ type: "lay", melds });
  if (ok) {
    state.staged = [];
    render();
    toast("You opened!", "info");
  }
}

function cancelOpening() {
  state.staged = [];
  render();
}

// A click on a table meld with cards selected: swap a joker (the joker itself was
// clicked) or lay the cards off. From the keyboard (Enter on a meld) a joker swap is
// tried first when the meld holds one; Shift+Enter puts a joker at the low end.
async function onMeld(meld, position, { fromKeyboard = false } = {}) {
  if (!myTurn() || deal().phase !== "play") return;
  const items = selectedItems();
  if (!items.length) {
    toast("Select a card from your hand first, then click the meld.", "info");
    return;
  }
  const clicked = position === null ? null : meld.cards[position];
  const allReal = items.every((item) => !parseCard(item.card).joker);
  const hasJoker = meld.cards.some((pair) => pair.card === "JK");
  const swap = clicked ? clicked.card === "JK" : fromKeyboard && hasJoker;
  if (swap && allReal && can("swap")) {
    const cards = items.map((item) => item.card);
    const ok = await act({ type: "swap", cards, meld: meld.index }, { quiet: fromKeyboard });
    if (ok) {
      state.selected.clear();
      render();
    }
    if (ok || !fromKeyboard) return;
  }
  if (!can("off")) {
    toast(deal().opened[mySeat()] ? "Nothing can be laid off now." : `Open first (${ruleset().opening_minimum}+) before you lay off.`);
    return;
  }
  // Several cards: lay each where it fits, in any order that works.
  let pending = [...items];
  while (pending.length) {
    const left = [];
    let laid = false;
    for (const item of pending) {
      const joker = parseCard(item.card).joker;
      const action = { type: "off", card: item.card, meld: meld.index, end: joker && position === 0 ? "low" : null };
      if (await act(action, { quiet: true })) {
        state.selected.delete(item.id);
        laid = true;
      } else {
        if (state.lastError && state.lastError.status === 409) return;
        left.push(item);
      }
    }
    pending = left;
    if (!laid) break;
  }
  if (pending.length && state.lastError) toast(state.lastError.message);
  render();
}

async function join(code) {
  const result = await call(`${API}/join`, { method: "POST", body: { invite_code: code || "" } });
  if (result) {
    state.missing = false;
    apply(result);
    toast("You joined the game.", "info");
  }
}

async function start() {
  const result = await call(`${API}/start`, { method: "POST" });
  if (result) apply(result);
}

async function resign() {
  if (!window.confirm("Resign this game? Your total stays and the server plays your seat.")) return;
  const result = await call(`${API}/resign`, { method: "POST" });
  if (result) apply(result);
}

async function leave() {
  try {
    await api(`${API}/leave`, { method: "POST" });
    window.location.href = LOBBY_URL;
  } catch (error) {
    toast(error.message);
  }
}

async function abort() {
  if (!window.confirm("Cancel this game for everyone?")) return;
  const result = await call(`${API}/abort`, { method: "POST" });
  if (result) apply(result);
}

// ------------------------------------------------------------------ wiring

function onKey(event) {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  if (target && (target.matches("input, textarea, select") || target.isContentEditable)) return;
  if ($("summary").open || $("absent-dialog").open) return;
  const key = event.key;
  if (key === "ArrowLeft" || key === "ArrowRight") {
    const direction = key === "ArrowLeft" ? -1 : 1;
    if (moveSelected(direction)) {
      event.preventDefault();
      return;
    }
    const cards = [...$("hand").querySelectorAll(".pcard")];
    const index = cards.indexOf(document.activeElement);
    if (index >= 0) {
      const next = cards[Math.min(cards.length - 1, Math.max(0, index + direction))];
      next.focus();
      event.preventDefault();
    }
  } else if (key === "ArrowDown" || key === "Escape") {
    if (state.selected.size) {
      event.preventDefault();
      deselectAll();
    }
  } else if (key === "1") sortHand("suit");
  else if (key === "3") sortHand("rank");
  else if (key === "d" || key === "D") draw();
  else if (key === "t" || key === "T") {
    if (myTurn() && can("take") && deal().phase === "draw") act({ type: "take" });
  } else if (key === "x" || key === "X") discardSelected();
  else if (key === "l" || key === "L") layGroup();
}

function wire() {
  $("stock").addEventListener("click", draw);
  $("discard").addEventListener("click", onDiscardPile);
  $("sort-suit").addEventListener("click", () => sortHand("suit"));
  $("sort-rank").addEventListener("click", () => sortHand("rank"));
  $("lay-group").addEventListener("click", layGroup);
  $("discard-button").addEventListener("click", discardSelected);
  $("undo-take").addEventListener("click", () => act({ type: "undo" }));
  $("deselect").addEventListener("click", deselectAll);
  $("open-button").addEventListener("click", openNow);
  $("cancel-opening").addEventListener("click", cancelOpening);
  document.addEventListener("keydown", onKey);
  $("absent-dialog").addEventListener("cancel", () => {
    state.absentDismissed = absentKey(); // Esc: the banner's "Choose…" opens it again
  });
  window.addEventListener("resize", fitHand);
  setInterval(tick, 1000);
}

const tableChat = new TableChat({
  api: API,
  list: $("chat-log"),
  form: $("chat-form"),
  input: $("chat-input"),
  note: $("chat-note"),
  count: $("chat-count"),
});
wire();
const live = new Live({
  wsUrl: root.dataset.wsUrl || "",
  game: GAME,
  ply: () => (state.view ? state.view.ply : null),
  pollMs: 2000,
  onHint: async (event) => {
    // A chat line changes nothing else: the state need not be read again for it.
    if (tableChat.onEvent(event)) return;
    if (event && event.type === "absent_decided") state.absentBy = event.by;
    if (!state.busy && !state.missing) await refresh();
  },
});
window.__remiLive = live; // for the browser tests: is the push channel up?
refresh().then(() => live.start());
