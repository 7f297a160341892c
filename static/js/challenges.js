// Challenges on the web pages, through the public REST API: the "Challenge" form of a
// player's page (POST /api/v1/challenges) and, on "My games", the challenges made to you
// (accept, or decline with a reason) and yours still waiting (cancel).

import { api } from "./api.js";
import { $, button, el } from "./dom.js";
import { formatList, gettext, interpolate } from "./i18n.js";
import { namedAlone } from "./names.js";
import { paceText } from "./pace.js";

const REASONS = {
  generic: gettext("Not now"),
  later: gettext("Later, please"),
  too_fast: gettext("Too fast for me"),
  too_slow: gettext("Too slow for me"),
  rated: gettext("Rated, please"),
  casual: gettext("Casual, please"),
  rules: gettext("Not these rules"),
  no_bot: gettext("No bots, please"),
};
const POLL_MS = 10000;

function name(user) {
  return user.title ? `${user.display_name} (${user.title})` : namedAlone(user);
}

// The rules' names in the page's language, by preset (GET /api/v1/rulesets, as the
// lobby lists them), asked once: a challenge names its rules by the preset's id.
let presetNames = null;
function loadPresetNames() {
  if (!presetNames) {
    presetNames = allPages("/api/v1/rulesets")
      .then((rulesets) => Object.fromEntries(rulesets.map((entry) => [entry.name, entry.ruleset.display_name])))
      .catch(() => ({}));
  }
  return presetNames;
}

function terms(challenge, names) {
  const tc = challenge.time_control;
  const pace = paceText(tc);
  const parts = [challenge.preset_name || names[challenge.preset] || challenge.preset, pace, challenge.rated ? gettext("rated") : gettext("casual")];
  if (challenge.bots.length) parts.push(interpolate(gettext("with %(bots)s"), { bots: formatList(challenge.bots) }, true));
  return parts.join(" · ");
}

// ------------------------------------------------------------------ a player's page

function challengeForm(form) {
  const status = $("challenge-status");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const live = data.get("time_control") === "live";
    const body = {
      to: form.dataset.username,
      preset: data.get("preset"),
      time_control: live ? "live" : "correspondence",
      rated: data.get("rated") === "on",
    };
    if (live) body.seconds_per_turn = 60;
    const submit = form.querySelector("button[type=submit]");
    submit.disabled = true;
    try {
      const challenge = await api("/api/v1/challenges", { method: "POST", body });
      const names = await loadPresetNames();
      if (challenge.game) {
        window.location.href = `/games/${challenge.game}/`;
        return;
      }
      status.textContent = interpolate(
        gettext('Challenge sent: %(terms)s. It waits under "My games" until %(name)s answers.'),
        { terms: terms(challenge, names), name: form.dataset.displayName },
        true,
      );
    } catch (error) {
      status.textContent = error.message;
      submit.disabled = false;
    }
  });
}

// ------------------------------------------------------------------ "My games"

function incomingRow(challenge, names, refresh) {
  const row = el("li", "game-row challenge-row");
  const main = el("div", "game-row-main");
  main.append(
    el(
      "div",
      "game-row-title",
      challenge.rematch_of
        ? interpolate(gettext("%(name)s offers a rematch."), { name: name(challenge.challenger) }, true)
        : interpolate(gettext("%(name)s challenges you"), { name: name(challenge.challenger) }, true),
    ),
    el("div", "game-row-meta", terms(challenge, names)),
  );
  const accept = button(gettext("Accept"), "button button-small", async () => {
    accept.disabled = true;
    try {
      const accepted = await api(`/api/v1/challenges/${challenge.id}/accept`, { method: "POST" });
      // A rematch waiting for others' answers: its finished table shows who has answered.
      window.location.href = `/games/${accepted.game || accepted.rematch_of}/`;
    } catch (error) {
      main.append(el("div", "game-row-meta", error.message));
      refresh();
    }
  });
  const reason = el("select", "pace");
  reason.setAttribute("aria-label", gettext("Why you decline"));
  for (const [value, label] of Object.entries(REASONS)) {
    const option = el("option", null, label);
    option.value = value;
    reason.append(option);
  }
  const decline = button(gettext("Decline"), "button button-small button-ghost", async () => {
    decline.disabled = true;
    await api(`/api/v1/challenges/${challenge.id}/decline`, {
      method: "POST",
      body: { reason: reason.value },
    }).catch(() => null);
    refresh();
  });
  row.append(main, accept, reason, decline);
  return row;
}

function outgoingRow(challenge, names, refresh) {
  const row = el("li", "game-row challenge-row");
  const main = el("div", "game-row-main");
  main.append(
    el(
      "div",
      "game-row-title",
      challenge.rematch_of
        ? gettext("You offered a rematch: it starts when everyone has accepted.")
        : challenge.destination
        ? interpolate(gettext("You challenged %(name)s"), { name: name(challenge.destination) }, true)
        : gettext("Your open challenge to anyone"),
    ),
    el("div", "game-row-meta", `${terms(challenge, names)} · ${gettext("waiting for an answer")}`),
  );
  const cancel = button(gettext("Cancel"), "button button-small button-ghost", async () => {
    cancel.disabled = true;
    await api(`/api/v1/challenges/${challenge.id}/cancel`, { method: "POST" }).catch(() => null);
    refresh();
  });
  row.append(main, cancel);
  return row;
}

async function allPages(path) {
  const results = [];
  let next = path;
  while (next) {
    const page = await api(next);
    results.push(...page.results);
    next = page.next;
  }
  return results;
}

function challengeLists(box) {
  const incoming = $("challenges-in");
  const outgoing = $("challenges-out");
  const refresh = async () => {
    try {
      const [mine, sent, names] = await Promise.all([
        allPages("/api/v1/challenges?direction=in&page_size=100"),
        allPages("/api/v1/challenges?direction=out&page_size=100"),
        loadPresetNames(),
      ]);
      incoming.replaceChildren(...mine.map((c) => incomingRow(c, names, refresh)));
      outgoing.replaceChildren(...sent.map((c) => outgoingRow(c, names, refresh)));
      box.hidden = !mine.length && !sent.length;
    } catch (error) {
      incoming.replaceChildren(el("li", "empty", error.message));
      box.hidden = false;
    }
  };
  refresh();
  setInterval(refresh, POLL_MS);
}

const form = $("challenge-form");
if (form) challengeForm(form);
const lists = $("challenges");
if (lists) challengeLists(lists);
