// Tells the server while this table is seen: the page visible and used in the last two
// minutes. Only then does a "your turn" email wait (games.notify.recipients); a tab
// left open, hidden or idle, says nothing, so the player is told at once.

import { api } from "../api.js";
import { API } from "./page.js";
import { markActive, state, subscribe } from "./store.js";

const EVERY_MS = 30000;
const IDLE_AFTER_MS = 120000;
const ACTIVITY = ["pointerdown", "pointermove", "keydown", "wheel", "touchstart", "scroll"];

function seated() {
  const view = state.view;
  return Boolean(view && view.you !== null && view.you !== undefined && view.status === "active");
}

function myTurn(view) {
  return Boolean(view && view.to_move !== null && view.to_move === view.you);
}

function seen() {
  return document.visibilityState === "visible" && Date.now() - state.activeAt < IDLE_AFTER_MS;
}

async function report() {
  if (!seated() || !seen()) return;
  try {
    await api(`${API}/seen`, { method: "POST" });
  } catch {
    // A report lost: at worst the player gets an email they did not need.
  }
}

function active() {
  const now = Date.now();
  const wasIdle = now - state.activeAt >= IDLE_AFTER_MS;
  markActive(now);
  if (wasIdle) report();
}

export function reportSeen() {
  for (const type of ACTIVITY) {
    document.addEventListener(type, active, { passive: true, capture: true });
  }
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") active();
    report();
  });
  // A turn of mine on screen is reported at once: seen, it needs no email.
  subscribe("view", (before) => {
    if (myTurn(state.view) && !(myTurn(before) && before.ply === state.view.ply)) report();
  });
  setInterval(report, EVERY_MS);
  report();
}
