// <rollbook-offline-copy>: the offline copy on tools/offline/: whether this device has it, how much
// it takes, and a button to make it now (a browser saving data makes none by itself) or remove it.
// Its size is said here only, one figure: what the build precaches (offline.json), kept or not
// (the browser's estimate of what the site stores counts more than the copy, so it read as a
// second, larger figure once the copy was kept; the page's text had a third).

import { define, html, nothing, RollbookElement } from "../element.js";
import { keepOffline, offlineCopy, removeOffline, savingData } from "../offline.js";
import { SITE_ROOT } from "../engine.js";

function megabytes(bytes) {
  return `${Math.max(1, Math.round(bytes / 1e6))} MB`;
}

class OfflineCopy extends RollbookElement {
  static asksEngine = false;

  connected() {
    this.copy = null; // {kept, bytes}
    this.size = null; // what a copy takes (offline.json, written by the build)
    this.busy = false;
    this.problem = null;
    this.#look();
  }

  async #look() {
    this.copy = await offlineCopy().catch(() => ({ kept: false }));
    if (this.size === null) {
      const written = await fetch(new URL("offline.json", SITE_ROOT)).then((r) => (r.ok ? r.json() : null)).catch(() => null);
      this.size = Number.isFinite(written?.bytes) ? written.bytes : null;
    }
    this.update();
  }

  async #act(action, failure) {
    this.busy = true;
    this.problem = null;
    this.update();
    try {
      await action();
    } catch (error) {
      this.problem = `${failure} (${error.message}).`;
    }
    this.busy = false;
    await this.#look();
  }

  view() {
    if (!("serviceWorker" in navigator)) {
      return html`<p>This browser cannot keep Rollbook for offline use; it works while online.</p>`;
    }
    if (this.copy === null) return html`<p class="rollbook-offline__state" role="status">Looking…</p>`;
    const { kept } = this.copy;
    return html`
      <p class="rollbook-offline__state" role="status">${kept
        ? html`<strong>Kept offline on this device</strong>${this.size ? ` (about ${megabytes(this.size)}).` : "."}`
        : html`<strong>Not kept offline yet.</strong> ${this.size ? `The offline copy takes about ${megabytes(this.size)}. ` : ""}${
          savingData() ? "Your browser asks to save data, so it is made only when you ask." : "It is made by itself once you use a tool or a die."}`}</p>
      ${kept
        ? html`<button type="button" class="md-button" ?disabled=${this.busy} @click=${() => this.#act(removeOffline, "The offline copy could not be removed")}>Remove the offline copy</button>`
        : html`<button type="button" class="md-button md-button--primary" ?disabled=${this.busy} @click=${() => this.#act(keepOffline, "The offline copy could not be made")}>${this.busy ? "Downloading…" : "Keep Rollbook offline"}</button>`}
      ${this.problem ? html`<p class="rollbook-problem" role="alert">${this.problem}</p>` : nothing}`;
  }
}

define("rollbook-offline-copy", OfflineCopy);
