// Asking the server what melds are worth (POST …/melds/check): the engine is the only
// judge of melds, values and the opening, under the game's own ruleset. Questions are
// debounced and only the answer to the latest one counts; ``meldCheckAnswer(name,
// melds)`` is that answer while it still answers these melds at this ply (else null:
// "checking…"). ``name`` keeps the opening row's questions apart from the selection's.

import { api } from "../api.js";
import { API } from "./page.js";
import { state, updateCheck } from "./store.js";

const DELAY_MS = 150;

export function checkMelds(melds) {
  return api(`${API}/melds/check`, { method: "POST", body: { melds } });
}

function questionKey(melds) {
  return `${state.view ? state.view.ply : ""}:${JSON.stringify(melds)}`;
}

// ``onAnswer`` runs once the answer to this question has come, unless a newer one was asked.
export function askMeldCheck(name, melds, onAnswer) {
  const check = state.checks[name];
  const key = questionKey(melds);
  if (key === check.asked) return;
  clearTimeout(check.timer);
  const seq = check.seq + 1;
  updateCheck(name, { asked: key, seq });
  if (!melds.length) return;
  const timer = setTimeout(async () => {
    let answer = null;
    let error = null;
    try {
      answer = await checkMelds(melds);
    } catch (caught) {
      error = caught;
    }
    if (seq !== state.checks[name].seq) return; // a newer question is on its way
    updateCheck(name, { answered: { key, answer, error } });
    onAnswer();
  }, DELAY_MS);
  updateCheck(name, { timer });
}

export function meldCheckAnswer(name, melds) {
  const done = state.checks[name].answered;
  return done && done.key === questionKey(melds) ? done : null;
}
