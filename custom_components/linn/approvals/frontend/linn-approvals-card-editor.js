// The approvals card's visual editor: title and how many audit records to show.
import { MAX_AUDIT_COUNT, normalizeConfig } from "./approvals-logic.js";
import { defineElement } from "./define.js";

class LinnApprovalsCardEditor extends HTMLElement {
  setConfig(config) {
    this._config = normalizeConfig(config);
    this._render();
  }

  set hass(hass) {
    this._hass = hass;
  }

  _changed(key, value) {
    const config = normalizeConfig({ ...this._config, [key]: value });
    this._config = config;
    this.dispatchEvent(new CustomEvent("config-changed", { detail: { config }, bubbles: true, composed: true }));
  }

  _render() {
    if (!this.shadowRoot) this.attachShadow({ mode: "open" });
    if (this.shadowRoot.querySelector("form")) {
      this.shadowRoot.querySelector("[name=title]").value = this._config.title;
      this.shadowRoot.querySelector("[name=audit_count]").value = String(this._config.audit_count);
      return;
    }
    this.shadowRoot.innerHTML = `
      <style>
        form { display: grid; gap: 12px; color: var(--primary-text-color); }
        label { display: grid; gap: 4px; font-size: 0.9rem; }
        input { font: inherit; padding: 8px; border-radius: 4px; color: var(--primary-text-color);
          border: 1px solid var(--divider-color); background: var(--card-background-color); }
      </style>
      <form>
        <label>Title <input name="title" type="text"></label>
        <label>Recent actions to show (0–${MAX_AUDIT_COUNT})
          <input name="audit_count" type="number" min="0" max="${MAX_AUDIT_COUNT}" step="1"></label>
      </form>`;
    const title = this.shadowRoot.querySelector("[name=title]");
    const count = this.shadowRoot.querySelector("[name=audit_count]");
    title.value = this._config.title;
    count.value = String(this._config.audit_count);
    title.addEventListener("change", () => this._changed("title", title.value));
    count.addEventListener("change", () => this._changed("audit_count", count.value));
  }
}

defineElement("linn-approvals-card-editor", LinnApprovalsCardEditor);
