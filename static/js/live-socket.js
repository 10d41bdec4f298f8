// Every live page's socket: the match (docs/architecture.md, "Contracts": the wire), the teacher's
// session monitor and the student's sessions. It pings so that proxies keep it open, reconnects by
// itself with an exponential backoff, and stops for good when the server refuses it (signed out,
// not allowed). On every (re)connection the server sends what the page needs again, so a page
// never needs anything but the latest message. The backoff starts again from its shortest wait
// only once a connection has brought a message: a server that accepts and at once closes with
// 4503 ("try again": its database or Redis is out, realtime/sockets.py) is retried ever more
// slowly, not every half second by every page of the school.
const PING_MS = 20_000;
const FIRST_RETRY_MS = 500;
const LONGEST_RETRY_MS = 5_000;
// Closed on purpose by the server (realtime/sockets.py): signed out, or not at this match.
// Retrying would not help; the page says which.
const FINAL_CLOSES = new Map([
  [4401, "signed_out"],
  [4403, "closed"],
]);

export class LiveSocket {
  // onStatus(status, closeCode): "connecting", "connected", "reconnecting", or, for good,
  // "signed_out" (4401) or "closed" (4403).
  constructor(path, { onMessage, onStatus = () => {}, onOpen = null }) {
    this.path = path;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.onOpen = onOpen;
    this.retryMs = FIRST_RETRY_MS;
    this.ws = null;
    this.pinger = null;
    this.retryTimer = null;
    this.stopped = false;
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}${this.path}`;
  }

  connect() {
    this.onStatus(this.ws ? "reconnecting" : "connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.onStatus("connected");
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), PING_MS);
      if (this.onOpen) this.onOpen();
    });
    ws.addEventListener("message", (event) => {
      if (ws === this.ws) this.retryMs = FIRST_RETRY_MS;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.onMessage(message);
    });
    ws.addEventListener("close", (event) => {
      clearInterval(this.pinger);
      if (ws !== this.ws || this.stopped) return;
      if (FINAL_CLOSES.has(event.code)) {
        this.stopped = true;
        this.onStatus(FINAL_CLOSES.get(event.code), event.code);
        return;
      }
      this.onStatus("reconnecting");
      clearTimeout(this.retryTimer);
      this.retryTimer = setTimeout(() => this.connect(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, LONGEST_RETRY_MS);
    });
  }

  get open() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  send(message) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  // For tests and for the page going away: drop the connection and let the backoff reconnect.
  drop() {
    if (this.ws) this.ws.close();
  }

  stop() {
    this.stopped = true;
    clearInterval(this.pinger);
    clearTimeout(this.retryTimer);
    if (this.ws) this.ws.close();
  }
}
