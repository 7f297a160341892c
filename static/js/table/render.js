// Drawing the whole table from the store: nothing is drawn that the API did not return
// to this viewer. Each part of the page has its renderer; this one calls them in turn
// and draws the heading and the scores panel itself.

import { $, button, el } from "../dom.js";
import { formatNumber, gettext, interpolate, ngettext } from "../i18n.js";
import { paceWithBank } from "../pace.js";
import { renderAbsent } from "./absent.js";
import { abort, join, leave, resign } from "./actions.js";
import { tick } from "./clock.js";
import { INVITE, LOBBY_URL, root } from "./page.js";
import { renderMelds, renderPiles, renderWaiting } from "./render-board.js";
import { renderHand, renderStaging } from "./render-hand.js";
import { renderMe, renderOpponents } from "./render-seats.js";
import { ratedButNotCounted } from "./results.js";
import { renderChips } from "./chips.js";
import { renderSeating } from "./seating.js";
import { state } from "./store.js";
import { deal, myTurn, ruleset, seatName } from "./view.js";

function againstBotsOnly(v) {
  const others = v.seats.filter((seat) => seat.position !== v.you);
  return others.length > 0 && others.every((seat) => seat.user.is_bot);
}

export function render() {
  root.dataset.state = state.missing ? "missing" : state.view ? state.view.status : "loading";
  if (state.missing) {
    renderMissing();
    return;
  }
  if (!state.view) return;
  renderHeader();
  renderOpponents();
  renderPiles();
  renderMelds();
  renderWaiting();
  renderMe();
  renderStaging();
  renderHand();
  renderScores();
  renderChips();
  renderSeating();
  renderAbsent();
  tick();
}

function renderMissing() {
  $("game-meta").textContent = INVITE ? gettext("A private game") : gettext("This game cannot be found.");
  $("game-actions").replaceChildren();
  const box = $("waiting");
  box.hidden = false;
  box.replaceChildren();
  if (INVITE) {
    box.append(el("h2", null, gettext("You are invited to a private game")));
    box.append(el("p", null, gettext("Join to take a free seat at the table.")));
    box.append(button(gettext("Join the game"), "button", () => join(INVITE)));
  } else {
    box.append(el("h2", null, gettext("No such game")));
    box.append(el("p", null, gettext("It may be private, or the link may be wrong.")));
    const link = el("a", "button", gettext("Back to the lobby"));
    link.href = LOBBY_URL;
    box.append(link);
  }
}

function renderHeader() {
  const v = state.view;
  $("game-name").textContent = (v.ruleset && v.ruleset.display_name) || v.preset;
  const bits = [];
  if (v.status === "lobby") bits.push(gettext("Waiting for players"));
  else if (v.status === "aborted") bits.push(gettext("Aborted"));
  else bits.push(interpolate(gettext("Deal %(number)s of %(deals)s"), { number: v.deal_number, deals: v.deals_in_match }, true));
  bits.push(interpolate(ngettext("%(count)s player", "%(count)s players", v.players), { count: v.players }, true));
  const tc = v.time_control;
  bits.push(paceWithBank(tc));
  bits.push(againstBotsOnly(v) ? gettext("against bots") : v.visibility === "private" ? gettext("private") : gettext("public"));
  if (tc.rated) bits.push(ratedButNotCounted(v) ? gettext("rated, but not counted: the game ended before every player had moved") : gettext("rated"));
  $("game-meta").textContent = bits.join(" · ");

  // The replay opens once the game is finished (its hands are no longer secret).
  $("replay-link").hidden = v.status !== "finished";
  const actions = $("game-actions");
  actions.replaceChildren();
  const c = v.can;
  // Joining and starting a game in the lobby are offered on the table itself.
  if (c.join && v.status !== "lobby") actions.append(button(gettext("Return to my seat"), "button button-small", () => join(INVITE)));
  if (c.resign) actions.append(button(gettext("Resign"), "button button-small button-quiet", resign));
  if (c.leave && v.status === "lobby") actions.append(button(gettext("Leave"), "button button-small button-quiet", leave));
  if (c.abort) actions.append(button(gettext("Cancel game"), "button button-small button-quiet", abort));
  document.title = `${myTurn() ? `● ${gettext("Your turn")} · ` : ""}${$("game-name").textContent} · ${gettext("Remi online")}`;
}

function renderScores() {
  const v = state.view;
  const d = deal();
  const table = $("scores");
  table.replaceChildren();
  const head = el("tr");
  head.append(el("th", null, gettext("Player")), el("th", "num", gettext("Cards")), el("th", "num", gettext("Total")));
  table.append(head);
  for (const seat of v.seats) {
    const toMove = d && v.status === "active" && !v.pause && d.to_move === seat.position;
    const row = el("tr");
    if (seat.position === v.you) row.classList.add("me-row");
    if (toMove) row.classList.add("to-move-row");
    const name = el("td", "score-name");
    name.append(el("span", "score-turn", toMove ? "▶" : ""));
    name.append(document.createTextNode(seatName(seat.position)));
    if ((v.winners || []).includes(seat.position)) name.append(el("span", "badge badge-win", gettext("winner")));
    row.append(name, el("td", "num", d ? formatNumber(d.hand_counts[seat.position]) : "–"), el("td", "num", formatNumber(seat.total)));
    table.append(row);
  }
  const rules = ruleset();
  const bits = [interpolate(gettext("Opening %(points)s"), { points: rules.opening_minimum }, true)];
  if (rules.match_end_score) bits.push(interpolate(gettext("match ends at %(score)s"), { score: rules.match_end_score }, true));
  bits.push(gettext("lowest total wins"));
  $("match-info").textContent = bits.join(" · ");
}
