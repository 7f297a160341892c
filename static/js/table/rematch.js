// A finished game's rematch, for its players: offer it, see who has answered, accept or
// decline it, or cancel one's own offer (GET/POST /api/v1/games/{id}/rematch and the
// challenge's accept, decline and cancel). The answers arrive on the account's event
// stream (challenge frames naming this game in `rematch_of`), else by the table's poll;
// once everyone has accepted, the page goes to the new game.

import { api } from "../api.js";
import { $ } from "../dom.js";
import { gettext, interpolate } from "../i18n.js";
import { shownName } from "../names.js";
import { API, GAME, root } from "./page.js";
import { state, updateRematch } from "./store.js";

const ME = root.dataset.username;

// ``followEvents``: subscribes the page's live connection to the account's events.
export function wireRematch(followEvents) {
  updateRematch({ follow: followEvents });
  const challenge = () => `/api/v1/challenges/${state.rematch.offer.id}`;
  $("rematch-offer").addEventListener("click", () => act(`${API}/rematch`));
  $("rematch-accept").addEventListener("click", () => act(`${challenge()}/accept`));
  $("rematch-decline").addEventListener("click", () => act(`${challenge()}/decline`));
  $("rematch-cancel").addEventListener("click", () => act(`${challenge()}/cancel`));
}

function isPlayer(view) {
  return view.you !== null && view.you !== undefined;
}

// A new view of the game: the panel appears once a game of the viewer's is finished.
export function syncRematch() {
  const view = state.view;
  if (!view || view.status !== "finished" || !isPlayer(view) || state.rematch.shown) return;
  updateRematch({ shown: true });
  $("rematch-panel").hidden = false;
  state.rematch.follow();
  reloadRematch();
}

// The table's poll (no event stream, or a missed frame): read the offer again.
export async function reloadRematch() {
  const { shown, busy, offer } = state.rematch;
  if (!shown || busy || (offer && offer.status !== "pending")) return;
  try {
    updateRematch({ offer: await api(`${API}/rematch`) });
  } catch (error) {
    if (error.status !== 404) return showError(error);
    updateRematch({ offer: null });
  }
  draw();
}

// A frame of the account's event stream: true if it was about this game's rematch.
export function onRematchFrame(frame) {
  const challenge = frame && frame.challenge;
  if (!challenge || challenge.rematch_of !== GAME) return false;
  // Our own request's answer is on its way and may be older than this frame: the offer
  // is read again once it is in (act).
  if (state.rematch.busy) {
    updateRematch({ frameWhileBusy: true });
    return true;
  }
  if (state.rematch.shown) {
    updateRematch({ offer: challenge });
    draw();
  }
  return true;
}

async function act(path) {
  if (state.rematch.busy) return;
  updateRematch({ busy: true, frameWhileBusy: false });
  showError(null);
  try {
    updateRematch({ offer: await api(path, { method: "POST" }) });
  } catch (error) {
    showError(error);
  } finally {
    updateRematch({ busy: false });
  }
  draw();
  if (state.rematch.frameWhileBusy) {
    updateRematch({ frameWhileBusy: false });
    await reloadRematch();
  }
}

function showError(error) {
  $("rematch-error").textContent = error ? error.message : "";
}

// The users of the finished game's seats, by whom the offer's people are named apart.
function seated() {
  return (state.view.seats || []).map((seat) => seat.user).filter(Boolean);
}

function nameOf(user) {
  return shownName(user, seated());
}

const ANSWERS = {
  pending: () => gettext("waiting"),
  accepted: () => gettext("accepted"),
  declined: () => gettext("declined"),
  unavailable: () => gettext("can no longer play"),
};

function answerRow(name, answer) {
  const row = document.createElement("li");
  row.dataset.answer = answer;
  const who = document.createElement("b");
  who.textContent = name;
  row.append(who, " ", ANSWERS[answer]());
  return row;
}

function statusText() {
  const { offer } = state.rematch;
  if (!offer) return gettext("Play the same table again: everyone at it is asked, the bots accept at once.");
  const by = nameOf(offer.challenger);
  if (offer.status === "accepted") return gettext("Everyone accepted: the new game has started.");
  if (offer.status === "declined") return gettext("The rematch was declined.");
  if (offer.status === "cancelled") return offer.cancel_message || gettext("The rematch was cancelled.");
  if (offer.challenger.username === ME) return gettext("You offered a rematch: it starts when everyone has accepted.");
  return interpolate(gettext("%(name)s offers a rematch."), { name: by }, true);
}

function draw() {
  const { offer } = state.rematch;
  const pending = Boolean(offer && offer.status === "pending");
  const mine = offer ? offer.invitees.find((invitee) => invitee.user.username === ME) : null;
  $("rematch-status").textContent = statusText();
  const list = $("rematch-answers");
  list.replaceChildren();
  if (offer) {
    const people = seated();
    list.append(answerRow(nameOf(offer.challenger), "accepted"));
    for (const username of offer.bots) {
      const bot = people.find((user) => user.username === username);
      list.append(answerRow(bot ? nameOf(bot) : username, "accepted"));
    }
    // A table of built-in bots only: the one asked in its name accepted at once.
    if (!offer.invitees.length && offer.destination) list.append(answerRow(nameOf(offer.destination), "accepted"));
    for (const invitee of offer.invitees) list.append(answerRow(nameOf(invitee.user), invitee.answer));
  }
  list.hidden = !offer;
  $("rematch-offer").hidden = Boolean(offer);
  $("rematch-accept").hidden = !(pending && mine && mine.answer === "pending");
  $("rematch-decline").hidden = !(pending && mine);
  $("rematch-cancel").hidden = !(pending && offer.challenger.username === ME);
  const link = $("rematch-game");
  link.hidden = !(offer && offer.game);
  if (offer && offer.game) {
    link.href = `/games/${offer.game}/`;
    // Once: the answer to "accept" and the event that the game started both draw this,
    // and a second assign() aborts the first page load and starts it again.
    if (state.rematch.leavingFor !== link.href) {
      updateRematch({ leavingFor: link.href });
      window.location.assign(link.href);
    }
  }
}
