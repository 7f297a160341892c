// Drawing the middle of the felt: the stock and discard pile, the melds on the table,
// and the panel shown instead of them before the game starts and after it ends.

import { backElement, cardElement, cardName } from "../cards.js";
import { $, button, el } from "../dom.js";
import { houseRulesList } from "../house-rules.js";
import { formatNumber, gettext, interpolate, ngettext } from "../i18n.js";
import { join, onMeld, start } from "./actions.js";
import { initials } from "./format.js";
import { markJoker, meldWords } from "./joker-marks.js";
import { selectedItems } from "./hand.js";
import { INVITE, LOBBY_URL } from "./page.js";
import { endReasonText, gameOverTitle, standingsTable } from "./results.js";
import { state } from "./store.js";
import { toast } from "./toast.js";
import { can, deal, myTurn, othersInOrder, seatName, seatOf } from "./view.js";

export function renderPiles() {
  const d = deal();
  const stock = $("stock");
  const discard = $("discard");
  const piles = stock.closest(".piles");
  piles.hidden = !d;
  if (!d) return;
  const drawNow = myTurn() && can("draw");
  stock.disabled = !drawNow || state.busy;
  stock.classList.toggle("pile-active", drawNow);
  const stockText = drawNow
    ? ngettext("Draw from the stock (%(count)s card)", "Draw from the stock (%(count)s cards)", d.stock_count)
    : ngettext("Stock: %(count)s card", "Stock: %(count)s cards", d.stock_count);
  stock.setAttribute("aria-label", interpolate(stockText, { count: d.stock_count }, true));
  $("stock-label").textContent = `${gettext("Stock")} · ${formatNumber(d.stock_count)}`;

  discard.replaceChildren();
  const pile = d.discard;
  const top = pile.length ? pile[pile.length - 1] : null;
  if (pile.length > 2) discard.append(backElement("pile-under pile-under-2"));
  if (pile.length > 1) discard.append(backElement("pile-under"));
  if (top) {
    const face = cardElement(top.card, { id: top.id });
    if (d.taken && d.taken.id === top.id) face.classList.add("card-taken");
    discard.append(face);
  } else {
    discard.append(el("span", "discard-empty", gettext("Discard")));
    // Fitted now, before the frame is drawn: a render that replaces the word (an event
    // arriving) never shows it broken for a frame; and again once laid out, in case the
    // board was not yet on the page.
    fitPileWord();
    requestAnimationFrame(fitPileWord);
  }
  const takeNow = myTurn() && can("take") && d.phase === "draw";
  const one = selectedItems();
  const discardNow = myTurn() && can("discard") && one.length === 1;
  // A seated player's click always answers: with the move, or with why there is none
  // (pile-refusal.js); the pile only looks idle.
  discard.disabled = state.busy || state.view.you === null || state.view.status !== "active";
  discard.classList.toggle("pile-idle", !(takeNow || discardNow));
  discard.classList.toggle("pile-active", takeNow || discardNow);
  let label = top
    ? interpolate(
        ngettext("Discard pile: %(count)s card, %(card)s on top", "Discard pile: %(count)s cards, %(card)s on top", pile.length),
        { count: pile.length, card: cardName(top.card) },
        true,
      )
    : gettext("Discard pile: empty");
  if (discardNow) label = interpolate(gettext("Discard the %(card)s"), { card: cardName(one[0].card) }, true);
  else if (takeNow && top) label = interpolate(gettext("Take the %(card)s from the discard pile"), { card: cardName(top.card) }, true);
  discard.setAttribute("aria-label", label);
  $("discard-label").textContent = `${gettext("Discard")} · ${formatNumber(pile.length)}`;
}

export function renderMelds() {
  const d = deal();
  const box = $("melds");
  box.replaceChildren();
  if (!d) return;
  if (!d.table.length) {
    if (state.view.status === "active") box.append(el("p", "melds-empty", gettext("No melds on the table yet.")));
    return;
  }
  const selecting = myTurn() && state.hand.selected.size > 0 && (can("off") || can("swap"));
  const owners = [];
  if (state.view.you !== null) owners.push(state.view.you);
  owners.push(...othersInOrder());
  for (const owner of owners) {
    const melds = d.table.filter((meld) => meld.owner === owner);
    if (!melds.length) continue;
    const group = el("section", "meld-group");
    group.dataset.owner = String(owner);
    const title = el(
      "h3",
      "meld-owner",
      owner === state.view.you ? gettext("Your melds") : interpolate(gettext("%(name)s's melds"), { name: seatName(owner) }, true),
    );
    group.append(title);
    const row = el("div", "meld-row");
    for (const meld of melds) row.append(meldElement(meld, selecting));
    group.append(row);
    box.append(group);
  }
}

function meldElement(meld, selecting) {
  const node = el("div", `meld meld-${meld.kind}`);
  node.dataset.index = String(meld.index);
  const words = meldWords(meld);
  const kind = meld.kind === "run" ? gettext("Meld %(number)s, a run: %(cards)s") : gettext("Meld %(number)s, a set: %(cards)s");
  // A named group of cards (a button while cards can be laid off onto it).
  node.setAttribute("role", "group");
  node.setAttribute("aria-label", interpolate(kind, { number: meld.index + 1, cards: words }, true));
  if (selecting) {
    node.classList.add("meld-target");
    node.tabIndex = 0;
    node.setAttribute("role", "button");
    node.title = gettext("Lay the selected card here (click the first card: low end). Click a joker to swap it.");
  }
  meld.cards.forEach((pair, position) => {
    const face = cardElement(pair.card, { id: pair.id });
    face.dataset.position = String(position);
    node.append(face);
    markJoker(face, meld, position);
  });
  node.addEventListener("click", (event) => {
    const card = event.target.closest(".pcard");
    onMeld(meld, card ? Number(card.dataset.position) : null);
  });
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      event.stopPropagation();
      onMeld(meld, event.shiftKey ? 0 : null, { fromKeyboard: true });
    }
  });
  return node;
}

export function renderWaiting() {
  const v = state.view;
  const box = $("waiting");
  box.replaceChildren();
  box.hidden = v.status === "active";
  if (v.status === "lobby") {
    renderLobby(box);
  } else if (v.status === "finished" || v.status === "aborted") {
    if (v.status === "aborted") {
      box.append(el("h2", null, gettext("This game was cancelled")));
    } else {
      box.append(el("h2", null, gameOverTitle()));
      box.append(el("p", "muted", endReasonText(v)));
      box.append(standingsTable());
    }
    const link = el("a", "button", gettext("New game"));
    link.href = LOBBY_URL;
    box.append(link);
  }
}

// Before the start: who is seated, the invite link of a private game, start and join.
function renderLobby(box) {
  const v = state.view;
  const taken = v.seats.length;
  box.append(el("h2", null, taken < v.players ? gettext("Waiting for players") : gettext("Everyone is here")));
  box.append(el("p", "muted", interpolate(gettext("%(taken)s of %(players)s seats taken."), { taken, players: v.players }, true)));
  const list = el("ul", "lobby-seats");
  for (let position = 0; position < v.players; position += 1) {
    const seat = seatOf(position);
    const item = el("li", seat ? "lobby-seat" : "lobby-seat lobby-seat-free");
    if (seat) {
      item.append(el("span", "avatar-dot", initials(seat.user.display_name)));
      const name = seatName(position, { you: false });
      item.append(el("span", null, position === v.you ? interpolate(gettext("%(name)s (you)"), { name }, true) : name));
      if (seat.user.username === v.owner) item.append(el("span", "badge", gettext("host")));
      if (seat.user.is_bot) item.append(el("span", "badge badge-bot", gettext("bot")));
    } else {
      item.append(el("span", "avatar-dot", "?"), el("span", "muted", gettext("Free seat")));
    }
    list.append(item);
  }
  box.append(list);
  const houseRules = houseRulesList(v.house_rules);
  if (houseRules) box.append(houseRules);
  if (v.invite_code) box.append(inviteLink(`${window.location.origin}/games/${v.id}/?invite=${v.invite_code}`));
  const actions = el("div", "waiting-actions");
  if (v.can.start) actions.append(button(gettext("Start the game"), "button", start));
  else if (v.you === 0) actions.append(el("p", "muted", gettext("You can start once every seat is taken.")));
  if (v.can.join) actions.append(button(gettext("Join"), "button", () => join(INVITE)));
  box.append(actions);
}

function inviteLink(url) {
  const share = el("div", "invite");
  share.append(el("label", null, gettext("Invite link (a private game: share it with your friends)")));
  const row = el("div", "invite-row");
  const input = el("input", "invite-input");
  input.readOnly = true;
  input.value = url;
  input.setAttribute("aria-label", gettext("Invite link"));
  row.append(
    input,
    button(gettext("Copy"), "button button-small", async () => {
      try {
        await navigator.clipboard.writeText(url);
        toast(gettext("Invite link copied."), "info");
      } catch {
        input.select();
      }
    }),
  );
  share.append(row);
  return share;
}

// The empty pile's word as large as the card lets it show whole: a long language's
// ("Stos odkryty", "Фрлени карти") steps down from the style's size, never broken.
export function fitPileWord() {
  const word = document.querySelector("#discard .discard-empty");
  // Not laid out (the board hidden): nothing to measure; the next fit will.
  if (!word || !word.clientWidth) return;
  word.style.removeProperty("font-size");
  // Measured unbroken: the style breaks a word that cannot fit, which would hide that it
  // does not. Only a word too long even at the smallest size is left to break.
  word.style.overflowWrap = "normal";
  const style = getComputedStyle(word);
  let size = parseFloat(style.fontSize);
  // Fractions count: a word 0.3px wider than the room is still cut by the style.
  const room = () => word.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const widest = () => {
    const range = document.createRange();
    range.selectNodeContents(word);
    return Math.max(0, ...[...range.getClientRects()].map((rect) => rect.width));
  };
  const overflows = () => word.scrollHeight > word.clientHeight + 1 || widest() > room();
  while (size > 6 && overflows()) {
    size -= 0.5;
    word.style.fontSize = `${size}px`;
  }
  word.style.removeProperty("overflow-wrap");
}
