// The move log in the side panel, read from GET …/moves after the last move shown. A
// deal's result in it also opens the deal's summary, and the game's end the game's.

import { api } from "../api.js";
import { cardShort } from "../cards.js";
import { $, el } from "../dom.js";
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
  if (entry.deal !== null && entry.deal !== state.log.deal) {
    updateLog({ deal: entry.deal });
    list.append(el("li", "log-deal", `Deal ${entry.deal}`));
  }
  const item = el("li", "log-move");
  if (entry.seat === mySeat()) item.classList.add("log-mine");
  item.textContent = describe(entry) + (entry.by_server ? " (played by the server)" : "");
  list.append(item);
  const e = entry.event || {};
  if (e.reshuffled) list.append(el("li", "log-note", "The discard pile was shuffled into a new stock."));
  if (e.result) list.append(el("li", "log-note", resultLine(e.result)));
  while (list.children.length > KEPT_LINES) list.firstElementChild.remove();
  list.scrollTop = list.scrollHeight;
}
