// A moderator's chat controls at the table: every line (hidden ones marked) read from
// the moderation endpoint, and on each line "Hide line" or "Show again". The server
// checks the role on every request: a 403 (the moderator lost the group, or was
// banned) takes the controls off the page at once.

import { api } from "./api.js";
import { button } from "./dom.js";
import { gettext, interpolate } from "./i18n.js";
import { namedAlone } from "./names.js";

export class ChatModeration {
  constructor({ path, report = "" }) {
    this.path = path; // /moderation/games/{id}/chat/
    this.report = report; // the report the moderator came from, if any
    this.active = true;
    this.onLost = () => {};
  }

  // Every line of the table's chat, the hidden ones marked.
  async lines() {
    const page = await this.request(this.path);
    return page ? page.results : [];
  }

  // The control at the end of a line: hide it, or show it again.
  control(message, onChange) {
    const name = namedAlone(message.user);
    const hidden = Boolean(message.hidden);
    const label = hidden ? gettext("Show again") : gettext("Hide line");
    const aria = hidden
      ? interpolate(gettext("Show again the message from %(name)s"), { name }, true)
      : interpolate(gettext("Hide for everyone the message from %(name)s"), { name }, true);
    const node = button(label, "chat-mod", async () => {
      node.disabled = true;
      const verb = hidden ? "show" : "hide";
      const body = this.report ? { report: Number(this.report) } : {};
      const line = await this.request(`${this.path}${message.id}/${verb}/`, { method: "POST", body });
      if (line) onChange(line);
      else node.disabled = false;
    }, { "aria-label": aria, "data-mod": String(message.id) });
    return node;
  }

  async request(path, options) {
    if (!this.active) return null;
    try {
      return await api(path, options);
    } catch (error) {
      if (error && error.status === 403) this.lose();
      return null;
    }
  }

  lose() {
    this.active = false;
    for (const node of document.querySelectorAll(".chat-mod, #mod-table")) node.remove();
    this.onLost();
  }
}
