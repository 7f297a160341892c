// Play chips at the table: the viewer's balance, the game's stake and pot, what the pot
// paid when the game ended (or that an abort gave the stakes back), and each player's
// balance beside their seat in a game played for chips.

import { api } from "../api.js";
import { $, el } from "../dom.js";
import { formatNumber, gettext, interpolate, ngettext } from "../i18n.js";
import { changed, state, updateChips } from "./store.js";
import { seatName } from "./view.js";

// The viewer's balance is read when the table opens and whenever the game's status
// changes (a start takes the stake, an end pays the pot).
export async function syncChips() {
  const v = state.view;
  if (!v || v.you === null || state.chips.status === v.status || state.chips.loading) return;
  updateChips({ loading: true, status: v.status });
  try {
    const mine = await api("/api/v1/me/chips?page_size=1");
    updateChips({ balance: mine.balance });
    changed();
  } catch {
    updateChips({ status: null }); // try again with the next view
  } finally {
    updateChips({ loading: false });
  }
}

// A seat's balance in a game with a stake (null otherwise).
export function seatBalance(position) {
  const chips = state.view && state.view.chips;
  return chips && chips.balances ? chips.balances[position] : null;
}

function myBalance() {
  const v = state.view;
  const fromGame = v.you !== null ? seatBalance(v.you) : null;
  return fromGame !== null && fromGame !== undefined ? fromGame : state.chips.balance;
}

export function renderChips() {
  const v = state.view;
  const chips = v.chips || { stake: 0, pot: 0, payouts: null, refunded: false };
  const box = $("chips");
  box.replaceChildren();
  const balance = myBalance();
  if (v.you !== null && balance !== null && balance !== undefined) {
    const line = el("p", "chips-mine");
    line.append(el("span", null, `${gettext("Your chips:")} `), el("strong", "chips-balance", formatNumber(balance)));
    box.append(line);
  }
  if (!chips.stake) {
    box.append(el("p", "muted small", gettext("This game is played for no stake.")));
    return;
  }
  const stake = el("p", "chips-stake");
  stake.textContent =
    v.status === "lobby"
      ? interpolate(
          ngettext(
            "Stake: %(stake)s chip each, paid when the game starts.",
            "Stake: %(stake)s chips each, paid when the game starts.",
            chips.stake,
          ),
          { stake: chips.stake },
          true,
        )
      : interpolate(
          ngettext("Stake: %(stake)s chip each · pot %(pot)s", "Stake: %(stake)s chips each · pot %(pot)s", chips.stake),
          { stake: chips.stake, pot: chips.pot },
          true,
        );
  box.append(stake);
  if (chips.refunded) box.append(el("p", "muted small", gettext("The game was aborted: every stake went back.")));
  if (chips.payouts) {
    const list = el("ul", "chips-payouts");
    chips.payouts.forEach((paid, position) => {
      const item = el("li");
      item.dataset.seat = String(position);
      item.textContent = `${seatName(position)}: ${formatNumber(paid, { signed: true })}`;
      list.append(item);
    });
    box.append(el("p", "small", gettext("The pot was paid out:")), list);
  }
}
