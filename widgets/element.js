// The base of every Rollbook widget: a custom element in the page's own DOM (so Material's
// typography and palette apply, and axe sees everything) rendered with lit-html, whose templates
// escape every value: user text (expressions, names, imported files) never becomes HTML.
//
// Material's instant navigation swaps the page content without a new document: elements are
// disconnected and new ones connected. Everything a widget listens to is registered with
// `this.listen(stop)` while connected and stopped on disconnect, so nothing piles up.

import { html, nothing, render } from "./vendor/lit-html/lit-html.js";
import { repeat } from "./vendor/lit-html/directives/repeat.js";
import { ref } from "./vendor/lit-html/directives/ref.js";
import { whenIdle } from "./idle.js";
import { afterEngineStart, engineOnDevice, engineStarting, firstScreenComing, firstScreenDrawn, retry, warmUp, warmUpWhenIdle,
  watchEngine } from "./engine.js";

export { html, nothing, ref, repeat };

// First drawings: a widget in view draws at once, one per task (the reader is looking at it and
// may tap it); the others wait for idle moments, in page order, a few at a time: a page with a
// dozen widgets (tools/combat/) would otherwise draw them all in one long task, and a tap in the
// meantime would wait for it (Lighthouse: total blocking time). The room each widget takes is
// kept for it (docs/stylesheets/rollbook.css), so nothing moves when it draws.
const waiting = [];
let drawingScheduled = false;
let viewScheduled = false;

function inView(element) {
  const { top, bottom } = element.getBoundingClientRect(); // all zero while hidden
  return bottom > 0 && top < globalThis.innerHeight;
}

function drawOneInView() {
  viewScheduled = false;
  const next = waiting.findIndex(inView);
  if (next < 0) { // the rest wait for idle moments
    if (!firstScreenDone) afterPaint(checkFirstScreen); // (none was in view)
    return;
  }
  waiting.splice(next, 1)[0].drawFirst();
  scheduleDrawing();
}

// The reader's first screen: the widgets in view, their modules loaded, each drawn whole (see
// drawsInTwo). Once it is drawn and painted, the engine's worker may download (engine.js): on two
// cores, its downloads took the CPU this drawing needed.
let modulesToCome = 0;
let wholesToCome = 0;
let firstScreenDone = false;

function checkFirstScreen() {
  if (firstScreenDone || modulesToCome > 0 || wholesToCome > 0 || waiting.some(inView)) return;
  firstScreenDone = true;
  firstScreenDrawn();
}

/** The first screen waits for a widget module that is loading (widgets/rollbook.js). */
export function firstScreenAwaits(loading) {
  modulesToCome += 1;
  loading.finally(() => {
    modulesToCome -= 1;
    afterPaint(checkFirstScreen);
  });
}

// An idle moment may last 50 ms, but a task that long is a long task on a slow phone (a 4x slower
// CPU makes 12 ms of drawing 50): each idle moment draws for at most SLICE_MS, then yields.
const SLICE_MS = 8;
// A double tap's two taps come within this time (Android's double-tap timeout is 300 ms) and
// this many CSS pixels of each other (about a fingertip).
const DOUBLE_TAP_MS = 400;
const DOUBLE_TAP_PX = 24;
// A tap that closes a list up takes no second tap at its place until the list has closed up (see
// closingUp), but not for longer than this: an action that never settles must not leave a place
// dead (the engine's watchdog answers a request that hangs well before).
const CLOSING_AT_MOST_MS = 10_000;

// While the engine starts, the page's idle moments are not idle on a phone's few cores: the
// engine's worker needs them, and a widget out of view is not looked at yet. So the drawings out
// of view wait for the engine's start to be over (or AT_MOST_MS after the load, or a scroll, which
// draws what came into view): with the browser on one core, a trace showed the roll log's first
// drawing (its clock's locale data) taking 90 ms of the shared core while the worker restored,
// before the returning player's first roll.
// (a test may set globalThis.rollbookEngineLimits = {drawings: ms} before the page's scripts run)
const AT_MOST_MS = globalThis.rollbookEngineLimits?.drawings ?? 3000;
let heldForEngine = false;
let waitedLongEnough = false;

function holdForEngine() {
  if (waitedLongEnough || !engineStarting()) return false;
  if (heldForEngine) return true;
  heldForEngine = true;
  const release = () => {
    if (!heldForEngine) return;
    heldForEngine = false;
    removeEventListener("scroll", scrolled);
    scheduleDrawing();
  };
  const scrolled = () => {
    if (viewScheduled) return;
    viewScheduled = true;
    setTimeout(drawOneInView);
  };
  afterEngineStart(release);
  const atMost = () => setTimeout(() => {
    waitedLongEnough = true;
    release();
  }, AT_MOST_MS);
  if (document.readyState === "complete") atMost();
  else addEventListener("load", atMost, { once: true });
  addEventListener("scroll", scrolled, { passive: true });
  return true;
}

function drawWaiting(deadline) {
  drawingScheduled = false;
  if (holdForEngine()) return;
  const started = performance.now();
  do waiting.shift()?.drawFirst();
  while (waiting.length && deadline.timeRemaining() > 10 && performance.now() - started < SLICE_MS);
  if (waiting.length) scheduleDrawing();
}

function scheduleDrawing() {
  if (!waiting.length) return;
  if (!viewScheduled) {
    viewScheduled = true;
    setTimeout(drawOneInView);
  }
  if (!drawingScheduled) {
    drawingScheduled = true;
    whenIdle(drawWaiting, { timeout: 250, fallbackMs: 16 }); // a busy page still draws one widget each time
  }
}

const INTENT = ["pointerenter", "pointerdown", "focusin"];

/** Whether the reader asked for less motion (the system's setting). */
function lessMotion() {
  return globalThis.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

/**
 * Scroll the page as little as it takes to show `element` whole: up to its bottom when it lies
 * below the screen, never past its top (kept under the sticky header), so an answer taller than the
 * screen shows its first lines; nothing when it is on screen already. Smooth, unless the reader
 * asked for less motion. Returns the distance scrolled.
 */
export function bringIntoView(element) {
  const box = element.getBoundingClientRect();
  if (!box.height) return 0; // not drawn
  const header = document.querySelector(".md-header")?.getBoundingClientRect().bottom ?? 0;
  const top = Math.max(0, header);
  const bottom = document.documentElement.clientHeight || globalThis.innerHeight;
  let by = 0;
  if (box.bottom > bottom) by = Math.min(box.bottom - bottom, box.top - top); // down, as far as needed
  else if (box.top < top) by = box.top - top; // up to its top
  if (by > -1 && by < 1) return 0;
  globalThis.scrollBy({ top: Math.ceil(Math.abs(by)) * Math.sign(by), behavior: lessMotion() ? "auto" : "smooth" });
  return by;
}

/** Call `callback` in a task after the next frame's paint (a task queued from
 *  requestAnimationFrame runs after that frame is painted). */
function afterPaint(callback) {
  requestAnimationFrame(() => setTimeout(callback));
}

export class RollbookElement extends HTMLElement {
  /** Whether the widget asks the engine as soon as it is used (so it starts the engine when it
   *  is shown); false for the kept-data panel and the roll log. */
  static asksEngine = true;
  /** Whether it starts the engine only when the reader reaches for it (a die in the rules text:
   *  a reader who taps nothing downloads no engine), unless the engine is on the device already. */
  static startsOnIntent = false;
  /** Whether the first drawing comes in two steps: `view()` sees `this.whole` false in the first and
   *  leaves out what is below the first screen; the whole comes in a task after that frame's paint.
   *  For a widget whose first drawing is long (the character generator's: 132 elements, one frame
   *  of 50-130 ms of script, style and layout at full CPU in a fresh browser, four times that on a
   *  phone), so the reader's view is drawn, and a tap answered, between the two. The room kept for
   *  the widget is the whole's, so nothing moves when the rest comes. */
  static drawsInTwo = false;
  whole = true;

  #stops = [];
  #inFlight = false;
  #watchingTaps = false;
  #lastTap = null; // the last tap in the widget: {at, x, y}
  #closedUpBy = null; // the tap that last took an item out of a list, and when it closed up (closingUp)
  #queued = false;
  #afterPaint = false;
  #drawn = false;

  connectedCallback() {
    if (!this.#watchingTaps) this.addEventListener("click", (event) => this.#tapped(event), { capture: true });
    this.#watchingTaps = true;
    this.fallback ??= this.textContent.trim(); // what the page shows before the widgets load
    this.engine = { state: "idle", message: null };
    this.listen(watchEngine((status) => {
      this.engine = status;
      this.update();
    }));
    if (!this.#drawn) firstScreenComing(); // before connected(), which may ask the engine
    this.connected?.();
    this.#startEngine();
    if (this.#drawn) {
      this.renderNow(); // moved within the page: it has drawn before
    } else {
      waiting.push(this);
      scheduleDrawing();
    }
  }

  #startEngine() {
    const { asksEngine, startsOnIntent } = this.constructor;
    if (!asksEngine) return;
    // a widget on the page: the engine will be wanted, once the page has settled (a die in the
    // rules text waits for the reader instead, unless the engine is on the device already)
    if (!startsOnIntent || engineOnDevice()) warmUpWhenIdle();
    // A finger on the widget, a pointer over it or the keyboard in it: the tap follows, and the
    // engine's start has begun by then.
    const reach = () => {
      for (const type of INTENT) this.removeEventListener(type, reach);
      warmUp();
    };
    for (const type of INTENT) this.addEventListener(type, reach, { passive: true });
    this.listen(() => { for (const type of INTENT) this.removeEventListener(type, reach); });
  }

  /** The first drawing (from the idle queue): the fallback text goes, the widget comes. */
  drawFirst() {
    if (this.#drawn || !this.isConnected) return;
    this.#drawn = true;
    this.replaceChildren(); // lit-html appends, never clears
    this.classList.add("rollbook-widget");
    if (this.constructor.drawsInTwo) {
      this.whole = false;
      wholesToCome += 1;
      afterPaint(() => {
        this.whole = true;
        this.update();
        wholesToCome -= 1;
        afterPaint(checkFirstScreen);
      });
    }
    this.renderNow();
    if (!firstScreenDone) afterPaint(checkFirstScreen);
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
    if (this.#queued || !this.#drawn) return; // not drawn yet: its first drawing shows the state
    this.#queued = true;
    queueMicrotask(() => {
      this.#queued = false;
      if (this.isConnected) this.renderNow();
    });
  }

  /** Re-render once the next frame is painted: for what the reader does not look at first (the
   *  roll log, under the widget that rolled), so the tap's own answer is drawn without waiting for it. */
  updateAfterPaint() {
    if (this.#afterPaint || !this.#drawn) return;
    this.#afterPaint = true;
    afterPaint(() => {
      this.#afterPaint = false;
      this.update();
    });
  }

  renderNow() {
    render(this.view(), this);
  }

  /**
   * A tap that takes an item out of a list (a character deleted, a foe forgotten, an effect
   * ended, a combatant removed): `action` runs, and a second tap at the same place is not taken
   * (#tapped) until DOUBLE_TAP_MS after the list has closed up: it would land on whatever that
   * put under the finger (the next character's Delete; a foe's one-tap pick, which added it to
   * the fight; the add form's button, which added the foe typed ahead). The list has closed up
   * once `action` settles: an encounter step waits for the engine, and a player who sees nothing
   * happen at once taps again, just as the card goes (which can be before the step settles: its
   * card is drawn out as soon as it is kept).
   */
  closingUp(action) {
    const closing = { ...this.#lastTap, closed: null };
    this.#closedUpBy = closing;
    const result = action();
    const closed = () => { closing.closed = performance.now(); };
    Promise.resolve(result).then(closed, closed);
    return result;
  }

  /** Every tap in the widget, seen first (capture): one at the place of a tap that closed a list up,
   *  before that list has closed up or within DOUBLE_TAP_MS of it, is that double tap's second and
   *  goes no further. Elsewhere, or later, a tap is the player's own. (A key's click has no place:
   *  two presses of Enter count as one place.) */
  #tapped(event) {
    const tap = { at: event.timeStamp, x: event.clientX, y: event.clientY };
    const first = this.#closedUpBy;
    if (first && this.#closingAt(first, tap.at) && Math.hypot(tap.x - first.x, tap.y - first.y) <= DOUBLE_TAP_PX) {
      event.stopImmediatePropagation();
      event.preventDefault();
      return;
    }
    this.#lastTap = tap;
  }

  /** Whether the list that `closing` (closingUp's) took an item out of is still closing up at `at`
   *  (a time on the events' clock, which performance.now() shares). */
  #closingAt(closing, at) {
    if (closing.closed === null) return at - closing.at < CLOSING_AT_MOST_MS;
    return at - Math.max(closing.at, closing.closed) < DOUBLE_TAP_MS;
  }

  /**
   * A tap's request, taken once: `task` (async: it asks the engine and shows the answer) is not
   * started again while one is on its way, so a second tap made before the first answer is
   * shown (a quick double tap, a tap while the engine starts) rolls nothing more; a tap after
   * the answer is shown is taken. Resolves with what `task` resolves to, or null for a tap not taken.
   */
  async once(task) {
    if (this.#inFlight) return null;
    this.#inFlight = true;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.#inFlight = false;
    };
    try {
      return await task();
    } finally {
      // taken again once the answer is painted (update() draws it in a microtask); a tab out
      // of view paints nothing, so a timer lets go as well
      afterPaint(release);
      setTimeout(release, 250);
    }
  }

  /** After a tap: once the answer (`selector`, in this widget) is drawn, scroll the page as
   *  little as it takes to show it whole (bringIntoView), while the widget is still on screen (a
   *  reader who scrolled away meanwhile keeps their place). */
  showAnswer(selector = ".rollbook-answer") {
    requestAnimationFrame(() => this.revealAnswer(selector));
  }

  /** showAnswer's scroll, now (for a caller already past the answer's drawing). */
  revealAnswer(selector = ".rollbook-answer") {
    const answer = this.querySelector(selector);
    if (answer && inView(this)) bringIntoView(answer);
  }

  /** The line that says the engine is starting (or starting again, after it stopped), or failed
   *  with a Retry button, or with Reload where a newer deploy replaced the page's engine (its
   *  status says `reload`: deploy.js); the engine's messages are player sentences (engine.js). The
   *  line is there (empty) while the engine is idle or ready too: a live region must exist before
   *  it speaks, and nothing under it moves when the engine starts and stops starting. */
  engineNotice() {
    const { state, message, reload } = this.engine;
    if (state === "failed" && reload) {
      return html`<div class="rollbook-engine-state rollbook-problem" role="alert">
        <p>${message}</p>
        <button type="button" class="md-button md-button--primary" @click=${() => globalThis.location.reload()}>Reload</button>
      </div>`;
    }
    if (state === "failed") {
      return html`<div class="rollbook-engine-state rollbook-problem" role="alert">
        <p>${message}</p>
        <button type="button" class="md-button" @click=${() => retry()}>Retry</button>
      </div>`;
    }
    return html`<p class="rollbook-engine-state" role="status">${state === "starting" ? message ?? "Starting the dice engine…" : ""}</p>`;
  }
}

/** Define a custom element once, even if this module is evaluated again. */
export function define(name, elementClass) {
  if (!customElements.get(name)) customElements.define(name, elementClass);
}
