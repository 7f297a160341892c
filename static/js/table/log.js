// The move log in the side panel, read from GET …/moves after the last move shown. A
// deal's result in it also opens the deal's summary, and the game's end the game's.

import { api } from "../api.js";
import { cardShort } from "../cards.js";
import { $, el } from "../dom.js";
import { gettext, interpolate } from "../i18n.js";
import { API } from "./page.js";
import { refresh } from "./refresh.js";
import { resultLine } from "./results.js";
import { state, updateLog, updateSummaries } from "./store.js";
import { showDealSummary, showGameSummary } from "./summary.js";
import { deal, mySeat, seatName } from "./view.js";

// How many moves the log shows on arrival, and keeps at most.
const FIRST_MOVES = 40;
const KEPT_LINES = 250;

export async function syncLog() {
  if (state.log.syncing) {
    updateLog({ again: true });
    return;
  }
  updateLog({ syncing: true, again: false });
  try {
    const initial = !state.log.started;
    updateLog({ started: true });
    const after = initial ? Math.max(0, state.view.ply - FIRST_MOVES) : state.log.ply;
    // Pages of 100 moves from `after`, following `next` to the end of the log.
    let log = await api(`${API}/moves?after=${after}&page_size=100`);
    const entries = [...log.results];
    while (log.next) {
      log = await api(log.next);
      entries.push(...log.results);
    }
    for (const entry of entries) {
      if (entry.ply <= state.log.ply) continue;
      addLog(entry);
      updateLog({ ply: entry.ply });
      if (entry.event && entry.event.result && !initial && entry.ply > state.summaries.dealPly) {
        updateSummaries({ dealPly: entry.ply });
        showDealSummary(entry);
      }
    }
    updateLog({ ply: Math.max(state.log.ply, log.ply) });
    // The log is newer than the table (moves made after the state we hold): re-read it.
    if (log.ply > state.view.ply) setTimeout(refresh, 0);
    if (!initial && state.view.status === "finished" && !state.summaries.gameOver && !$("summary").open) {
      showGameSummary();
    }
  } catch {
    // the log is a nicety; the table itself is already up to date
  } finally {
    updateLog({ syncing: false });
    if (state.log.again) syncLog();
  }
}

function cardsText(pairs) {
  return pairs.map((pair) => cardShort(pair.card)).join(" ");
}

// One line of the log: "You" and the other players take different verb forms in the
// languages of the site, so the viewer's own moves have sentences of their own.
function describe(entry) {
  const e = entry.event || {};
  const mine = entry.seat === mySeat();
  const values = { who: seatName(entry.seat) };
  const line = (yours, theirs, more = {}) => interpolate(mine ? yours : theirs, { ...values, ...more }, true);
  switch (e.type || entry.kind) {
    case "draw":
      return e.card
        ? line(gettext("You drew %(card)s from the stock"), gettext("%(who)s drew %(card)s from the stock"), { card: cardShort(e.card.card) })
        : line(gettext("You drew from the stock"), gettext("%(who)s drew from the stock"));
    case "take":
      return line(gettext("You took %(card)s from the discard pile"), gettext("%(who)s took %(card)s from the discard pile"), {
        card: cardShort(e.card.card),
      });
    case "undo": {
      const text = line(gettext("You put %(card)s back and drew from the stock"), gettext("%(who)s put %(card)s back and drew from the stock"), {
        card: cardShort(e.returned.card),
      });
      return e.card ? `${text} (${cardShort(e.card.card)})` : text;
    }
    case "lay":
      return line(gettext("You laid down %(melds)s"), gettext("%(who)s laid down %(melds)s"), { melds: (e.melds || []).map(cardsText).join(" · ") });
    case "off":
      return offText(entry, e, mine, values.who);
    case "swap":
      return line(gettext("You swapped %(cards)s for a joker"), gettext("%(who)s swapped %(cards)s for a joker"), { cards: cardsText(e.cards) });
    case "discard":
      return line(gettext("You discarded %(card)s"), gettext("%(who)s discarded %(card)s"), { card: cardShort(e.card.card) });
    case "resign":
      return line(gettext("You resigned"), gettext("%(who)s resigned"));
    default:
      return `${values.who}: ${entry.kind}`;
  }
}

// "… laid 7♥ off onto Ana's meld": whose meld, told from where the reader sits.
function offText(entry, e, mine, who) {
  const owner = ownerOf(e.meld);
  const values = { who, card: cardShort(e.card.card), owner: owner === null ? "" : seatName(owner) };
  let text;
  if (owner === null) text = mine ? gettext("You laid %(card)s off onto a meld") : gettext("%(who)s laid %(card)s off onto a meld");
  else if (owner === entry.seat) text = mine ? gettext("You laid %(card)s off onto your own meld") : gettext("%(who)s laid %(card)s off onto their own meld");
  else if (owner === mySeat()) text = gettext("%(who)s laid %(card)s off onto your meld");
  else text = mine ? gettext("You laid %(card)s off onto %(owner)s's meld") : gettext("%(who)s laid %(card)s off onto %(owner)s's meld");
  return interpolate(text, values, true);
}

function ownerOf(index) {
  const d = deal();
  const meld = d && d.table.find((m) => m.index === index);
  return meld ? meld.owner : null;
}

function addLog(entry) {
  const list = $("log");
  if (entry.deal !== null && entry.deal !== state.log.deal) {
    updateLog({ deal: entry.deal });
    list.append(el("li", "log-deal", interpolate(gettext("Deal %(number)s"), { number: entry.deal }, true)));
  }
  const item = el("li", "log-move");
  if (entry.seat === mySeat()) item.classList.add("log-mine");
  item.textContent = describe(entry) + (entry.by_server ? ` ${gettext("(played by the server)")}` : "");
  list.append(item);
  const e = entry.event || {};
  if (e.reshuffled) list.append(el("li", "log-note", gettext("The discard pile was shuffled into a new stock.")));
  if (e.result) list.append(el("li", "log-note", resultLine(e.result)));
  while (list.children.length > KEPT_LINES) list.firstElementChild.remove();
  list.scrollTop = list.scrollHeight;
}
