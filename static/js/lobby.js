// The lobby: create a game from a preset (or play bots at once), join an open game,
// or follow an invite link. Everything goes through the public REST API.

import { api } from "./api.js";
import { $, el } from "./dom.js";
import { houseRulesList } from "./house-rules.js";
import { formatNumber, formatUnit, gettext, interpolate, ngettext } from "./i18n.js";
import { namedAlone } from "./names.js";
import { paceWithBank } from "./pace.js";

const form = $("new-game");

// House rules offered in the lobby: ruleset field -> how to ask.
const HOUSE_RULES = [
  { field: "opening_minimum", kind: "number", label: gettext("Points needed to open"), min: 1, max: 200 },
  { field: "hand_needs_51", kind: "bool", label: gettext("Going out in one go (a hand) also needs the opening minimum") },
  { field: "no_opening_in_first_round", kind: "bool", label: gettext("Nobody lays down in their first turn") },
  { field: "discard_take_undo", kind: "bool", label: gettext("Undo after taking the discard (put it back, draw instead)") },
  { field: "seating_by_card_draw", kind: "bool", label: gettext("Draw cards for the seats: the highest card starts, the others follow clockwise") },
  { field: "match_end_score", kind: "number", label: gettext("The match ends when a total reaches (empty: never)"), min: 50, max: 5000, nullable: true },
];

// The scoring fields, offered where the preset leaves the scores to the players'
// agreement (`scoring_by_agreement`): a part of a close's row (docs/rules.md §8).
const SCORING_RULES = [
  { row: "normal_close", part: "winner", label: gettext("Going out scores"), min: -10000, max: 10000 },
  { row: "normal_close", part: "multiplier", label: gettext("The others' cards count × (going out)"), min: 0, max: 16 },
  { row: "normal_close", part: "unopened", label: gettext("A player who never opened scores (empty: their cards)"), min: 0, max: 10000, nullable: true },
  { row: "dry_hand_close", part: "winner", label: gettext("Going out with the whole hand at once scores"), min: -10000, max: 10000 },
  { row: "dry_hand_close", part: "multiplier", label: gettext("The others' cards count × (whole hand)"), min: 0, max: 16 },
  { row: "dry_hand_close", part: "unopened", label: gettext("Never opened, against a whole hand (empty: their cards)"), min: 0, max: 10000, nullable: true },
];
const SCORING_SWITCHES = [{ field: "joker_close_doubles", kind: "bool", label: gettext("Going out with a joker doubles every score") }];

const PACE = {
  live: { legend: gettext("Seconds per turn"), options: [30, 60, 90, 120], initial: 60 },
  correspondence: { legend: gettext("Days per move"), options: [1, 2, 3, 5, 7, 14], initial: 3 },
};

let rulesets = {};
let byAgreement = {}; // preset name -> its scores are house rules

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
    ? gettext("one deal")
    : interpolate(gettext("%(deals)s deals"), { deals: rules.match_deals.slice(0, 3).map((count) => formatNumber(count)).join("/") }, true);
  const cards = interpolate(ngettext("%(count)s card", "%(count)s cards", rules.hand_size), { count: rules.hand_size }, true);
  return [
    interpolate(ngettext("%(count)s joker", "%(count)s jokers", rules.jokers), { count: rules.jokers }, true),
    rules.starter_extra_card ? interpolate(gettext("%(cards)s (starter 15)"), { cards }, true) : cards,
    interpolate(gettext("open with %(points)s"), { points: rules.opening_minimum }, true),
    deals,
    rules.match_end_score
      ? interpolate(gettext("ends at %(score)s"), { score: rules.match_end_score }, true)
      : gettext("lowest total wins"),
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
    label.append(input, el("span", null, formatNumber(count)));
    box.append(label);
  }
  $("players-help").hidden = seatLimit(rules) <= rules.max_players;
  $("players-help").textContent = interpolate(
    gettext("%(from)s to %(to)s seats are a house rule of these rules: a bigger table, the same deal sizes."),
    { from: rules.max_players + 1, to: seatLimit(rules) },
    true,
  );
}

function renderPresets(list) {
  const box = $("presets");
  box.replaceChildren();
  rulesets = {};
  byAgreement = {};
  list.forEach((preset, index) => {
    rulesets[preset.name] = preset.ruleset;
    byAgreement[preset.name] = Boolean(preset.scoring_by_agreement);
    const info = { title: preset.ruleset.display_name || preset.name, text: preset.ruleset.description || "" };
    const label = el("label", "choice");
    const input = el("input");
    input.type = "radio";
    input.name = "preset";
    input.value = preset.name;
    input.checked = preset.name === "serbian" || (index === 0 && !list.some((p) => p.name === "serbian"));
    const body = el("span", "choice-body");
    const title = el("span", "choice-title");
    title.append(el("span", null, info.title), el("small", null, interpolate(gettext("%(min)s–%(max)s players"), { min: preset.ruleset.min_players, max: preset.ruleset.max_players }, true)));
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
  showRulesError("");
  if (!rules) return;
  renderRuleInputs(box, HOUSE_RULES, rules);
  if (byAgreement[value("preset")]) renderScoring(box, rules);
}

// The scoring of a preset that leaves it to the players, the preset's values first.
function renderScoring(box, rules) {
  const group = el("fieldset", "fieldset house-rules-scoring");
  group.id = "house-rules-scoring";
  group.append(el("legend", null, gettext("Scoring (by agreement)")));
  group.append(el("p", "help", gettext("These rules leave the scores to the players: set them here. Everyone sees them before joining.")));
  for (const rule of SCORING_RULES) {
    const current = rules[rule.row] ? rules[rule.row][rule.part] : null;
    const label = el("label", "inline-field");
    const input = el("input");
    input.type = "number";
    input.min = String(rule.min);
    input.max = String(rule.max);
    input.dataset.row = rule.row;
    input.dataset.part = rule.part;
    input.value = current === null || current === undefined ? "" : String(current);
    label.append(el("span", null, rule.label), input);
    group.append(label);
  }
  renderRuleInputs(group, SCORING_SWITCHES, rules);
  box.append(group);
}

function renderRuleInputs(box, list, rules) {
  for (const rule of list) {
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
  // A close's row goes whole: the preset's row with the parts the players changed.
  for (const input of $("house-rule-fields").querySelectorAll("[data-row]")) {
    const { row, part } = input.dataset;
    const text = input.value.trim();
    const next = text === "" ? (part === "unopened" ? null : NaN) : Number(text);
    const base = out[row] || { ...rules[row] };
    if (next !== rules[row][part]) {
      base[part] = Number.isNaN(next) ? text : next;
      out[row] = base;
    }
  }
  return out;
}

// What the rules engine said of the house rules, under them (the details opened).
function showRulesError(message) {
  const box = $("house-rules-error");
  if (!box) return;
  box.textContent = message;
  box.hidden = !message;
  if (message) $("house-rules").open = true;
}

function renderPace() {
  const pace = PACE[value("time_control")];
  const select = $("pace");
  $("pace-legend").textContent = pace.legend;
  select.replaceChildren();
  for (const option of pace.options) {
    const item = el("option", null, paceOption(value("time_control"), option));
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
  $("create-button").textContent = bots ? gettext("Play now") : gettext("Create game");
  renderBotsLegend();
}

function renderBotsLegend() {
  const bots = value("mode") === "bots";
  $("bots-legend").textContent = bots
    ? interpolate(gettext("Pick 1 to %(count)s bots"), { count: maxBots() }, true)
    : gettext("Bots at the table (optional)");
}

function maxBots() {
  const rules = rulesets[value("preset")];
  const seats = rules ? seatLimit(rules) : 4;
  return Math.min(seats - 1, form.querySelectorAll('input[name="bots"]').length || seats - 1);
}

async function showMyChips() {
  try {
    const chips = await api("/api/v1/me/chips?page_size=1");
    if (chips.balance !== null) $("my-chips").textContent = interpolate(ngettext("You have %(count)s chip.", "You have %(count)s chips.", chips.balance), { count: chips.balance }, true);
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
    toast(interpolate(gettext("Pick 1 to %(count)s bots to play against."), { count: maxBots() }, true));
    return;
  }
  if (!bots && chosen.length > players - 1) {
    toast(interpolate(gettext("A table of %(players)s has room for %(bots)s bots at most."), { players, bots: players - 1 }, true));
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
  showRulesError("");
  submit.disabled = true;
  try {
    const game = await api("/api/v1/games", { method: "POST", body });
    if (bots) await api(`/api/v1/games/${game.id}/start`, { method: "POST" });
    window.location.href = `/games/${game.id}/`;
  } catch (error) {
    if (error.code === "invalid_ruleset") showRulesError(error.message);
    else toast(error.message);
    submit.disabled = false;
  }
}

function paceOption(kind, count) {
  return kind === "live" ? formatUnit(count, "second") : formatUnit(count, "day", "long");
}

function describeGame(game) {
  const info = { title: (rulesets[game.preset] && rulesets[game.preset].display_name) || game.preset };
  const host = game.seats.find((seat) => seat.user.username === game.owner);
  const tc = game.time_control;
  let pace = paceWithBank(tc);
  if (game.time_control.rated) pace += ` · ${gettext("rated")}`;
  if (game.stake) pace += ` · ${interpolate(ngettext("stake %(count)s chip", "stake %(count)s chips", game.stake), { count: game.stake }, true)}`;
  // A bot by its title; a person with their username unless the name reads as it: a
  // table is joined for its host, whom nobody may pass for by taking their name.
  const hostName = !host ? game.owner : host.user.title ? `${host.user.display_name} (${host.user.title})` : namedAlone(host.user);
  const seats = interpolate(gettext("%(taken)s/%(players)s players"), { taken: game.seats.length, players: game.players }, true);
  return {
    title: `${info.title} · ${seats}`,
    meta: `${interpolate(gettext("Host %(name)s"), { name: hostName }, true)} · ${pace}`,
  };
}

async function loadOpenGames() {
  const box = $("open-games");
  try {
    const page = await api("/api/v1/games?status=open&page_size=20");
    box.replaceChildren();
    if (!page.results.length) {
      box.append(el("p", "empty", gettext("No open games right now: create one!")));
      return;
    }
    for (const game of page.results) {
      const text = describeGame(game);
      const row = el("div", "game-row");
      const main = el("div", "game-row-main");
      main.append(el("div", "game-row-title", text.title), el("div", "game-row-meta", text.meta));
      const houseRules = houseRulesList(game.house_rules, { heading: "h4" });
      if (houseRules) main.append(houseRules);
      const join = el("button", "button button-small", gettext("Join"));
      join.type = "button";
      join.setAttribute("aria-label", interpolate(gettext("Join %(game)s"), { game: text.title }, true));
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
    toast(gettext("That does not look like an invite link (…/games/<id>/?invite=<code>)."));
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
  // The presets come with the page, as GET /api/v1/rulesets lists them.
  renderPresets(JSON.parse($("presets-data").textContent));
  renderBotsLegend();
  loadOpenGames();
  setInterval(loadOpenGames, 5000);
}

main();
