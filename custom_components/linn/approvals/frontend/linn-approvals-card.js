// Lovelace card: the Linn assistant's pending approval requests and its recent audit trail.
// A plain web component: no build step, no dependencies. Data comes pushed over the
// websocket subscription linn/approvals/subscribe; the server decides who sees and may do what.
import {
  cardState, clockOffset, describeCall, describeWhy, formatCountdown, formatTime, livePending,
  normalizeConfig, outcomeLabel, secondsLeft,
} from "./approvals-logic.js";
import { defineElement } from "./define.js";
import "./linn-approvals-card-editor.js";

const STYLE = `
  :host { display: block; }
  ha-card { padding: 16px; color: var(--primary-text-color); }
  h2 { margin: 0 0 12px; font-size: var(--ha-card-header-font-size, 1.25rem); font-weight: 400; }
  h3 { margin: 16px 0 8px; font-size: 0.95rem; font-weight: 500; color: var(--secondary-text-color); }
  .notice { padding: 12px; border-radius: var(--ha-card-border-radius, 12px); margin-bottom: 8px;
    background: var(--secondary-background-color); color: var(--secondary-text-color); }
  .notice.error { color: var(--error-color, #db4437); }
  .notice.warning { color: var(--warning-color, #ffa600); }
  .request { border: 1px solid var(--divider-color); border-radius: var(--ha-card-border-radius, 12px);
    padding: 12px; margin-bottom: 8px; }
  .what { font-size: 1.05rem; font-weight: 500; margin-bottom: 4px; overflow-wrap: anywhere; }
  .meta { color: var(--secondary-text-color); font-size: 0.9rem; display: flex; flex-wrap: wrap;
    gap: 4px 16px; }
  .countdown { font-variant-numeric: tabular-nums; color: var(--warning-color, #ffa600); }
  ul.why { margin: 8px 0; padding-left: 20px; font-size: 0.9rem; }
  .actions { display: flex; gap: 8px; flex-wrap: wrap; }
  button { flex: 1 1 120px; min-height: 40px; border: none; border-radius: 20px; cursor: pointer;
    font: inherit; font-weight: 500; padding: 0 16px; }
  button.approve { background: var(--success-color, #43a047); color: var(--text-primary-color, #fff); }
  button.deny { background: var(--error-color, #db4437); color: var(--text-primary-color, #fff); }
  button:disabled { opacity: 0.5; cursor: default; }
  .message { color: var(--error-color, #db4437); font-size: 0.9rem; margin-top: 6px; }
  table { width: 100%; border-collapse: collapse; font-size: 0.9rem; }
  td { padding: 4px 8px 4px 0; border-top: 1px solid var(--divider-color); vertical-align: top;
    overflow-wrap: break-word; }
  td.time { white-space: nowrap; color: var(--secondary-text-color); font-variant-numeric: tabular-nums; }
  @media (max-width: 450px) { td.user { display: none; } }
`;

/** document.createElement with attributes and children (text is always text, never markup). */
function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (value !== false && value != null) element.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child != null && child !== false) element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

class LinnApprovalsCard extends HTMLElement {
  constructor() {
    super();
    this.attachShadow({ mode: "open" });
    this._config = normalizeConfig({});
    this._snapshot = null;
    this._offset = 0;
    this._error = null;
    this._connected = true;
    this._busy = new Set();
    this._messages = new Map();
  }

  static getConfigElement() {
    return document.createElement("linn-approvals-card-editor");
  }

  static getStubConfig() {
    return { title: "Assistant approvals", audit_count: 10 };
  }

  setConfig(config) {
    const next = normalizeConfig(config);
    const resubscribe = next.audit_count !== this._config.audit_count;
    this._config = next;
    if (resubscribe) this._unsubscribe();
    this._subscribe();
    this._render();
  }

  set hass(hass) {
    const first = !this._hass || this._hass.connection !== hass.connection;
    this._hass = hass;
    if (first) {
      this._unsubscribe();
      this._watchConnection(hass.connection);
      this._subscribe();
    }
  }

  getCardSize() {
    return 2 + (this._snapshot?.pending.length ?? 0) * 3 + Math.ceil(this._config.audit_count / 2);
  }

  getGridOptions() {
    return { columns: 12, min_columns: 4 };
  }

  connectedCallback() {
    this._subscribe();
    this._timer = setInterval(() => this._tick(), 1000);
    this._render();
  }

  disconnectedCallback() {
    clearInterval(this._timer);
    this._unsubscribe();
  }

  _watchConnection(connection) {
    if (!connection?.addEventListener) return;
    connection.addEventListener("disconnected", () => {
      this._connected = false;
      this._render();
    });
    // home-assistant-js-websocket renews subscriptions itself after a reconnect
    connection.addEventListener("ready", () => {
      this._connected = true;
      this._render();
    });
  }

  _subscribe() {
    if (!this._hass || !this.isConnected || this._subscription) return;
    this._error = null;
    this._subscription = this._hass.connection
      .subscribeMessage((snapshot) => this._receive(snapshot), {
        type: "linn/approvals/subscribe",
        audit_count: this._config.audit_count,
      })
      .catch((err) => {
        this._subscription = undefined;
        this._error = err?.message || err?.code || "The Linn integration did not answer";
        this._render();
        return undefined;
      });
  }

  _unsubscribe() {
    const subscription = this._subscription;
    this._subscription = undefined;
    this._snapshot = null;
    subscription?.then((unsubscribe) => unsubscribe?.()).catch(() => {});
  }

  _receive(snapshot) {
    this._snapshot = snapshot;
    this._offset = clockOffset(snapshot.now, Date.now());
    this._connected = true;
    const open = new Set(snapshot.pending.map((r) => r.request_id));
    for (const id of this._messages.keys()) if (!open.has(id)) this._messages.delete(id);
    this._render();
  }

  async _decide(requestId, approve) {
    this._busy.add(requestId);
    this._messages.delete(requestId);
    this._render();
    try {
      const result = await this._hass.callWS({
        type: "linn/approvals/decide", request_id: requestId, approve,
      });
      const wanted = approve ? "approved" : "denied";
      if (result.outcome !== wanted) {
        this._messages.set(requestId, result.message || outcomeLabel(result.outcome));
      }
    } catch (err) {
      this._messages.set(requestId, err?.message || "The request could not be sent");
    } finally {
      this._busy.delete(requestId);
      this._render();
    }
  }

  _tick() {
    if (!this._snapshot) return;
    const now = Date.now();
    const countdowns = this.shadowRoot.querySelectorAll(".countdown");
    const live = livePending(this._snapshot.pending, now, this._offset);
    if (live.length !== countdowns.length) {
      this._render(); // one expired: it leaves the list now; the server's push confirms it
      return;
    }
    for (const element of countdowns) {
      const seconds = secondsLeft(element.dataset.expires, now, this._offset);
      element.textContent = `${formatCountdown(seconds)} left`;
    }
  }

  _render() {
    if (!this.shadowRoot) return;
    const state = cardState({ error: this._error, connected: this._connected, snapshot: this._snapshot });
    const card = h("ha-card", {}, this._config.title ? h("h2", {}, this._config.title) : null);
    card.dataset.state = state;
    if (state === "error") {
      card.append(h("div", { class: "notice error", role: "alert" },
        `Approvals are unavailable: ${this._error}`));
    } else if (state === "disconnected") {
      card.append(h("div", { class: "notice warning", role: "status" },
        "Disconnected from Home Assistant. Reconnecting…"));
    } else if (state === "loading") {
      card.append(h("div", { class: "notice" }, "Loading…"));
    } else if (state === "empty") {
      card.append(h("div", { class: "notice empty" },
        "Nothing waiting for approval, and the assistant has not used the Linn tools yet."));
    }
    if (this._snapshot && state !== "error") this._renderSnapshot(card);
    this.shadowRoot.replaceChildren(h("style", {}, STYLE), card);
  }

  _renderSnapshot(card) {
    const now = Date.now();
    const locale = this._hass?.locale?.language;
    const pending = livePending(this._snapshot.pending, now, this._offset);
    if (this._snapshot.audit.length || pending.length) {
      card.append(pending.length
        ? h("h3", {}, `Waiting for approval (${pending.length})`)
        : h("div", { class: "notice none-pending" }, "Nothing is waiting for approval."));
    }
    for (const request of pending) card.append(this._renderRequest(request, now));
    if (this._snapshot.audit.length) {
      card.append(h("h3", {}, "Recent assistant actions"),
        h("table", { class: "audit" }, h("tbody", {}, this._snapshot.audit.map((record) =>
          h("tr", { "data-seq": record.seq },
            h("td", { class: "time" }, formatTime(record.ts, now, locale)),
            h("td", { class: "user" }, record.user_name ?? "Unknown"),
            h("td", { class: "tool" }, record.tool),
            h("td", { class: "outcome" }, outcomeLabel(record.outcome)),
          )))));
    }
  }

  _renderRequest(request, now) {
    const busy = this._busy.has(request.request_id);
    const seconds = secondsLeft(request.expires, now, this._offset);
    const message = this._messages.get(request.request_id);
    return h("div", { class: "request", "data-request-id": request.request_id },
      h("div", { class: "what" }, describeCall(request.tool, request.arguments)),
      h("div", { class: "meta" },
        h("span", { class: "requester" }, `Asked by ${request.mine ? "you" : request.user_name ?? "an unknown user"}`),
        h("span", { class: "player" }, request.players.join(", ")),
        h("span", { class: "id" }, `Request ${request.request_id}`),
        h("span", { class: "countdown", "data-expires": request.expires }, `${formatCountdown(seconds)} left`)),
      h("ul", { class: "why" }, describeWhy(request).map((line) => h("li", {}, line))),
      this._snapshot.can_decide
        ? h("div", { class: "actions" },
            h("button", { class: "approve", disabled: busy, onclick: () => this._decide(request.request_id, true) }, "Approve"),
            h("button", { class: "deny", disabled: busy, onclick: () => this._decide(request.request_id, false) }, "Deny"))
        : h("div", { class: "meta waiting" }, "An administrator decides."),
      message ? h("div", { class: "message", role: "alert" }, message) : null);
  }
}

defineElement("linn-approvals-card", LinnApprovalsCard);
window.customCards = window.customCards || [];
if (!window.customCards.some((card) => card.type === "linn-approvals-card")) {
  window.customCards.push({
    type: "linn-approvals-card",
    name: "Linn approvals",
    description: "What the assistant asks to do on your Linn players: approve or deny, and its recent actions.",
    preview: false,
  });
}
