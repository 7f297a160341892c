// The table chat: GET/POST /api/v1/games/{id}/chat, live `chat` and `chat_hidden`
// events from the websocket, and a catch-up read (`after` the last line seen) on every
// poll, so a page without a websocket still sees new lines. A hidden line leaves the
// page; shown again, it comes back as a `chat` event in its place. A page that only
// polls hears of no line hidden: every WHOLE_READ_MS one of its polls reads the whole
// chat, and a line no longer in it leaves. A moderator reads
// every line (the hidden ones marked, with "Show again") from chat-moderation.js.

import { api } from "./api.js";
import { reportButton } from "./chat-report.js";
import { el } from "./dom.js";
import { formatNumber, formatTime, gettext } from "./i18n.js";
import { shownName } from "./names.js";

const MAX_LENGTH = 300;
// How often a poll reads the whole chat rather than the lines after the last one seen.
const WHOLE_READ_MS = 10000;

export class TableChat {
  constructor({ api: path, list, form, input, note, count, me = "", moderation = null }) {
    this.path = `${path}/chat`;
    this.moderation = moderation;
    if (moderation) moderation.onLost = () => this.unmoderate();
    this.me = me; // the signed-in user's username ("" for a visitor): who may report a line
    this.list = list;
    this.form = form;
    this.input = input;
    this.note = note;
    this.count = count;
    this.lastId = 0;
    this.wholeAt = Date.now(); // when the whole chat was last read
    this.shown = new Set();
    this.writers = new Map(); // username -> the user, of every line shown
    this.people = []; // the users seated at the table
    this.syncing = null;
    this.canWrite = false;
    this.sending = false;
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.send();
    });
    input.maxLength = MAX_LENGTH;
    input.addEventListener("input", () => this.renderCount());
  }

  // Players write, spectators read. Called with every new view of the game.
  setWriter(seated, status) {
    this.canWrite = seated && status !== "aborted";
    this.form.hidden = !this.canWrite;
    this.note.hidden = this.canWrite;
    this.note.textContent =
      status === "aborted" ? gettext("The game was aborted: the chat is closed.") : gettext("Spectators read the players' chat.");
  }

  // The table's seated users: a line's writer is named apart from them too.
  setPeople(users) {
    this.people = users;
    this.nameWriters();
  }

  // A websocket event (or null for a poll). Returns true if it was a chat event.
  // ``pushed``: the websocket is up, and tells of every line hidden.
  onEvent(event, { pushed = false } = {}) {
    if (event && event.type === "chat") {
      this.add(event.message);
      return true;
    }
    if (event && event.type === "chat_hidden") {
      if (this.moderating()) this.mark({ id: event.id, hidden: true });
      else this.remove(event.id);
      return true;
    }
    // A poll: lines may have been missed meanwhile. A (re)subscription: lines may
    // also have been hidden while the socket was down, so the whole chat is read again.
    if (!event) this.sync({ whole: !pushed && Date.now() - this.wholeAt >= WHOLE_READ_MS });
    else if (event.type === "subscribed") this.sync({ whole: true });
    return false;
  }

  moderating() {
    return Boolean(this.moderation && this.moderation.active);
  }

  async sync({ whole = false } = {}) {
    if (this.syncing) return this.syncing;
    this.syncing = (async () => {
      try {
        if (this.moderating()) {
          for (const message of await this.moderation.lines()) this.add(message);
          if (this.moderating()) return;
        }
        // The lines after the last one shown (all of them: `whole`), page by page
        // (`next` until null).
        const seen = new Set();
        const take = (results) => {
          for (const message of results) {
            seen.add(message.id);
            this.add(message);
          }
        };
        let page = await api(`${this.path}?after=${whole ? 0 : this.lastId}`);
        take(page.results);
        while (page.next) {
          page = await api(page.next);
          take(page.results);
        }
        // Read whole, a line shown here but not in the answer was hidden meanwhile.
        if (whole) {
          for (const id of [...this.shown]) if (!seen.has(id)) this.remove(id);
          this.wholeAt = Date.now();
        }
      } catch {
        // The chat is a side panel: a failed read is retried on the next poll.
      } finally {
        this.syncing = null;
      }
    })();
    return this.syncing;
  }

  async send() {
    const text = this.input.value.trim();
    if (!text || this.sending) return;
    this.sending = true;
    this.form.classList.add("busy");
    try {
      const message = await api(this.path, { method: "POST", body: { text } });
      this.add(message);
      this.input.value = "";
      this.renderCount();
      this.setError("");
    } catch (error) {
      this.setError(error.message);
    } finally {
      this.sending = false;
      this.form.classList.remove("busy");
      this.input.focus();
    }
  }

  add(message) {
    if (this.shown.has(message.id)) {
      if (this.moderating()) this.mark({ id: message.id, hidden: Boolean(message.hidden) });
      return;
    }
    if (message.hidden && !this.moderating()) return;
    this.shown.add(message.id);
    this.lastId = Math.max(this.lastId, message.id);
    const item = el("li");
    item.dataset.id = String(message.id);
    const who = el("b", null, message.user.display_name);
    who.dataset.username = message.user.username;
    if (message.user.is_bot) who.classList.add("chat-bot");
    const text = el("span", null, ` ${message.text}`); // el() sets textContent: a line is never HTML
    const time = el("time", null, formatTime(message.sent_at));
    time.dateTime = message.sent_at;
    item.append(time, " ", who, text);
    if (this.me && message.user.username !== this.me) item.append(" ", reportButton(message));
    if (this.moderating()) {
      item.append(" ", this.moderation.control(message, (line) => this.mark(line)));
      item.classList.toggle("chat-hidden", Boolean(message.hidden));
    }
    // Lines arrive in id order except when a post's answer races its own event.
    const later = [...this.list.children].find((node) => Number(node.dataset.id) > message.id);
    this.list.insertBefore(item, later || null);
    const nearBottom = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 60;
    if (nearBottom || !later) this.list.scrollTop = this.list.scrollHeight;
    this.list.closest(".chat").classList.remove("chat-empty");
    this.writers.set(message.user.username, message.user);
    this.nameWriters();
  }

  // Each line's writer by their name among the chat's writers and the seated players: a
  // second "Marko" puts both Markos' usernames beside their names, on the lines already
  // there too.
  nameWriters() {
    const company = [...this.writers.values(), ...this.people];
    for (const who of this.list.querySelectorAll("b[data-username]")) {
      const writer = this.writers.get(who.dataset.username);
      if (writer) who.textContent = shownName(writer, company);
    }
  }

  remove(id) {
    const node = this.list.querySelector(`li[data-id="${Number(id)}"]`);
    if (node) node.remove();
    this.shown.delete(Number(id)); // shown again later, it comes back
  }

  // A moderator's line hidden or shown again: marked, with the other control.
  mark(line) {
    const node = this.list.querySelector(`li[data-id="${Number(line.id)}"]`);
    if (!node || node.classList.contains("chat-hidden") === Boolean(line.hidden)) return;
    const old = node.querySelector(".chat-mod");
    const writer = this.writers.get(node.querySelector("b").dataset.username);
    const message = { ...line, user: line.user || writer || { display_name: node.querySelector("b").textContent } };
    if (old) old.replaceWith(this.moderation.control(message, (next) => this.mark(next)));
    node.classList.toggle("chat-hidden", Boolean(line.hidden));
  }

  // The moderator lost the role: the hidden lines leave the page like everyone's.
  unmoderate() {
    for (const node of this.list.querySelectorAll("li.chat-hidden")) this.remove(node.dataset.id);
  }

  renderCount() {
    const left = MAX_LENGTH - this.input.value.length;
    this.count.textContent = left < 50 ? formatNumber(left) : "";
  }

  setError(message) {
    this.form.querySelector(".chat-error").textContent = message;
  }
}
