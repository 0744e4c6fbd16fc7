// The base of every Rollbook widget: a custom element in the page's own DOM (so Material's
// typography and palette apply, and axe sees everything) rendered with lit-html, whose templates
// escape every value: user text (expressions, names, imported files) never becomes HTML.
//
// Material's instant navigation swaps the page content without a new document: elements are
// disconnected and new ones connected. Everything a widget listens to is registered with
// `this.listen(stop)` while connected and stopped on disconnect, so nothing piles up.

import { html, nothing, render } from "./vendor/lit-html/lit-html.js";
import { retry, warmUpWhenIdle, watchEngine } from "./engine.js";

export { html, nothing };

export class RollbookElement extends HTMLElement {
  #stops = [];
  #queued = false;

  connectedCallback() {
    this.fallback ??= this.textContent.trim(); // what the page shows before the widgets load
    if (!this.classList.contains("rollbook-widget")) this.replaceChildren(); // lit-html appends, never clears
    this.classList.add("rollbook-widget");
    this.engine = { state: "idle", message: null };
    this.listen(watchEngine((status) => {
      this.engine = status;
      this.update();
    }));
    this.connected?.();
    warmUpWhenIdle(); // a widget on the page: the engine will be wanted
    this.renderNow();
  }

  disconnectedCallback() {
    for (const stop of this.#stops.splice(0)) stop();
    this.disconnected?.();
  }

  /** Keep `stop` (the function that ends a subscription) until the element leaves the page. */
  listen(stop) {
    this.#stops.push(stop);
  }

  /** Re-render at the next microtask (many changes in a row render once). */
  update() {
    if (this.#queued) return;
    this.#queued = true;
    queueMicrotask(() => {
      this.#queued = false;
      if (this.isConnected) this.renderNow();
    });
  }

  renderNow() {
    render(this.view(), this);
  }

  /** The line that says the engine is starting, or failed with a Retry button. The line is
   *  there (empty) while the engine is idle or ready too: a live region must exist before it
   *  speaks, and nothing under it moves when the engine starts and stops starting. */
  engineNotice() {
    const { state, message } = this.engine;
    if (state === "failed") {
      return html`<div class="rollbook-engine-state rollbook-problem" role="alert">
        <p>${message}. Check the connection, then try again.</p>
        <button type="button" class="md-button" @click=${() => retry()}>Retry</button>
      </div>`;
    }
    return html`<p class="rollbook-engine-state" role="status">${state === "starting" ? "Starting the dice engine…" : ""}</p>`;
  }
}

/** Define a custom element once, even if this module is evaluated again. */
export function define(name, elementClass) {
  if (!customElements.get(name)) customElements.define(name, elementClass);
}
