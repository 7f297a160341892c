// The table page: the only script the template loads. It connects the parts: what a
// new view of the game sets off, what redraws the table, and the page's controls.

import { TableChat } from "../chat.js";
import { ChatModeration } from "../chat-moderation.js";
import { $ } from "../dom.js";
import { loadAbsent, noteDialogDismissed, warnBeforeLeaving } from "./absent.js";
import { discardSelected, draw, layGroup, onDiscardPile, openNow, undoTake } from "./actions.js";
import { syncChips } from "./chips.js";
import { tick } from "./clock.js";
import { connect } from "./connection.js";
import { syncDay, wireDay } from "./day.js";
import { syncPause } from "./deal-pause.js";
import { cancelOpening, deselectAll, sortHand, syncHand } from "./hand.js";
import { wireDeckToggle } from "./deck-toggle.js";
import { showKeysAsTheLayoutPrints } from "./key-labels.js";
import { wireKeyboardHelp } from "./keyboard-help.js";
import { onKey } from "./keys.js";
import { syncLog } from "./log.js";
import { API } from "./page.js";
import { refresh } from "./refresh.js";
import { render } from "./render.js";
import { syncRematch, wireRematch } from "./rematch.js";
import { syncReview, wireReview } from "./review.js";
import { syncScoreSheet } from "./score-sheet.js";
import { wireReorder } from "./reorder.js";
import { reportSeen } from "./seen.js";
import { fitPileWord } from "./render-board.js";
import { fitHand } from "./render-hand.js";
import { markLoaded, state, subscribe } from "./store.js";
import { syncSummaryReopen, wireSummaryReopen } from "./summary.js";

function wireControls() {
  $("stock").addEventListener("click", draw);
  $("discard").addEventListener("click", onDiscardPile);
  $("sort-suit").addEventListener("click", () => sortHand("suit"));
  $("sort-rank").addEventListener("click", () => sortHand("rank"));
  $("lay-group").addEventListener("click", layGroup);
  $("discard-button").addEventListener("click", discardSelected);
  $("undo-take").addEventListener("click", undoTake);
  $("deselect").addEventListener("click", deselectAll);
  $("open-button").addEventListener("click", openNow);
  $("cancel-opening").addEventListener("click", cancelOpening);
  document.addEventListener("keydown", onKey);
  wireReorder();
  wireKeyboardHelp();
  showKeysAsTheLayoutPrints();
  wireSummaryReopen();
  wireDeckToggle();
  $("absent-dialog").addEventListener("cancel", noteDialogDismissed);
  window.addEventListener("beforeunload", warnBeforeLeaving);
  window.addEventListener("resize", fitHand);
  window.addEventListener("resize", fitPileWord);
  setInterval(() => {
    tick();
    syncPause();
    syncSummaryReopen();
  }, 1000);
  wireDay();
  wireReview();
}

// A new view of the game: the chat learns who may write, the hand follows the deal,
// the table is drawn, and the absent player and the log catch up.
function onView(chat, before) {
  const view = state.view;
  if (!state.loaded) chat.sync();
  markLoaded();
  chat.setWriter(view.you !== null && view.you !== undefined, view.status);
  chat.setPeople(view.seats.map((seat) => seat.user));
  syncHand(before);
  render();
  loadAbsent();
  syncChips();
  syncDay(before);
  syncScoreSheet();
  syncReview();
  syncPause();
  syncSummaryReopen();
  syncRematch();
  if (!state.log.started || view.ply > state.log.ply || (before && before.status !== view.status)) {
    syncLog();
  }
}

function main() {
  // A moderator's page carries the moderation endpoint (no one else's does).
  const table = $("game").dataset;
  const moderation = table.modChat ? new ChatModeration({ path: table.modChat, report: table.modReport || "" }) : null;
  const chat = new TableChat({
    moderation,
    api: API,
    list: $("chat-log"),
    form: $("chat-form"),
    input: $("chat-input"),
    note: $("chat-note"),
    count: $("chat-count"),
    me: $("game").dataset.username,
  });
  subscribe("view", (before) => onView(chat, before));
  subscribe("change", render);
  wireControls();
  const live = connect(chat);
  wireRematch(() => live.follow("events"));
  refresh().then(() => {
    live.start();
    reportSeen();
  });
}

main();
