// An absent player in a live game: the table waits for them (a banner with a clock for
// everyone), then the host chooses what happens (a dialog), then everyone is told once
// what became of them. GET …/absent says where the wait stands.

import { api } from "../api.js";
import { $, button, el } from "../dom.js";
import { call } from "./actions.js";
import { tick } from "./clock.js";
import { API } from "./page.js";
import { apply } from "./refresh.js";
import { renderMe, renderOpponents } from "./render-seats.js";
import { state, updateAbsent } from "./store.js";
import { awaited, seatName, seatOf } from "./view.js";

const ABSENT_CHOICES = {
  wait: { label: "Wait longer", hint: "Give them another wait to come back." },
  continue: { label: "Continue without them", hint: "Their seat is out; the game goes on." },
  end: { label: "End the game", hint: "Their seat is out; the lowest total wins now." },
};

export async function loadAbsent() {
  const v = state.view;
  if (!v || v.status !== "active" || v.time_control.kind !== "live") {
    noteAbsent(null);
    return;
  }
  if (state.absent.loading) {
    updateAbsent({ again: true });
    return;
  }
  updateAbsent({ loading: true });
  try {
    noteAbsent(await api(`${API}/absent`));
  } catch {
    // the next change or poll tries again
  } finally {
    updateAbsent({ loading: false });
    if (state.absent.again) {
      updateAbsent({ again: false });
      loadAbsent();
    }
  }
}

function noteAbsent(body) {
  const before = state.absent.body && state.absent.body.absent;
  const now = body && body.absent;
  if (!before && !now) {
    updateAbsent({ body });
    return;
  }
  if (before && !now) updateAbsent({ decided: decidedText(before) });
  if (now) updateAbsent({ decided: null, by: null });
  updateAbsent({ body });
  renderAbsent();
  renderOpponents();
  renderMe();
  tick();
}

// Who decided, from the websocket's absent_decided event ("host" or "default").
export function noteDecidedBy(by) {
  updateAbsent({ by });
}

// What became of the player the table was waiting for, from the game as it is now.
function decidedText(wait) {
  const v = state.view;
  const seat = seatOf(wait.seat);
  const name = seatName(wait.seat, { you: false });
  const by = state.absent.by;
  const ended = v.status === "finished" && v.end_reason === "absent";
  if (ended || (seat && seat.status === "out")) {
    if (wait.seat === v.you) {
      return ended ? "You did not come back in time: the game was ended." : "You did not come back in time: the game goes on without you.";
    }
    if (by === "host") {
      return ended ? `The host ended the game: ${name} did not come back.` : `The host chose to go on without ${name}.`;
    }
    const lead = by === "default" ? `${name} did not come back and the host did not choose` : `${name} did not come back`;
    return ended ? `${lead}: the game ended.` : `${lead}: the game goes on without them.`;
  }
  if (v.status === "active") return wait.seat === v.you ? "Welcome back!" : `${name} is back.`;
  return null;
}

export function renderAbsent() {
  const box = $("absent");
  const v = state.view;
  const away = v ? awaited() : null;
  box.replaceChildren();
  if (!away) {
    closeAbsentDialog();
    box.hidden = !(v && state.absent.decided);
    if (!box.hidden) {
      box.className = "absent-banner absent-decided";
      box.append(
        el("span", "absent-text", state.absent.decided),
        button("OK", "button button-small button-quiet", () => {
          updateAbsent({ decided: null });
          renderAbsent();
        }, { "aria-label": "Dismiss this message" }),
      );
    }
    return;
  }
  box.hidden = false;
  const name = seatName(away.seat, { you: false });
  const mine = away.seat === v.you;
  const clock = absentClock(away);
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
  if (state.absent.body.you_choose) {
    text.append(`${name} has not come back. Your choice — default in `, clock);
    box.append(button("Choose…", "button button-small", openAbsentDialog, { id: "absent-open" }));
    if (state.absent.dismissed !== absentKey()) openAbsentDialog();
    else fillAbsentDialog();
  } else if (mine) {
    text.append("You were away: the host is deciding whether to go on without you — ", clock, ". Move now to stay.");
  } else {
    text.append(`${name} has not come back: the host is deciding — `, clock);
  }
}

function absentClock(away) {
  const clock = el("span", "absent-clock");
  clock.dataset.deadline = away.deadline_at;
  clock.dataset.format = "clock";
  return clock;
}

// One wait, one key: the host who closed the dialog is not asked again in the same wait.
function absentKey() {
  const away = awaited();
  return away ? `${state.absent.body.ply}:${away.waits}` : null;
}

// Esc closed the dialog: the banner's "Choose…" opens it again.
export function noteDialogDismissed() {
  updateAbsent({ dismissed: absentKey() });
}

function fillAbsentDialog() {
  const away = awaited();
  if (!away) return;
  const name = seatName(away.seat, { you: false });
  $("absent-title").textContent = `${name} has not come back`;
  $("absent-text").textContent = `The table waited for ${name}. As the host, you decide what happens now.`;
  const fallback = away.default === "end" ? "the game ends" : `the game goes on without ${name}`;
  $("absent-default").replaceChildren("Without a choice in ", absentClock(away), `, ${fallback}.`);
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
  const ply = state.absent.body ? state.absent.body.ply : null;
  const result = await call(`${API}/absent`, { method: "POST", body: { choice, ply } });
  if (result) {
    if (choice !== "wait") updateAbsent({ by: "host" });
    closeAbsentDialog();
    apply(result);
  } else {
    loadAbsent();
  }
}
