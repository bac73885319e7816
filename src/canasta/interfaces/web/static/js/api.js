// The web API (src/canasta/interfaces/web, API.md): REST calls and the live view of one seat.

import { normalizeView } from "./view.js";

export class ApiError extends Error {
  constructor(status, message, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

function errorText(body, status) {
  if (!body) return `HTTP ${status}`;
  if (typeof body === "string") return body;
  const e = body.error ?? body.detail ?? body.message;
  if (typeof e === "string") return e;
  if (e && typeof e === "object" && typeof e.message === "string") return e.message;
  if (Array.isArray(e)) {  // FastAPI validation errors
    return e.map((d) => d.msg || JSON.stringify(d)).join("; ");
  }
  return `HTTP ${status}`;
}

export async function request(method, path, body) {
  const opts = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, opts);
  } catch (e) {
    throw new ApiError(0, "cannot reach the server", null);
  }
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = text; }
  if (!res.ok) throw new ApiError(res.status, errorText(data, res.status), data);
  return data;
}

const q = (token) => (token ? `?token=${encodeURIComponent(token)}` : "");

export const api = {
  createTable: (rules, seats, extra = {}) => request("POST", "/api/tables", { rules, seats, ...extra }),
  view: (id, token) => request("GET", `/api/tables/${encodeURIComponent(id)}/view${q(token)}`),
  act: (id, token, action) =>
    request("POST", `/api/tables/${encodeURIComponent(id)}/actions`, { token, action }),
  next: (id, token) => request("POST", `/api/tables/${encodeURIComponent(id)}/next`, { token }),
  hint: (id, token) => request("GET", `/api/tables/${encodeURIComponent(id)}/hint${q(token)}`),
  record: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}/record`),
  replay: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}/replay`),
  toBot: (id, seat, token) => request("POST", `/api/tables/${encodeURIComponent(id)}/seats/${seat}/bot`, { token }),
  claim: (id, seat, token) => request("POST", `/api/tables/${encodeURIComponent(id)}/seats/${seat}/claim`, { token }),
  say: (id, token, text) => request("POST", `/api/tables/${encodeURIComponent(id)}/chat`, { token, text }),
  rematch: (id, token) => request("POST", `/api/tables/${encodeURIComponent(id)}/rematch`, { token }),
  listTables: (status) => request("GET", `/api/tables?limit=12${status ? `&status=${status}` : ""}`),
  meta: () => request("GET", "/api/meta"),
  presets: () => request("GET", "/api/presets"),
  houseRules: () => request("GET", "/api/house-rules"),
  rules: (preset) => request("GET", `/api/rules/${encodeURIComponent(preset)}`),
};

/** Pull a view out of a reply or socket message ({type: "view", view} or the view itself). */
export function viewOf(msg) {
  if (!msg || typeof msg !== "object") return null;
  if (msg.type === "view" && msg.view && typeof msg.view === "object") return normalizeView(msg.view);
  if (msg.type && msg.type !== "view") return null;
  return normalizeView(msg);
}

/**
 * The live view of one seat (or of a spectator): a WebSocket that pushes views, reconnecting
 * with backoff; while the socket is down, the view is polled over HTTP.
 */
export class LiveView {
  constructor(tableId, token, { onView, onStatus, onMessage }) {
    this.tableId = tableId;
    this.token = token;
    this.onView = onView;
    this.onStatus = onStatus || (() => {});
    this.onMessage = onMessage || (() => {});
    this.ws = null;
    this.closed = false;
    this.retry = 0;
    this.pollTimer = null;
    this.retryTimer = null;
    this.status = "connecting";
  }

  start() {
    this.refresh();
    this.connect();
    this._onVisible = () => { if (!document.hidden) this.refresh(); };
    document.addEventListener("visibilitychange", this._onVisible);
  }

  stop() {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.stopPolling();
    document.removeEventListener("visibilitychange", this._onVisible);
    if (this.ws) { try { this.ws.close(); } catch { /* already closed */ } }
  }

  setStatus(s) {
    this.status = s;
    this.onStatus(s);
  }

  async refresh() {
    try {
      const v = viewOf(await api.view(this.tableId, this.token));
      if (!this.closed && v) this.onView(v, "http");
      return v;
    } catch (e) {
      if (!this.closed) this.onMessage({ type: "error", error: e.message, status: e.status });
      return null;
    }
  }

  connect() {
    if (this.closed || typeof WebSocket === "undefined") { this.startPolling(); return; }
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    // The token goes in the first message, never in the URL (servers and proxies log URLs).
    const url = `${proto}//${location.host}/ws/tables/${encodeURIComponent(this.tableId)}`;
    let ws;
    try { ws = new WebSocket(url); } catch { this.scheduleReconnect(); return; }
    this.ws = ws;
    this.setStatus(this.retry ? "reconnecting" : "connecting");
    const opened = setTimeout(() => { if (ws.readyState !== WebSocket.OPEN) ws.close(); }, 5000);
    ws.onopen = () => {
      clearTimeout(opened);
      ws.send(JSON.stringify(this.token ? { type: "hello", token: this.token } : { type: "hello" }));
      this.retry = 0;
      this.stopPolling();
      this.setStatus("live");
      this.refresh();  // catch up on anything missed while away
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      const v = viewOf(msg);
      if (v) this.onView(v, "ws");
      else this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      clearTimeout(opened);
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      // a bad hello (4400), a wrong token (4403) or no such table (4404) would fail again; a
      // hello that came too late (4408, a busy server) or a full server is worth another try
      if (ev.code === 4400 || ev.code === 4403 || ev.code === 4404) {
        this.setStatus("refused");
        this.refresh();
        return;
      }
      this.scheduleReconnect();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  scheduleReconnect() {
    this.setStatus("polling");
    this.startPolling();
    const delay = Math.min(15000, 1000 * 2 ** Math.min(this.retry, 4));
    this.retry += 1;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  startPolling() {
    if (this.pollTimer || this.closed) return;
    this.pollTimer = setInterval(() => this.refresh(), 2000);
  }

  stopPolling() {
    clearInterval(this.pollTimer);
    this.pollTimer = null;
  }

  /** Send an action over the socket; actions go over HTTP (send()) to get the 409 reason. */
  sendOverSocket(action) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify({ action }));
      return true;
    }
    return false;
  }
}
