// Drawing the seats: the other players around the felt (a fan of card backs each) and
// the viewer's own seat with the prompt that says what to do now.

import { backElement, cardName } from "../cards.js";
import { $, el } from "../dom.js";
import { formatDate, formatNumber, gettext, interpolate, ngettext } from "../i18n.js";
import { seatBalance } from "./chips.js";
import { hasBank } from "./clock.js";
import { initials } from "./format.js";
import { state } from "./store.js";
import { awaited, can, deal, myTurn, othersInOrder, ruleset, seatName, seatNameParts, seatOf } from "./view.js";

// A fan shows at most this many backs; the count beside it says how many there are.
const FAN_MAX = 15;

function seatBadges(position) {
  const d = deal();
  const v = state.view;
  const seat = seatOf(position);
  const badges = el("span", "badges");
  if (seat && seat.user.is_bot) badges.append(el("span", "badge badge-bot", gettext("bot")));
  if (d && d.opened[position]) badges.append(el("span", "badge badge-opened", gettext("opened")));
  if (d && d.dealer === position && v.status === "active") badges.append(el("span", "badge", gettext("dealer")));
  if (seat && seat.status === "left") badges.append(el("span", "badge badge-away", gettext("away")));
  if (seat && seat.status === "out") badges.append(el("span", "badge badge-away", gettext("resigned")));
  if (seat && seat.away_until) {
    const until = formatDate(seat.away_until);
    badges.append(el("span", "badge badge-vacation", interpolate(gettext("on vacation until %(date)s"), { date: until }, true)));
  }
  if (v.winners && v.winners.includes(position)) badges.append(el("span", "badge badge-win", gettext("winner")));
  // Whole on hover where a crowded seat cuts one short (.seat .badge).
  for (const badge of badges.children) badge.title = badge.textContent;
  return badges;
}

function turnTag(position) {
  const d = deal();
  const v = state.view;
  if (!d || v.status !== "active" || v.pause || d.to_move !== position) return null;
  const tag = el("span", "turn-tag");
  tag.append(el("span", "turn-dot"), el("span", null, position === v.you ? gettext("Your turn") : gettext("To move")));
  const away = awaited();
  if (away && away.seat === position) {
    tag.append(el("span", "countdown countdown-away", gettext("away")));
  } else if (v.deadline_at) {
    const clock = el("span", "countdown");
    clock.dataset.deadline = v.deadline_at;
    // With a time bank the turn's own seconds come first, then the bank (another colour).
    if (v.turn_ends_at && v.turn_ends_at !== v.deadline_at) clock.dataset.turnEnds = v.turn_ends_at;
    tag.append(clock);
  }
  return tag;
}

// A player's chips beside their seat, in a game played for a stake.
function chipsTag(position) {
  const chips = seatBalance(position);
  if (chips === null || chips === undefined) return null;
  const tag = el("span", "chips-tag", interpolate(ngettext("%(count)s chip", "%(count)s chips", chips), { count: chips }, true));
  tag.title = gettext("Chip balance");
  return tag;
}

function bankChip(position) {
  const seat = seatOf(position);
  if (!hasBank() || !seat || seat.status === "out") return null;
  const chip = el("span", "bank-chip");
  chip.dataset.bankOf = String(position);
  chip.title = gettext("Time bank: extra time for the whole game, used when a turn runs long");
  return chip;
}

export function renderOpponents() {
  const v = state.view;
  const d = deal();
  const box = $("opponents");
  box.replaceChildren();
  const others = othersInOrder();
  box.dataset.count = String(others.length);
  for (const position of others) {
    const seat = seatOf(position);
    const node = el("div", "seat");
    // A group, so that its aria-label (the seat in one sentence) is allowed and read.
    node.setAttribute("role", "group");
    node.dataset.seat = String(position);
    if (d && v.status === "active" && !v.pause && d.to_move === position) node.classList.add("seat-to-move");
    if (!seat) {
      node.classList.add("seat-empty");
      node.append(el("div", "seat-info", gettext("Free seat")));
      box.append(node);
      continue;
    }
    const count = d ? d.hand_counts[position] : 0;
    const fan = el("div", "fan");
    fan.setAttribute("aria-hidden", "true");
    const shown = Math.min(count, FAN_MAX);
    for (let i = 0; i < shown; i += 1) {
      const back = backElement("fan-card");
      back.style.setProperty("--i", String(i - (shown - 1) / 2));
      fan.append(back);
    }
    if (d) {
      const badge = el("span", "fan-count", formatNumber(count));
      fan.append(badge);
    }
    const info = el("div", "seat-info");
    const name = el("div", "seat-name");
    name.append(el("span", "avatar-dot", initials(seatName(position, { you: false }))), seatLabel(position));
    const line = el("div", "seat-line");
    line.append(el("span", "seat-total", pointsText(seat.total)), seatBadges(position));
    const bank = bankChip(position);
    if (bank) line.append(bank);
    const chips = chipsTag(position);
    if (chips) line.append(chips);
    info.append(name, line);
    const turn = turnTag(position);
    if (turn) info.append(turn);
    const summary =
      d && d.opened[position]
        ? ngettext("%(name)s: %(count)s card, total %(total)s, opened", "%(name)s: %(count)s cards, total %(total)s, opened", count)
        : ngettext("%(name)s: %(count)s card, total %(total)s", "%(name)s: %(count)s cards, total %(total)s", count);
    node.setAttribute("aria-label", interpolate(summary, { name: seatName(position), count, total: seat.total }, true));
    node.append(fan, info);
    box.append(node);
  }
}

// The label of another player's seat. Where a username tells the player apart it is
// shown as a handle ("@mila") beside the display name, or under it on a phone's
// crowded table, and the display name is what gets cut short (.name-parts).
function seatLabel(position) {
  const parts = seatNameParts(position);
  const label = el("span", "seat-label");
  if (!parts.username) {
    label.textContent = parts.name;
    return label;
  }
  label.classList.add("name-parts");
  label.title = seatName(position);
  label.append(el("span", "name-main", parts.name), el("span", "name-tail", `@${parts.username}`));
  return label;
}

export function renderMe() {
  const v = state.view;
  const d = deal();
  const box = $("me-seat");
  box.replaceChildren();
  if (v.you === null) {
    if (v.status !== "lobby") box.append(el("span", "muted", gettext("You are watching this game.")));
  } else {
    const seat = seatOf(v.you);
    const name = el("div", "seat-name");
    name.append(el("span", "avatar-dot avatar-me", initials(seat.user.display_name)), el("span", "seat-label", seat.user.display_name));
    const line = el("div", "seat-line");
    line.append(el("span", "seat-total", pointsText(seat.total)), seatBadges(v.you));
    const bank = bankChip(v.you);
    if (bank) line.append(bank);
    const chips = chipsTag(v.you);
    if (chips) line.append(chips);
    box.append(name, line);
    const turn = turnTag(v.you);
    if (turn) box.append(turn);
  }
  $("me").classList.toggle("me-to-move", myTurn());
  $("prompt").textContent = d && v.status === "active" ? promptText() : "";
}

function pointsText(total) {
  return interpolate(ngettext("%(points)s pt", "%(points)s pts", total), { points: total }, true);
}

function promptText() {
  const v = state.view;
  const d = deal();
  // A live table between two deals: the deal's summary says when the next one starts.
  if (v.pause) return interpolate(gettext("Deal %(number)s is over: the next deal is dealt soon."), { number: v.pause.deal }, true);
  if (v.you === null) return interpolate(gettext("%(name)s is to move."), { name: seatName(d.to_move) }, true);
  if (!myTurn()) return interpolate(gettext("Waiting for %(name)s…"), { name: seatName(d.to_move) }, true);
  const min = ruleset().opening_minimum;
  if (d.phase === "draw") {
    return can("take") && d.discard.length
      ? gettext("Your turn: draw from the stock, or take the top card of the discard pile.")
      : gettext("Your turn: draw a card from the stock.");
  }
  if (d.must_return) {
    return interpolate(
      gettext("You took the %(card)s without having opened: open now (%(points)s+), or discard it back."),
      { card: cardName(d.must_return), points: min },
      true,
    );
  }
  if (d.opened[v.you]) return gettext("Lay down melds, lay off onto the table or swap jokers, then discard one card.");
  if (ruleset().no_opening_in_first_round && d.first_round) {
    return gettext("Nobody lays down in their first turn of a deal: discard one card.");
  }
  return interpolate(gettext('Open with melds worth %(points)s or more (select cards, then "Lay group"), or discard one card.'), { points: min }, true);
}
