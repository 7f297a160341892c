// The correspondence player's corner of the table, for the players seated at it only:
// the "next game" button once the turn has left them, a draw queued for their next
// turn, extra time asked of (or granted by) the others, and their private note. What
// each part shows lives in its own elements: the store keeps the game, not these.

import { api } from "../api.js";
import { cardFromTyped, cardShort } from "../cards.js";
import { $, button, el } from "../dom.js";
import { formatNumber, gettext, interpolate, ngettext } from "../i18n.js";
import { showGamesWaiting } from "../next-game.js";
import { API } from "./page.js";
import { state } from "./store.js";
import { toast } from "./toast.js";
import { mySeat, myTurn, seatName } from "./view.js";

const QUEUE_API = "/api/v1/me/queue";

function seated() {
  return Boolean(state.view) && mySeat() !== null && mySeat() !== undefined;
}

function correspondence() {
  const v = state.view;
  return v.status === "active" && v.time_control.kind === "correspondence";
}

// ------------------------------------------------------------------ the next game

async function syncNextGame() {
  const link = $("next-game");
  if (!seated() || state.view.status !== "active" || myTurn()) {
    link.hidden = true;
    return;
  }
  try {
    const queue = await api(QUEUE_API);
    showGamesWaiting(queue.my_turn);
    $("next-count").textContent = formatNumber(queue.my_turn);
    // Shown only with a game to go to: never "(0)".
    link.hidden = !queue.my_turn || queue.next === null;
  } catch {
    link.hidden = true; // the header's button still leads there
  }
}

// ------------------------------------------------------------------ the queued draw

function showPremove(body) {
  $("premove-status").textContent = body.queued
    ? body.unless.length
      ? interpolate(gettext("queued, unless the discard pile shows %(cards)s"), { cards: body.unless.map(cardShort).join(" ") }, true)
      : gettext("queued")
    : gettext("none");
  $("premove-cancel").hidden = !body.queued;
}

async function loadPremove() {
  try {
    showPremove(await api(`${API}/premove`));
  } catch {
    // shown again with the next view
  }
}

async function queuePremove() {
  const typed = $("premove-unless").value.split(/[\s,]+/).filter(Boolean);
  const unless = typed.map(cardFromTyped);
  const unknown = typed.filter((_, index) => unless[index] === null);
  if (unknown.length) {
    toast(interpolate(gettext("Not a card: %(typed)s. Type cards as the table shows them, e.g. 7♥ or 10♠."), { typed: unknown.join(" ") }, true));
    return;
  }
  try {
    showPremove(await api(`${API}/premove`, { method: "PUT", body: { unless } }));
  } catch (error) {
    toast(error.message);
  }
}

async function cancelPremove() {
  try {
    await api(`${API}/premove`, { method: "DELETE" });
    showPremove({ queued: false, unless: [] });
  } catch (error) {
    toast(error.message);
  }
}

// ------------------------------------------------------------------ extra time

function showRequests(body) {
  const box = $("extra-answers");
  box.replaceChildren();
  const pending = body.results.find((row) => row.status === "pending");
  if (!pending) return;
  const asked = ngettext("%(name)s asked for %(days)s more day.", "%(name)s asked for %(days)s more days.", pending.days);
  const line = el("p", "small", interpolate(asked, { name: seatName(pending.seat), days: pending.days }, true));
  box.append(line);
  if (pending.seat !== mySeat()) {
    const answer = (verb) => async () => {
      try {
        await api(`${API}/extra-time/${pending.id}/${verb}`, { method: "POST" });
        await loadRequests();
      } catch (error) {
        toast(error.message);
      }
    };
    box.append(
      button(gettext("Grant"), "button button-small", answer("grant")),
      button(gettext("Decline"), "button button-small button-ghost", answer("decline")),
    );
  }
}

async function loadRequests() {
  try {
    showRequests(await api(`${API}/extra-time`));
  } catch {
    // shown again with the next view
  }
}

async function askExtraTime() {
  const days = Number($("extra-days").value);
  try {
    await api(`${API}/extra-time`, { method: "POST", body: { days } });
    toast(gettext("Asked the table for more time."), "info");
    await loadRequests();
  } catch (error) {
    toast(error.message);
  }
}

// ------------------------------------------------------------------ the note

async function loadNote() {
  const panel = $("day-panel");
  if (panel.dataset.noteFor === API) return;
  try {
    const note = await api(`${API}/note`);
    $("note-text").value = note.text;
    panel.dataset.noteFor = API;
  } catch {
    // read again with the next view
  }
}

async function saveNote(event) {
  event.preventDefault();
  try {
    await api(`${API}/note`, { method: "PUT", body: { text: $("note-text").value } });
    $("note-status").textContent = gettext("Saved.");
  } catch (error) {
    toast(error.message);
  }
}

// ------------------------------------------------------------------ wiring

export function wireDay() {
  $("premove-queue").addEventListener("click", queuePremove);
  $("premove-cancel").addEventListener("click", cancelPremove);
  $("extra-ask").addEventListener("click", askExtraTime);
  $("note-form").addEventListener("submit", saveNote);
}

// A new view: the corner follows the turn (only the seated see it).
export function syncDay(before) {
  const panel = $("day-panel");
  panel.hidden = !seated();
  if (panel.hidden) return;
  loadNote();
  const plyChanged = !before || before.ply !== state.view.ply;
  const corr = correspondence();
  $("premove").hidden = !corr;
  $("extra-time").hidden = !corr;
  $("extra-ask-row").hidden = !corr || !myTurn();
  if (!plyChanged) return;
  syncNextGame();
  if (corr) {
    loadPremove();
    loadRequests();
  }
}
