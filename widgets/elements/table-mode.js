// <rollbook-table-mode>: the header's table-mode toggle (overrides/partials/header.html holds its
// button and icons, so the header never shifts while the script loads). Pressed, it keeps the
// screen awake while Rollbook is open (widgets/table-mode.js). The header stays through
// Material's instant navigation, so one toggle serves the whole visit.

import { showNotice } from "../notice.js";
import { localStorageOrNull } from "../session.js";
import { ScreenAwake } from "../table-mode.js";

export const screenAwake = new ScreenAwake({ storage: localStorageOrNull() });

class TableModeToggle extends HTMLElement {
  connectedCallback() {
    this.button = this.querySelector("button");
    if (!screenAwake.supported || !this.button) return; // stays hidden: no Screen Wake Lock here
    this.hidden = false;
    this.onClick ??= () => this.#toggle();
    this.button.addEventListener("click", this.onClick);
    this.unwatch = screenAwake.watch(() => this.#render());
    this.#render();
  }

  disconnectedCallback() {
    this.button?.removeEventListener("click", this.onClick);
    this.unwatch?.();
  }

  async #toggle() {
    await screenAwake.toggle();
    if (screenAwake.problem) showNotice(screenAwake.problem);
    else showNotice(screenAwake.wanted
      ? "Table mode is on: the screen stays awake while Rollbook is open."
      : "Table mode is off: the screen sleeps as usual.", { seconds: 4 });
  }

  #render() {
    const label = screenAwake.wanted
      ? "Table mode is on (the screen stays awake): turn it off"
      : "Table mode: keep the screen awake";
    this.button.setAttribute("aria-pressed", String(screenAwake.wanted));
    this.button.setAttribute("aria-label", label);
  }
}

customElements.define("rollbook-table-mode", TableModeToggle);
