// The lobby: create a game from a preset (or play bots at once), join an open game,
// or follow an invite link. Everything goes through the public REST API.

import { api } from "./api.js";
import { $, el } from "./dom.js";

const form = $("new-game");

// House rules offered in the lobby: ruleset field -> how to ask.
const HOUSE_RULES = [
  { field: "opening_minimum", kind: "number", label: "Points needed to open", min: 1, max: 200 },
  { field: "hand_needs_51", kind: "bool", label: "Going out in one go (a hand) also needs the opening minimum" },
  { field: "no_opening_in_first_round", kind: "bool", label: "Nobody lays down in their first turn" },
  { field: "discard_take_undo", kind: "bool", label: "Undo after taking the discard (put it back, draw instead)" },
  { field: "seating_by_card_draw", kind: "bool", label: "Draw cards for the seats: the highest card starts, the others follow clockwise" },
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

// The most seats the chosen rules allow, house rules included (5 and 6 seats raise
// ``max_players`` up to the rules' ``seat_limit``).
function seatLimit(rules) {
  return Math.max(rules.max_players, rules.seat_limit || rules.max_players);
}

function renderPlayers() {
  const rules = rulesets[value("preset")];
  if (!rules) return;
  const box = $("players-choice");
  const current = Number(value("players")) || 2;
  box.replaceChildren();
  for (let count = rules.min_players; count <= seatLimit(rules); count += 1) {
    const label = el("label");
    const input = el("input");
    input.type = "radio";
    input.name = "players";
    input.value = String(count);
    input.checked = count === Math.min(current, seatLimit(rules));
    label.append(input, el("span", null, String(count)));
    box.append(label);
  }
  $("players-help").hidden = seatLimit(rules) <= rules.max_players;
  $("players-help").textContent = `${rules.max_players + 1} to ${seatLimit(rules)} seats are a house rule of these rules: a bigger table, the same deal sizes.`;
}

function renderPresets(list) {
  const box = $("presets");
  box.replaceChildren();
  rulesets = {};
  list.forEach((preset, index) => {
    rulesets[preset.name] = preset.ruleset;
    const info = { title: preset.ruleset.display_name || preset.name, text: preset.ruleset.description || "" };
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
  renderPlayers();
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

// People: bots may take some seats and people the rest. Bots: every other seat is a
// bot's and the game starts at once.
function renderMode() {
  const bots = value("mode") === "bots";
  const boxes = [...form.querySelectorAll('input[name="bots"]')];
  $("people-options").hidden = bots;
  $("bots-help").hidden = bots;
  if (bots && !boxes.some((box) => box.checked) && boxes.length) boxes[Math.min(1, boxes.length - 1)].checked = true;
  if (!bots) for (const box of boxes) box.checked = false;
  $("create-button").textContent = bots ? "Play now" : "Create game";
  renderBotsLegend();
}

function renderBotsLegend() {
  const bots = value("mode") === "bots";
  $("bots-legend").textContent = bots ? `Pick 1 to ${maxBots()} bots` : "Bots at the table (optional)";
}

function maxBots() {
  const rules = rulesets[value("preset")];
  const seats = rules ? seatLimit(rules) : 4;
  return Math.min(seats - 1, form.querySelectorAll('input[name="bots"]').length || seats - 1);
}

async function showMyChips() {
  try {
    const chips = await api("/api/v1/me/chips?page_size=1");
    if (chips.balance !== null) $("my-chips").textContent = `You have ${chips.balance} chips.`;
    $("stake").max = String(chips.max_stake);
  } catch {
    // the balance is a nicety here; the server checks the stake
  }
}

async function create(event) {
  event.preventDefault();
  const bots = value("mode") === "bots";
  const chosen = [...form.querySelectorAll('input[name="bots"]:checked')].map((input) => input.value);
  const players = bots ? chosen.length + 1 : Number(value("players"));
  if (bots && (chosen.length < 1 || chosen.length > maxBots())) {
    toast(`Pick 1 to ${maxBots()} bots to play against.`);
    return;
  }
  if (!bots && chosen.length > players - 1) {
    toast(`A table of ${players} has room for ${players - 1} bots at most.`);
    return;
  }
  const rules = rulesets[value("preset")];
  const houseRules = overrides();
  if (players > rules.max_players) houseRules.max_players = players; // 5 and 6 seats
  const kind = value("time_control");
  const pace = Number($("pace").value);
  const body = {
    preset: value("preset"),
    overrides: houseRules,
    players,
    visibility: bots ? "private" : value("visibility"),
    time_control: kind,
    bots: chosen,
    rated: !chosen.length && value("rated") === "true", // games with the built-in bots are casual
    stake: Number($("stake").value) || 0,
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
  const info = { title: (rulesets[game.preset] && rulesets[game.preset].display_name) || game.preset };
  const host = game.seats.find((seat) => seat.user.username === game.owner);
  const tc = game.time_control;
  let pace = tc.kind === "live" ? `${tc.seconds_per_turn} s a turn` : `${tc.days_per_move} days a move`;
  if (tc.kind === "live" && tc.time_bank_s) pace += ` + ${bankText(tc.time_bank_s)} bank`;
  if (game.time_control.rated) pace += " · rated";
  if (game.stake) pace += ` · stake ${game.stake} chips`;
  return {
    title: `${info.title} · ${game.seats.length}/${game.players} players`,
    meta: `Host ${host ? host.user.display_name : game.owner}${host && host.user.title ? ` (${host.user.title})` : ""} · ${pace}`,
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
    if (event.target.name === "preset") {
      renderHouseRules();
      renderPlayers();
      renderBotsLegend();
    }
    if (event.target.name === "time_control") renderPace();
    if (event.target.name === "mode") renderMode();
  });
  $("invite-form").addEventListener("submit", followInvite);
  renderPace();
  renderMode();
  showMyChips();
  try {
    // A page of presets (or, from an older server, the list itself).
    const presets = await api("/api/v1/rulesets");
    renderPresets(Array.isArray(presets) ? presets : presets.results);
  } catch (error) {
    $("presets").replaceChildren(el("p", "empty", error.message));
  }
  renderBotsLegend();
  loadOpenGames();
  setInterval(loadOpenGames, 5000);
}

main();
