// An absent player in a live game: the table waits for them (a banner with a clock for
// everyone), then the host chooses what happens (a dialog), then everyone is told once
// what became of them. GET …/absent says where the wait stands.

import { api } from "../api.js";
import { $, button, el } from "../dom.js";
import { gettext, interpolate } from "../i18n.js";
import { call } from "./actions.js";
import { tick } from "./clock.js";
import { API } from "./page.js";
import { apply } from "./refresh.js";
import { renderMe, renderOpponents } from "./render-seats.js";
import { state, updateAbsent } from "./store.js";
import { awaited, seatName, seatOf } from "./view.js";

const ABSENT_CHOICES = {
  wait: { label: gettext("Wait longer"), hint: gettext("Give them another wait to come back.") },
  continue: { label: gettext("Continue without them"), hint: gettext("Their seat is out; the game goes on.") },
  end: { label: gettext("End the game"), hint: gettext("Their seat is out; the lowest total wins now.") },
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

// Leaving a running live game with other people in it lets them down (they wait for
// you, then go on without you), so the browser asks first. Against bots only the game
// just pauses until you come back: no question.
export function warnBeforeLeaving(event) {
  const v = state.view;
  if (!v || v.status !== "active" || v.time_control.kind !== "live") return;
  const me = v.you === null || v.you === undefined ? null : seatOf(v.you);
  if (!me || me.status !== "active") return;
  const others = v.seats.some((seat) => seat.position !== v.you && seat.status !== "out" && !seat.user.is_bot);
  if (!others) return;
  event.preventDefault();
  event.returnValue = "";
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
      return ended
        ? gettext("You did not come back in time: the game was ended.")
        : gettext("You did not come back in time: the game goes on without you.");
    }
    let text;
    if (by === "host") {
      text = ended ? gettext("The host ended the game: %(name)s did not come back.") : gettext("The host chose to go on without %(name)s.");
    } else if (by === "default") {
      text = ended
        ? gettext("%(name)s did not come back and the host did not choose: the game ended.")
        : gettext("%(name)s did not come back and the host did not choose: the game goes on without them.");
    } else {
      text = ended ? gettext("%(name)s did not come back: the game ended.") : gettext("%(name)s did not come back: the game goes on without them.");
    }
    return interpolate(text, { name }, true);
  }
  if (v.status === "active") return wait.seat === v.you ? gettext("Welcome back!") : interpolate(gettext("%(name)s is back."), { name }, true);
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
        button(gettext("OK"), "button button-small button-quiet", () => {
          updateAbsent({ decided: null });
          renderAbsent();
        }, { "aria-label": gettext("Dismiss this message") }),
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
    if (mine) withClock(text, gettext("The table is waiting for you — %(clock)s. Make your move to stay in the game."), clock);
    else {
      withClock(text, interpolate(gettext("Waiting for %(name)s — %(clock)s"), { name, clock: "%(clock)s" }, true), clock);
      if (away.waits > 1) text.append(` ${gettext("(the host chose to wait longer)")}`);
    }
    closeAbsentDialog();
    return;
  }
  box.className = "absent-banner absent-choosing";
  if (state.absent.body.you_choose) {
    withClock(text, interpolate(gettext("%(name)s has not come back. Your choice — default in %(clock)s"), { name, clock: "%(clock)s" }, true), clock);
    box.append(button(gettext("Choose…"), "button button-small", openAbsentDialog, { id: "absent-open" }));
    if (state.absent.dismissed !== absentKey()) openAbsentDialog();
    else fillAbsentDialog();
  } else if (mine) {
    withClock(text, gettext("You were away: the host is deciding whether to go on without you — %(clock)s. Move now to stay."), clock);
  } else {
    withClock(text, interpolate(gettext("%(name)s has not come back: the host is deciding — %(clock)s"), { name, clock: "%(clock)s" }, true), clock);
  }
}

// A sentence with a live clock in it: the text around %(clock)s, the clock node in its place.
function withClock(node, sentence, clock) {
  const [before, after = ""] = sentence.split("%(clock)s");
  node.append(before, clock, after);
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
  $("absent-title").textContent = interpolate(gettext("%(name)s has not come back"), { name }, true);
  $("absent-text").textContent = interpolate(gettext("The table waited for %(name)s. As the host, you decide what happens now."), { name }, true);
  const fallback =
    away.default === "end"
      ? gettext("Without a choice in %(clock)s, the game ends.")
      : interpolate(gettext("Without a choice in %(clock)s, the game goes on without %(name)s."), { name, clock: "%(clock)s" }, true);
  const line = $("absent-default");
  line.replaceChildren();
  withClock(line, fallback, absentClock(away));
  const actions = $("absent-actions");
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.choice : null;
  actions.replaceChildren();
  for (const choice of away.choices) {
    const info = ABSENT_CHOICES[choice];
    const item = button("", `absent-choice${choice === away.default ? " absent-choice-default" : ""}`, () => chooseAbsent(choice));
    item.dataset.choice = choice;
    item.append(el("span", "absent-choice-label", choice === away.default ? interpolate(gettext("%(choice)s (default)"), { choice: info.label }, true) : info.label));
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
