// The lobby: create a game from a preset (or play bots at once), join an open game,
// or follow an invite link. Everything goes through the public REST API.

import { api } from "./api.js";
import { $, el } from "./dom.js";

const form = $("new-game");

const PRESETS = {
  macedonian: {
    title: "Macedonian",
    text: "The classic rules: nobody lays down in their first turn, only a player who has opened may take the discard, and aces count 10.",
  },
  serbian: {
    title: "Serbian",
    text: "As on the Serbian sites: anyone may take the discard but must open in that turn (or give it back, with undo); a dry hand scores −280.",
  },
  polish51: {
    title: "Polish Remik 51",
    text: "Remik 51: two jokers, 13 cards, an upcard starts the discard pile and one deal decides it; a high ace counts 11.",
  },
};

// House rules offered in the lobby: ruleset field -> how to ask.
const HOUSE_RULES = [
  { field: "opening_minimum", kind: "number", label: "Points needed to open", min: 1, max: 200 },
  { field: "hand_needs_51", kind: "bool", label: "Going out in one go (a hand) also needs the opening minimum" },
  { field: "no_opening_in_first_round", kind: "bool", label: "Nobody lays down in their first turn" },
  { field: "discard_take_undo", kind: "bool", label: "Undo after taking the discard (put it back, draw instead)" },
  { field: "match_end_score", kind: "number", label: "The match ends when a total reaches (empty: never)", min: 50, max: 5000, nullable: true },
];

const PACE = {
  live: { legend: "Seconds per turn", options: [30, 60, 90, 120], unit: "s", initial: 60 },
  correspondence: { legend: "Days per move", options: [1, 2, 3, 5, 7, 14], unit: "days", initial: 3 },
};

let rulesets = {};

function toast(message, kind = "error") {
  const box = $("toasts");
  const item = el("div", `toast toast-${kind}`);
  item.setAttribute("role", "alert");
  item.append(el("span", "toast-text", message));
  box.append(item);
  setTimeout(() => item.remove(), 6000);
}

function value(name) {
  const checked = form.querySelector(`input[name="${name}"]:checked`);
  return checked ? checked.value : null;
}

function facts(rules) {
  const deals = rules.match_deals.every((n) => n === 1)
    ? "one deal"
    : `${rules.match_deals[0]}/${rules.match_deals[1]}/${rules.match_deals[2]} deals`;
  return [
    `${rules.jokers} jokers`,
    `${rules.hand_size} cards${rules.starter_extra_card ? " (starter 15)" : ""}`,
    `open with ${rules.opening_minimum}`,
    deals,
    rules.match_end_score ? `ends at ${rules.match_end_score}` : "lowest total wins",
  ];
}

function renderPresets(list) {
  const box = $("presets");
  box.replaceChildren();
  rulesets = {};
  list.forEach((preset, index) => {
    rulesets[preset.name] = preset.ruleset;
    const info = PRESETS[preset.name] || { title: preset.name, text: "" };
    const label = el("label", "choice");
    const input = el("input");
    input.type = "radio";
    input.name = "preset";
    input.value = preset.name;
    input.checked = preset.name === "serbian" || (index === 0 && !list.some((p) => p.name === "serbian"));
    const body = el("span", "choice-body");
    const title = el("span", "choice-title");
    title.append(el("span", null, info.title), el("small", null, `${preset.ruleset.min_players}–${preset.ruleset.max_players} players`));
    body.append(title, el("span", "choice-text", info.text));
    const row = el("span", "choice-facts");
    for (const fact of facts(preset.ruleset)) row.append(el("span", "fact", fact));
    body.append(row);
    label.append(input, body);
    box.append(label);
  });
  renderHouseRules();
}

function renderHouseRules() {
  const rules = rulesets[value("preset")];
  const box = $("house-rule-fields");
  box.replaceChildren();
  if (!rules) return;
  for (const rule of HOUSE_RULES) {
    const current = rules[rule.field];
    if (rule.kind === "bool") {
      const label = el("label", "check");
      const input = el("input");
      input.type = "checkbox";
      input.dataset.field = rule.field;
      input.checked = Boolean(current);
      label.append(input, el("span", null, rule.label));
      box.append(label);
    } else {
      const label = el("label", "inline-field");
      const input = el("input");
      input.type = "number";
      input.min = String(rule.min);
      input.max = String(rule.max);
      input.dataset.field = rule.field;
      input.value = current === null ? "" : String(current);
      label.append(el("span", null, rule.label), input);
      box.append(label);
    }
  }
}

function overrides() {
  const rules = rulesets[value("preset")];
  const out = {};
  for (const input of $("house-rule-fields").querySelectorAll("[data-field]")) {
    const field = input.dataset.field;
    let next;
    if (input.type === "checkbox") next = input.checked;
    else next = input.value.trim() === "" ? null : Number(input.value);
    if (next !== rules[field]) out[field] = next;
  }
  return out;
}

function renderPace() {
  const pace = PACE[value("time_control")];
  const select = $("pace");
  $("pace-legend").textContent = pace.legend;
  select.replaceChildren();
  for (const option of pace.options) {
    const item = el("option", null, `${option} ${pace.unit}`);
    item.value = String(option);
    item.selected = option === pace.initial;
    select.append(item);
  }
  // A time bank is for live games only.
  $("bank-field").hidden = value("time_control") !== "live";
}

function renderMode() {
  const bots = value("mode") === "bots";
  $("people-options").hidden = bots;
  $("bot-options").hidden = !bots;
  $("create-button").textContent = bots ? "Play now" : "Create game";
}

async function create(event) {
  event.preventDefault();
  const bots = value("mode") === "bots";
  const chosen = [...form.querySelectorAll('input[name="bots"]:checked')].map((input) => input.value);
  if (bots && (chosen.length < 1 || chosen.length > 3)) {
    toast("Pick one, two or three bots to play against.");
    return;
  }
  const kind = value("time_control");
  const pace = Number($("pace").value);
  const body = {
    preset: value("preset"),
    overrides: overrides(),
    players: bots ? chosen.length + 1 : Number(value("players")),
    visibility: bots ? "private" : value("visibility"),
    time_control: kind,
    bots: bots ? chosen : [],
    rated: !bots && value("rated") === "true", // games against the built-in bots are casual
  };
  if (kind === "live") {
    body.seconds_per_turn = pace;
    body.time_bank_s = Number($("time-bank").value);
  } else body.days_per_move = pace;
  const submit = $("create-button");
  submit.disabled = true;
  try {
    const game = await api("/api/v1/games", { method: "POST", body });
    if (bots) await api(`/api/v1/games/${game.id}/start`, { method: "POST" });
    window.location.href = `/games/${game.id}/`;
  } catch (error) {
    toast(error.message);
    submit.disabled = false;
  }
}

function bankText(seconds) {
  return seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`;
}

function describeGame(game) {
  const info = PRESETS[game.preset] || { title: game.preset };
  const host = game.seats.find((seat) => seat.user.username === game.owner);
  const tc = game.time_control;
  let pace = tc.kind === "live" ? `${tc.seconds_per_turn} s a turn` : `${tc.days_per_move} days a move`;
  if (tc.kind === "live" && tc.time_bank_s) pace += ` + ${bankText(tc.time_bank_s)} bank`;
  if (game.time_control.rated) pace += " · rated";
  return {
    title: `${info.title} · ${game.seats.length}/${game.players} players`,
    meta: `Host ${host ? host.user.display_name : game.owner} · ${pace}`,
  };
}

async function loadOpenGames() {
  const box = $("open-games");
  try {
    const page = await api("/api/v1/games?status=open&page_size=20");
    box.replaceChildren();
    if (!page.results.length) {
      box.append(el("p", "empty", "No open games right now: create one!"));
      return;
    }
    for (const game of page.results) {
      const text = describeGame(game);
      const row = el("div", "game-row");
      const main = el("div", "game-row-main");
      main.append(el("div", "game-row-title", text.title), el("div", "game-row-meta", text.meta));
      const join = el("button", "button button-small", "Join");
      join.type = "button";
      join.setAttribute("aria-label", `Join ${text.title}`);
      join.addEventListener("click", async () => {
        join.disabled = true;
        try {
          await api(`/api/v1/games/${game.id}/join`, { method: "POST", body: {} });
          window.location.href = `/games/${game.id}/`;
        } catch (error) {
          toast(error.message);
          join.disabled = false;
          loadOpenGames();
        }
      });
      row.append(main, join);
      box.append(row);
    }
  } catch (error) {
    box.replaceChildren(el("p", "empty", error.message));
  }
}

function followInvite(event) {
  event.preventDefault();
  const text = $("invite-link").value.trim();
  const match = text.match(/games\/([a-z0-9]+)\/?\?(?:.*&)?invite=([a-z0-9]+)/i);
  if (!match) {
    toast("That does not look like an invite link (…/games/<id>/?invite=<code>).");
    return;
  }
  window.location.href = `/games/${match[1]}/?invite=${match[2]}`;
}

async function main() {
  form.addEventListener("submit", create);
  form.addEventListener("change", (event) => {
    if (event.target.name === "preset") renderHouseRules();
    if (event.target.name === "time_control") renderPace();
    if (event.target.name === "mode") renderMode();
  });
  $("invite-form").addEventListener("submit", followInvite);
  renderPace();
  renderMode();
  try {
    renderPresets(await api("/api/v1/rulesets"));
  } catch (error) {
    $("presets").replaceChildren(el("p", "empty", error.message));
  }
  loadOpenGames();
  setInterval(loadOpenGames, 5000);
}

main();
