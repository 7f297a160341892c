// The live link to the server: websocket pushes (or polling without one) through the
// shared Live class. A push is only a hint: the table always re-reads the REST state,
// except for chat lines, which the chat takes itself.

import { Live } from "../live.js";
import { noteDecidedBy } from "./absent.js";
import { GAME, WS_URL } from "./page.js";
import { refresh } from "./refresh.js";
import { onRematchFrame, reloadRematch } from "./rematch.js";
import { onReviewReady } from "./review.js";
import { notePushWhileBusy, state } from "./store.js";

const POLL_MS = 2000;

export function connect(chat) {
  const live = new Live({
    wsUrl: WS_URL,
    game: GAME,
    ply: () => (state.view ? state.view.ply : null),
    pollMs: POLL_MS,
    onHint: async (event) => {
      // A chat line changes nothing else: the state need not be read again for it.
      if (chat.onEvent(event, { pushed: live.connected })) return;
      // A deal's review was made: nothing else changed at the table.
      if (event && event.type === "review_ready") {
        onReviewReady(event.deal);
        return;
      }
      // The account's event stream (followed for a finished game's rematch) says nothing
      // about this table.
      if (event && event.stream) {
        onRematchFrame(event);
        return;
      }
      // Without the socket's stream (the stream's state is sent again on reconnecting),
      // the poll reads the rematch.
      if (!event && !live.connected) reloadRematch();
      if (event && event.type === "absent_decided") noteDecidedBy(event.by);
      if (state.missing) return;
      // Our own request is under way: its answer comes first, then the state is read
      // again for this push (actions.js), which may announce moves made after it.
      if (state.busy) notePushWhileBusy();
      else await refresh();
    },
  });
  window.__remiLive = live; // for the browser tests: is the push channel up?
  return live;
}
