// Table mode: keep the phone's screen awake while playing (the Screen Wake Lock API).
//
// The browser lets go of a wake lock whenever the tab is hidden (another app, the screen turned
// off by hand); table mode takes it again when the tab is visible. Where the API is missing the
// toggle is not shown at all. The choice is kept in this browser, so a reload at the table keeps
// the screen awake too.

export const TABLE_MODE_KEY = "rollbook.table-mode.v1";

/** The wake lock behind the toggle, on any `wakeLock` / `document` / storage (Node tests use fakes). */
export class ScreenAwake {
  #sentinel = null;
  #listeners = new Set();

  constructor({ wakeLock = globalThis.navigator?.wakeLock, doc = globalThis.document, storage = null } = {}) {
    this.wakeLock = wakeLock ?? null;
    this.doc = doc;
    this.storage = storage;
    this.wanted = this.supported && this.#read() === "on";
    this.problem = null; // why the screen cannot be kept awake right now, in words
    doc?.addEventListener("visibilitychange", () => this.#acquire());
    if (this.wanted) this.#acquire();
  }

  get supported() { return this.wakeLock !== null; }

  /** Is the screen being kept awake at this moment (not only wanted)? */
  get held() { return this.#sentinel !== null; }

  watch(listener) {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async toggle() {
    return this.wanted ? this.off() : this.on();
  }

  async on() {
    this.wanted = true;
    this.#write("on");
    await this.#acquire();
  }

  async off() {
    this.wanted = false;
    this.problem = null;
    this.#write("off");
    const sentinel = this.#sentinel;
    this.#sentinel = null;
    await sentinel?.release();
    this.#changed();
  }

  async #acquire() {
    if (!this.wanted || this.#sentinel || this.doc?.visibilityState !== "visible") return;
    try {
      const sentinel = await this.wakeLock.request("screen");
      if (!this.wanted) { await sentinel.release(); return; } // switched off while asking
      this.#sentinel = sentinel;
      this.problem = null;
      sentinel.addEventListener("release", () => {
        if (this.#sentinel === sentinel) this.#sentinel = null;
        this.#changed();
      });
    } catch (error) {
      // e.g. NotAllowedError: battery saver, or a browser policy. Stays wanted: tried again when visible.
      this.problem = `The screen cannot be kept awake now (${error?.message || error}).`;
    }
    this.#changed();
  }

  #changed() {
    for (const listener of this.#listeners) listener(this);
  }

  #read() {
    try { return this.storage?.getItem(TABLE_MODE_KEY) ?? null; } catch { return null; }
  }

  #write(value) {
    try { this.storage?.setItem(TABLE_MODE_KEY, value); } catch { /* storage blocked: on for this visit only */ }
  }
}
