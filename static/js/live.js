// Live updates: a push over the websocket (/ws/v1/, docs/websocket.md) when the server
// offers one, polling of the REST state otherwise. A push is only a hint: the page
// always re-reads the REST state. Subscribing also tells the server we are at the table.

export class Live {
  constructor({ wsUrl = "", game = "", ply = () => null, pollMs = 2000, onHint }) {
    this.wsUrl = wsUrl;
    this.game = game;
    this.ply = ply;
    this.pollMs = pollMs;
    this.onHint = onHint;
    this.socket = null;
    this.timer = null;
    this.backoff = 1000;
    this.stopped = false;
    this.streams = [];
  }

  // Also pass on the frames of the account's event ``stream`` (on this connection and
  // every one after it).
  follow(stream) {
    if (this.streams.includes(stream)) return;
    this.streams.push(stream);
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ type: "subscribe", stream }));
  }

  get connected() {
    return Boolean(this.socket && this.socket.readyState === WebSocket.OPEN && this.subscribed);
  }

  start() {
    this.stopped = false;
    if (this.wsUrl && "WebSocket" in window) this.connect();
    this.schedule();
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden) this.hint();
    });
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.socket) this.socket.close();
  }

  // Poll every ``pollMs`` (slower while a websocket is open or the tab is hidden).
  schedule() {
    clearTimeout(this.timer);
    if (this.stopped) return;
    const open = this.socket && this.socket.readyState === WebSocket.OPEN;
    const delay = open ? 15000 : document.hidden ? Math.max(this.pollMs, 10000) : this.pollMs;
    this.timer = setTimeout(() => this.hint(), delay);
  }

  // ``event``: the websocket event that prompted it (null: a poll).
  async hint(event = null) {
    clearTimeout(this.timer);
    try {
      await this.onHint(event);
    } finally {
      this.schedule();
    }
  }

  connect() {
    const url = new URL(this.wsUrl, window.location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    let socket;
    try {
      socket = new WebSocket(url);
    } catch {
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.backoff = 1000;
      if (this.game) socket.send(JSON.stringify({ type: "subscribe", game: this.game, ply: this.ply() }));
      for (const stream of this.streams) socket.send(JSON.stringify({ type: "subscribe", stream }));
      this.schedule();
    });
    socket.addEventListener("message", (message) => {
      let event = {};
      try {
        event = JSON.parse(message.data);
      } catch {
        return;
      }
      if (event.type === "subscribed") this.subscribed = true;
      if (["hello", "pong", "unsubscribed"].includes(event.type)) return;
      if (event.game && this.game && event.game !== this.game) return;
      if (event.type === "subscribed" && event.ply === this.ply()) return;
      this.hint(event);
    });
    socket.addEventListener("close", () => {
      this.subscribed = false;
      if (this.stopped) return;
      this.socket = null;
      setTimeout(() => this.connect(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, 30000);
    });
  }
}
