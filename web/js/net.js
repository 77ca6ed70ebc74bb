// The protocol over one WebSocket, in its JSON encoding (docs/protocol.md): requests with ids and their
// replies as promises, pushes as "push" events.

/** A refusal from the server: `code` (docs/protocol.md "Error codes"), `field`, `rule`, and the message. */
export class ServerError extends Error {
  constructor(reply) {
    super(reply.message || reply.code);
    this.code = reply.code;
    this.field = reply.field;
    this.rule = reply.rule;
  }
}

/** The WebSocket address of the page's own origin (wss:// behind TLS). */
export function serverUrl() {
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/`;
}

/**
 * One connection. `open()` connects and says hello; `request(type, fields)` resolves with the reply (or
 * rejects with ServerError / Error("connection closed")). Events: "push" (detail: the message), "close" (detail: {code, reason}).
 */
export class Connection extends EventTarget {
  constructor() {
    super();
    this.ws = null;
    this.nextId = 1;
    this.pending = new Map();
    this.welcome = null;
  }

  open() {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(serverUrl());
      this.ws = ws;
      ws.addEventListener("open", () => {
        this.request("hello", { version: 2, client: "barbu-web/0.1" }).then((welcome) => {
          this.welcome = welcome;
          resolve(welcome);
        }, reject);
      });
      ws.addEventListener("message", (event) => this.receive(event.data));
      ws.addEventListener("close", (closed) => {
        // detail: the close code and reason, so that the session can tell "resumed elsewhere" from a drop;
        // told before the requests in flight fail, so that their callers hear why (session.js).
        this.dispatchEvent(new CustomEvent("close", { detail: { code: closed.code, reason: closed.reason } }));
        const lost = new Error("connection closed");
        lost.code = "closed";
        for (const { reject: fail } of this.pending.values()) fail(lost);
        this.pending.clear();
        reject(lost);
      });
    });
  }

  get isOpen() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  request(type, fields = {}) {
    if (!this.isOpen) return Promise.reject(Object.assign(new Error("not connected"), { code: "closed" }));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ type, id, ...fields }));
    });
  }

  receive(text) {
    const message = JSON.parse(text);
    const waiting = message.id === null || message.id === undefined ? null : this.pending.get(message.id);
    if (waiting) {
      this.pending.delete(message.id);
      if (message.type === "error") waiting.reject(new ServerError(message));
      else waiting.resolve(message);
      return;
    }
    this.dispatchEvent(new CustomEvent("push", { detail: message }));
  }

  close() {
    if (this.ws) this.ws.close();
  }
}
